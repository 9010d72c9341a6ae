// OpenMP glue of OPENMP variants' backend wrappers, kept here so that no header generated
// code includes needs <omp.h>.
#include <omp.h>
#include <starpu.h>

#include "peppher/task.h"

namespace peppher {

void use_combined_worker_threads() {
  const int size = starpu_combined_worker_get_size();
  omp_set_num_threads(size > 0 ? size : 1);
}

}  // namespace peppher
