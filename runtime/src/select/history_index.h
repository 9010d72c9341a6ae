// StarPU's history entries of one performance model, worker architecture and implementation,
// found by footprint and by data size. StarPU keeps them in a list (newest first) and a
// footprint hash it does not export; a program whose calls change size (LU's shrinking
// matrices) has one entry per size, so walking the list at every call would cost as much as
// the call. The index follows the list as StarPU prepends to it.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <functional>

namespace peppher::detail {

/// @brief The entry of @p per_arch for @p footprint, or null.
const starpu_perfmodel_history_entry* history_entry_of(const starpu_perfmodel_per_arch* per_arch,
                                                       std::uint32_t footprint);

/// @brief Calls @p visit with the entries of @p per_arch whose data size is within
///        [@p size / 2, 2 * @p size], nearest to @p size first (by ratio), until it returns
///        true.
void visit_sizes_near(const starpu_perfmodel_per_arch* per_arch, std::size_t size,
                      const std::function<bool(const starpu_perfmodel_history_entry&)>& visit);

/// @brief The data size StarPU keys @p task's history entry with on @p arch (its
///        `size` field): the architecture's or the model's size_base, else the sum of the
///        task's data sizes. @p arch may be null (the model's rule only).
std::size_t history_size(starpu_perfmodel* model, starpu_task* task, starpu_perfmodel_arch* arch,
                         unsigned impl);

/// @brief Forgets the index (StarPU frees its models at shutdown): from init().
void forget_history_index();

}  // namespace peppher::detail
