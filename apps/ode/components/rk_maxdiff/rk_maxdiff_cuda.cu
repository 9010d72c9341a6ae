// rk_maxdiff, CUDA variant: change = max(change, max_i |y_next[i] - y[i]|), one block of 256
// threads reducing in shared memory; the Scalar view's data is a device pointer. Compiled, not run.
#include <peppher/cuda.h>

#include "../ode_components.h"

namespace {

__global__ void kernel(const double* y_next, const double* y, int n, double* change) {
  __shared__ double partial[256];
  double m = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmax(m, fabs(y_next[i] - y[i]));
  partial[threadIdx.x] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    double all = *change;
    for (int j = 0; j < blockDim.x; ++j) all = fmax(all, partial[j]);
    *change = all;
  }
}

}  // namespace

void rk_maxdiff_cuda(const peppher::Vector<double>& y_next, const peppher::Vector<double>& y,
                     peppher::Scalar<double>& change) {
  const int n = static_cast<int>(y.size());
  kernel<<<1, 256, 0, peppher::cuda::stream()>>>(y_next.data(), y.data(), n, change.host_write());
  peppher::cuda::finish("rk_maxdiff_cuda");
}
