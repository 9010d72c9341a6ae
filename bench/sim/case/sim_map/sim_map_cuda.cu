// sim_map on a CUDA GPU (bench/gpu's map), and its prediction function from the H200's figures
// (bench/README.md, bench/gpu on an NVIDIA H200): 11.8 us a task (the CUDA model's time at
// n = 64, 40 rounds) plus 0.19 ps per element and round (the far split case: the GPU alone
// took 2.7 ms a call on n = 16M, 64 rounds, of which the two 64 MB copies at 54 GB/s are
// 2.5 ms: about 0.2 ms of kernel).
#include <peppher/cuda.h>
#include <peppher/runtime.h>
#include <starpu.h>

namespace {

constexpr int kRounds = 40;  // rounds per element (sim_map.xml)

__global__ void sim_map_kernel(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int r = 0; r < kRounds; ++r) v = v * 0.999f + 0.5f;
  y[i] = v;
}

}  // namespace

void sim_map_cuda(const peppher::Vector<float>& x, peppher::Vector<float>& y) {
  const int n = static_cast<int>(y.size());
  if (n <= 0) return;
  sim_map_kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(x.data(), y.data(), n);
  peppher::cuda::finish("sim_map_cuda");
}

extern "C" double sim_map_cuda_cost(const starpu_task* task, unsigned /*arch*/,
                                    unsigned /*nimpl*/) {
  const double n = static_cast<double>(starpu_vector_get_nx(task->handles[1]));
  return 11.8 + 1.9e-7 * n * kRounds;
}
