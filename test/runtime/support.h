// Shared helpers of the runtime tests: a runtime session with the test kernels loaded,
// and the bus transfer counter used to check data movements.
#pragma once

#include <starpu.h>

#include "kernels.h"
#include "peppher/runtime.h"

namespace peppher_test {

/// A runtime session (StarPU workers from the ctest environment) with the kernels loaded.
struct Session {
  peppher::Runtime runtime;
  Session() { load_kernels(); }
};

/// Total number of transfers over every bus since the previous call (StarPU resets the
/// counters when they are read). Needs profiling enabled before the transfers happen.
inline int bus_transfers() {
  int total = 0;
  for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
    starpu_profiling_bus_info info;
    if (starpu_bus_get_profiling_info(bus, &info) == 0) total += info.transfer_count;
  }
  return total;
}

}  // namespace peppher_test
