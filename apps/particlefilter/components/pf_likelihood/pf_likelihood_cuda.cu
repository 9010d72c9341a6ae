// pf_likelihood, CUDA variant: one thread per particle of the block on this worker's stream,
// pf_particle.h's rules (compiled with -fmad=false: no contraction into fused multiply-adds).
// The Vector views' data() are device pointers inside the variant. Compiled, not run here.
// PEPPHER_FLAGS(-O2 -fmad=false)
#include <peppher/cuda.h>
#include <peppher/runtime.h>

#include "../pf_particle.h"

namespace {

__global__ void likelihood_kernel(const int* video, long long pixels, const int* disk, int ones,
                                  int frame, int cols, int frames, int particles, double* x,
                                  double* y, int* seed, double* weights, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  pf::move(&x[i], &y[i], &seed[i]);
  weights[i] = pf::weight(video, cols, frames, pixels, disk, ones, frame, x[i], y[i], particles);
}

}  // namespace

void pf_likelihood_cuda(const peppher::Vector<int>& video, const peppher::Vector<int>& disk,
                        int frame, int cols, int frames, int particles, int,
                        peppher::Vector<double>& x, peppher::Vector<double>& y,
                        peppher::Vector<int>& seed, peppher::Vector<double>& weights) {
  const int n = static_cast<int>(x.size());
  if (n == 0) return;
  likelihood_kernel<<<(n + 127) / 128, 128, 0, peppher::cuda::stream()>>>(
      video.data(), static_cast<long long>(video.size()), disk.data(),
      static_cast<int>(disk.size() / 2), frame, cols, frames, particles, x.data(), y.data(),
      seed.data(), weights.data(), n);
  peppher::cuda::finish("pf_likelihood_cuda");
}
