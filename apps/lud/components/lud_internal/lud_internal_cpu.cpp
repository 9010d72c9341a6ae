// lud_internal, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// the trailing matrix below and right of the perimeter loses L (block column) times U (block row).
#include "../lud_block.h"
#include "../lud_components.h"

void lud_internal_cpu(peppher::Matrix<float>& a, int offset) {
  float* p = a.data();
  const std::size_t n = a.rows(), first = offset + LUD_B;
  for (std::size_t r = first; r < n; ++r)
    for (std::size_t c = first; c < n; ++c) lud::internal(p, a.ld(), offset, r, c);
}
