// sim_map on a CUDA GPU (bench/gpu's map), and its prediction function from the H200's figures
// (../h200_figures.h): a task's cost plus one multiply-add per element and round.
#include <peppher/cuda.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include "../h200_figures.h"

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
  return h200::kGpuTaskUs + h200::kGpuElementRoundUs * n * kRounds;
}
