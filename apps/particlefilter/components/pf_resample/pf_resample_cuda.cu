// pf_resample, CUDA variant: one thread per new particle of the block, pf_particle.h's search
// on this worker's stream; the views' data are device pointers. Compiled, not run here.
// PEPPHER_FLAGS(-O2 -fmad=false)
#include <peppher/cuda.h>
#include <peppher/runtime.h>

#include "../pf_particle.h"

namespace {

__global__ void resample_kernel(const double* cdf, int n, const double* x, const double* y,
                                const double* u1, int first, double* x_new, double* y_new, int m) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  const int i = pf::find_index(cdf, n, *u1 + (first + j) / static_cast<double>(n));
  x_new[j] = x[i];
  y_new[j] = y[i];
}

}  // namespace

void pf_resample_cuda(const peppher::Vector<double>& cdf, const peppher::Vector<double>& x,
                      const peppher::Vector<double>& y, const peppher::Scalar<double>& u1,
                      int first, int, peppher::Vector<double>& x_new,
                      peppher::Vector<double>& y_new) {
  const int m = static_cast<int>(x_new.size());
  if (m == 0) return;
  resample_kernel<<<(m + 127) / 128, 128, 0, peppher::cuda::stream()>>>(
      cdf.data(), static_cast<int>(cdf.size()), x.data(), y.data(), u1.host_read(), first,
      x_new.data(), y_new.data(), m);
  peppher::cuda::finish("pf_resample_cuda");
}
