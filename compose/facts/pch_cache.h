// The cache folder of precompiled runtime headers (source_parser.cpp): one per set of flags,
// Clang version and runtime headers, so a user who builds in many folders or updates the
// runtime would collect them without end (200 of about 8 MB each here after a few days).
#pragma once

#include <cstddef>
#include <string>

namespace peppher::facts {

/// How many precompiled headers the cache folder keeps: the most recently used ones.
constexpr std::size_t kCachedHeadersKept = 16;

/// @brief A cached precompiled header was used: its time becomes now, so that pruning keeps
///        it (Clang checks the times of the headers it was built from, not its own).
void note_pch_used(const std::string& pch) noexcept;

/// @brief After a new precompiled header was written into @p dir: removes the least recently
///        used `runtime-*.pch` beyond the newest @p keep, with their `.h`, and the `.tmp` files
///        that runs killed while building one left (an hour old or more). A run that still
///        reads a removed one keeps its open file; one about to open it rebuilds it.
void prune_pch_cache(const std::string& dir, std::size_t keep = kCachedHeadersKept) noexcept;

}  // namespace peppher::facts
