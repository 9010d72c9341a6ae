// Started by test_model_files.cpp: starts the runtime (workers from the environment), runs
// tasks of a codelet with a history model over 100 data sizes (100 entries in its file), says
// "probe: shutting down" and shuts down, which makes StarPU write the model.
#include <starpu.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "peppher/runtime.h"

namespace {

void increment(void* buffers[], void*) {
  auto* v = reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  for (unsigned i = 0; i < STARPU_VECTOR_GET_NX(buffers[0]); ++i) v[i] += 1;
}

}  // namespace

int main() {
  starpu_perfmodel model{};
  model.type = STARPU_HISTORY_BASED;
  model.symbol = "peppher_model_probe";
  starpu_codelet cl{};
  cl.cpu_funcs[0] = increment;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  cl.model = &model;
  std::vector<std::uint32_t> data(100, 0);
  {
    peppher::Runtime runtime;
    for (unsigned n = 1; n <= 100; ++n) {
      starpu_data_handle_t h = nullptr;
      starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(data.data()), n,
                                  sizeof(std::uint32_t));
      for (int k = 0; k < 2; ++k)
        if (starpu_task_insert(&cl, STARPU_RW, h, 0) != 0) return 2;
      starpu_data_unregister(h);
    }
    std::printf("probe: shutting down\n");
    std::fflush(stdout);
  }
  std::printf("probe: done\n");
  return data[0] == 200 && data[99] == 2 ? 0 : 1;  // 2 tasks on every size covering it
}
