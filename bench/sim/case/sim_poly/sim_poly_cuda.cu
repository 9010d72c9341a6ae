// sim_poly on a CUDA GPU, and its prediction function from the H200's figures
// (../h200_figures.h): a task's cost plus one multiply-add per element and coefficient.
#include <peppher/cuda.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include "../h200_figures.h"

namespace {

__global__ void sim_poly_kernel(const float* x, const float* c, int rounds, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = 0;
  for (int k = 0; k < rounds; ++k) v = v * x[i] + c[k];
  y[i] = v;
}

}  // namespace

void sim_poly_cuda(const peppher::Vector<float>& x, const peppher::Vector<float>& c,
                   peppher::Vector<float>& y) {
  const int n = static_cast<int>(y.size());
  if (n <= 0) return;
  sim_poly_kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(
      x.data(), c.data(), static_cast<int>(c.size()), y.data(), n);
  peppher::cuda::finish("sim_poly_cuda");
}

extern "C" double sim_poly_cuda_cost(const starpu_task* task, unsigned /*arch*/,
                                     unsigned /*nimpl*/) {
  const double n = static_cast<double>(starpu_vector_get_nx(STARPU_TASK_GET_HANDLE(task, 0)));
  const double rounds = static_cast<double>(starpu_vector_get_nx(STARPU_TASK_GET_HANDLE(task, 1)));
  return h200::kGpuTaskUs + h200::kGpuElementRoundUs * n * rounds;
}
