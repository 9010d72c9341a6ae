// sim_poly on the CPU, and its prediction function from the H200's figures (../h200_figures.h):
// a task's cost plus one multiply-add per element of the block and coefficient.
#include <peppher/runtime.h>
#include <starpu.h>

#include "../h200_figures.h"

void sim_poly_cpu(const peppher::Vector<float>& x, const peppher::Vector<float>& c,
                  peppher::Vector<float>& y) {
  for (size_t i = 0; i < y.size(); ++i) {
    float v = 0;
    for (size_t k = 0; k < c.size(); ++k) v = v * x.data()[i] + c.data()[k];
    y.data()[i] = v;
  }
}

extern "C" double sim_poly_cpu_cost(const starpu_task* task, unsigned /*arch*/,
                                    unsigned /*nimpl*/) {
  const double n = static_cast<double>(starpu_vector_get_nx(STARPU_TASK_GET_HANDLE(task, 0)));
  const double rounds = static_cast<double>(starpu_vector_get_nx(STARPU_TASK_GET_HANDLE(task, 1)));
  return h200::kCpuTaskUs + h200::kCpuElementRoundUs * n * rounds;
}
