// The tag that creates a smart container distributed (`Vector<double> v(n,
// peppher::distributed)`): no rank holds the whole; each block lives, from its first
// partitioned call on, only on the rank whose tasks use it (docs/MPI.md "Containers").
#pragma once

namespace peppher {

/// @brief Type of peppher::distributed (like std::in_place_t: pass the constant).
struct DistributedTag {
  explicit constexpr DistributedTag() = default;
};

/// @brief Constructor argument of Vector and Matrix: the container is created without host
///        memory; its first partitioned call creates each block, zero-filled, on the rank
///        (under StarPU-MPI) and in the memory where the block's task runs, and later calls
///        with the same split keep the blocks there. An element read fetches only the block
///        holding the element; any other host access, a whole-data call or another split
///        materialises the whole on every rank (from then on it is an ordinary container).
///        In one process the same holds, with one rank.
// NOLINTNEXTLINE(readability-identifier-naming): a tag, spelled like std::nothrow
inline constexpr DistributedTag distributed{};

}  // namespace peppher
