// ctest's starpu_bus_calibration (test/CMakeLists.txt): starts and stops the runtime with the
// suite's workers, alone, so that StarPU measures the bus of the suite's STARPU_HOME (where
// none is kept yet) on an idle machine, before any test that predicts a transfer.
#include "peppher/runtime.h"

int main() {
  const peppher::Runtime runtime;
  return 0;
}
