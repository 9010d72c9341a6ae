// pf_normalize, CUDA variant: one thread does the sums, the estimate, the cumulative weights
// and the offset in the CPU variant's order (compiled with -fmad=false); the Scalar and
// Vector views' data are device pointers inside the variant. Compiled, not run here.
// PEPPHER_FLAGS(-O2 -fmad=false)
#include <peppher/cuda.h>
#include <peppher/runtime.h>

#include "../pf_particle.h"

namespace {

__global__ void normalize_kernel(const double* x, const double* y, const double* w, int n,
                                 int frame, int* draw, double* cdf, double* u1, double* track) {
  double s = 0.0, sx = 0.0, sy = 0.0;
  for (int i = 0; i < n; ++i) s = s + w[i];
  for (int i = 0; i < n; ++i) sx = sx + x[i] * w[i];
  for (int i = 0; i < n; ++i) sy = sy + y[i] * w[i];
  track[2 * frame] = sx / s;
  track[2 * frame + 1] = sy / s;
  for (int i = 0; i < n; ++i) cdf[i] = w[i] / s;
  for (int i = 1; i < n; ++i) cdf[i] = cdf[i - 1] + cdf[i];
  *u1 = pf::randu(draw) / n;
}

}  // namespace

void pf_normalize_cuda(const peppher::Vector<double>& x, const peppher::Vector<double>& y,
                       const peppher::Vector<double>& weights, int frame,
                       peppher::Scalar<int>& draw, peppher::Vector<double>& cdf,
                       peppher::Scalar<double>& u1, peppher::Vector<double>& track) {
  normalize_kernel<<<1, 1, 0, peppher::cuda::stream()>>>(
      x.data(), y.data(), weights.data(), static_cast<int>(weights.size()), frame,
      draw.host_write(), cdf.data(), u1.host_write(), track.data());
  peppher::cuda::finish("pf_normalize_cuda");
}
