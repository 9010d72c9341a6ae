// The compiler's OpenMP library behind openmp_threads.h; compiled without StarPU's include
// path, so that <omp.h> is the compiler's (see the header).
#include "devices/openmp_threads.h"

#include <omp.h>

namespace peppher::detail {

void openmp_set_threads(int threads) noexcept {
  omp_set_num_threads(threads);
}

int openmp_max_threads() noexcept {
  return omp_get_max_threads();
}

void openmp_end_team() noexcept {
  omp_pause_resource_all(omp_pause_soft);
}

}  // namespace peppher::detail
