// StarPU's history entries of one performance model, worker architecture and implementation,
// found by footprint. StarPU keeps them in a list (newest first) and a footprint hash it does
// not export; a program whose calls change size (LU's shrinking matrices) has one entry per
// size, so walking the list at every lookup would cost as much as the call. The index follows
// the list as StarPU prepends to it.
#pragma once

#include <starpu.h>

#include <cstdint>

namespace peppher::detail {

/// @brief The entry of @p per_arch for @p footprint, or null.
const starpu_perfmodel_history_entry* history_entry_of(const starpu_perfmodel_per_arch* per_arch,
                                                       std::uint32_t footprint);

/// @brief Forgets the index (StarPU frees its models at shutdown): from init().
void forget_history_index();

}  // namespace peppher::detail
