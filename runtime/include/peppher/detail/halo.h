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

/// @brief Whether StarPU matrix buffers @p a and @p b are the same data on this worker's
///        memory node (a block at an end of its container stands in its own halo's
///        place): the same device handle and offset, on a CPU as on a device (where the
///        buffers' host pointers are null).
inline bool same_matrix_buffer(void* a, void* b) noexcept {
  return STARPU_MATRIX_GET_DEV_HANDLE(a) == STARPU_MATRIX_GET_DEV_HANDLE(b) &&
         STARPU_MATRIX_GET_OFFSET(a) == STARPU_MATRIX_GET_OFFSET(b);
}
/// @brief same_matrix_buffer() for StarPU vector buffers.
inline bool same_vector_buffer(void* a, void* b) noexcept {
  return STARPU_VECTOR_GET_DEV_HANDLE(a) == STARPU_VECTOR_GET_DEV_HANDLE(b) &&
         STARPU_VECTOR_GET_OFFSET(a) == STARPU_VECTOR_GET_OFFSET(b);
}

/// @brief For generated backend wrappers: the halo of the block in StarPU matrix buffer
///        @p core from the buffers @p before / @p after. A block at an end of the container
///        gets its own block handle in that place (the task has no neighbour there):
///        recognised by its buffer, it gives no halo. On a CUDA worker the pointers are
///        device pointers.
inline Halo matrix_halo(void* core, void* before, void* after) noexcept {
  Halo h;
  void* sides[2] = {before, after};
  for (int k = 0; k < 2; ++k) {
    if (same_matrix_buffer(sides[k], core)) continue;
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
    if (same_vector_buffer(sides[k], core)) continue;
    h.ptr[k] = reinterpret_cast<const void*>(STARPU_VECTOR_GET_PTR(sides[k]));
    h.n[k] = STARPU_VECTOR_GET_NX(sides[k]);
  }
  return h;
}

/// @brief For generated OpenCL wrappers: the rows of the halo in StarPU matrix buffer
///        @p side of the block in @p core (0 where the block stands in its place), which
///        the kernel receives as an int after the halo's buffers.
inline int matrix_halo_rows(void* core, void* side) noexcept {
  return same_matrix_buffer(side, core) ? 0 : static_cast<int>(STARPU_MATRIX_GET_NY(side));
}
/// @brief matrix_halo_rows() for StarPU vector buffers: the halo's elements.
inline int vector_halo_elements(void* core, void* side) noexcept {
  return same_vector_buffer(side, core) ? 0 : static_cast<int>(STARPU_VECTOR_GET_NX(side));
}

}  // namespace peppher::detail
