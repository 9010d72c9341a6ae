// scale on a CUDA GPU, and its prediction function: 0.2 ns per element plus a 20 us launch,
// 50 times the CPU variant's rate: large calls belong on the GPU, small ones (where the
// launch and the transfers dominate) on the CPU.
#include <peppher/cuda.h>

#include <algorithm>

namespace {

__global__ void scale_kernel(float* x, int n, float factor) {
  const int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) x[i] *= factor;
}

}  // namespace

void scale_cuda(float* x, int n, float factor) {
  if (n <= 0) return;
  constexpr int kThreads = 256;
  const int blocks = std::min((n + kThreads - 1) / kThreads, 4096);
  scale_kernel<<<blocks, kThreads, 0, peppher::cuda::stream()>>>(x, n, factor);
  peppher::cuda::finish("scale_cuda");
}

extern "C" double scale_cuda_cost(const starpu_task* task, unsigned /*arch*/, unsigned /*nimpl*/) {
  return 20.0 + 0.0002 * static_cast<double>(starpu_vector_get_nx(task->handles[0]));
}
