// sim_map on the CPU (bench/gpu's map), and its prediction function from the H200's figures
// (bench/README.md, bench/gpu on an NVIDIA H200): 1.54 ns per element and round on one core
// (the far split case: 64 rounds on n = 16M took the 15 CPU workers about 40 x the GPU's
// 2.7 ms, 110 ms) plus 5.5 us a task (the CPU model's 9.4 us at n = 64, 40 rounds).
#include <peppher/runtime.h>
#include <starpu.h>

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
  return 5.5 + 1.54e-3 * n * kRounds;
}
