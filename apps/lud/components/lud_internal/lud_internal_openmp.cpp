// lud_internal, OpenMP variant: the trailing matrix's rows shared by the team; same operations
// as the sequential variant.
#include "../lud_block.h"
#include "../lud_components.h"

void lud_internal_openmp(peppher::Matrix<float>& a, int offset) {
  float* p = a.data();
  const std::size_t ld = a.ld();
  const long n = static_cast<long>(a.rows()), first = offset + LUD_B;
#pragma omp parallel for schedule(static)
  for (long r = first; r < n; ++r)
    for (long c = first; c < n; ++c)
      lud::internal(p, ld, offset, static_cast<std::size_t>(r), static_cast<std::size_t>(c));
}
