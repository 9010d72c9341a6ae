// sim_map on the CPU (bench/gpu's map), and its prediction function from the H200's figures
// (../h200_figures.h): a task's cost plus one multiply-add per element and round.
#include <peppher/runtime.h>
#include <starpu.h>

#include "../h200_figures.h"

namespace {
constexpr int kRounds = 40;  // rounds per element (sim_map.xml)
}  // namespace

void sim_map_cpu(const peppher::Vector<float>& x, peppher::Vector<float>& y) {
  for (size_t i = 0; i < y.size(); ++i) {
    float v = x.data()[i];
    for (int r = 0; r < kRounds; ++r) v = v * 0.999f + 0.5f;
    y.data()[i] = v;
  }
}

extern "C" double sim_map_cpu_cost(const starpu_task* task, unsigned /*arch*/, unsigned /*nimpl*/) {
  const double n = static_cast<double>(starpu_vector_get_nx(task->handles[1]));
  return h200::kCpuTaskUs + h200::kCpuElementRoundUs * n * kRounds;
}
