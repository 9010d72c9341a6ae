// What a variant's view of a halo operand (FORMAT.md `halo`) knows of the rows (elements)
// around its block: the neighbouring blocks' boundary, which the task receives as two
// small extra buffers (see detail::Call). Vector and Matrix views carry one.
#pragma once

#include <starpu.h>

#include <cstddef>

namespace peppher::detail {

/// @brief The halo of a block view: [0] before the block (rows above / elements before),
///        [1] after it. n[k] == 0 where the block is at an end of the whole container.
struct Halo {
  const void* ptr[2] = {nullptr, nullptr};
  std::size_t n[2] = {0, 0};   ///< rows (Matrix) or elements (Vector)
  std::size_t ld[2] = {0, 0};  ///< Matrix: elements between two rows of the halo
};

/// @brief For generated backend wrappers: the halo of the block in StarPU matrix buffer
///        @p core from the buffers @p before / @p after. A block at an end of the container
///        gets its own block handle in that place (the task has no neighbour there):
///        recognised by its pointer, it gives no halo.
inline Halo matrix_halo(void* core, void* before, void* after) noexcept {
  Halo h;
  void* sides[2] = {before, after};
  for (int k = 0; k < 2; ++k) {
    if (STARPU_MATRIX_GET_PTR(sides[k]) == STARPU_MATRIX_GET_PTR(core)) continue;
    h.ptr[k] = reinterpret_cast<const void*>(STARPU_MATRIX_GET_PTR(sides[k]));
    h.n[k] = STARPU_MATRIX_GET_NY(sides[k]);
    h.ld[k] = STARPU_MATRIX_GET_LD(sides[k]);
  }
  return h;
}

/// @brief matrix_halo() for StarPU vector buffers.
inline Halo vector_halo(void* core, void* before, void* after) noexcept {
  Halo h;
  void* sides[2] = {before, after};
  for (int k = 0; k < 2; ++k) {
    if (STARPU_VECTOR_GET_PTR(sides[k]) == STARPU_VECTOR_GET_PTR(core)) continue;
    h.ptr[k] = reinterpret_cast<const void*>(STARPU_VECTOR_GET_PTR(sides[k]));
    h.n[k] = STARPU_VECTOR_GET_NX(sides[k]);
  }
  return h;
}

}  // namespace peppher::detail
