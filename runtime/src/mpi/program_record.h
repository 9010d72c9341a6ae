// The comparison of the ranks' programs in a distributed run (ProgramRecord): what one rank
// did since the ranks last compared, hashed, and the message that names the first
// difference. Used by the StarPU-MPI layer (mpi_layer.cpp).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "peppher/detail/call.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/storage.h"

namespace peppher::mpi {

/// @brief FNV-1a's offset basis: the hash of nothing.
constexpr std::uint64_t kSeed = 1469598103934665603ull;

/// @brief @p h with @p v folded in.
inline std::uint64_t fold(std::uint64_t h, std::uint64_t v) noexcept {
  v *= 0x9e3779b97f4a7c15ull;
  v ^= v >> 32;
  return (h ^ v) * 0x100000001b3ull;
}

/// @brief @p h with the characters of @p text folded in.
inline std::uint64_t fold(std::uint64_t h, const char* text) noexcept {
  for (; *text != '\0'; ++text) h = (h ^ static_cast<unsigned char>(*text)) * 0x100000001b3ull;
  return fold(h, 0xff);
}

// What one rank did since the ranks last compared their programs: one entry per component
// call (with what it registered and submitted), container creation and synchronisation
// point, each with a hash of everything that must be the same on every rank. Values may
// differ between ranks (by-value arguments, the contents of containers and arrays, the
// variant each rank would choose: a task runs on one rank, with that rank's); what makes
// StarPU-MPI's communications match may not: the interfaces called, in which order, on
// which containers (numbered in the order of their creation) of which sizes, the tags,
// access modes and sizes of every task's data, hence the splits (docs/MPI.md).
// Not thread-safe: the layer holds its lock around every use.
class ProgramRecord {
 public:
  /// @brief Starts a new session's record (init()).
  void start();
  /// @brief Notes component call @p call (its interface, operands, containers' shapes).
  void call(const detail::Call& call);
  /// @brief Notes the creation of container @p s.
  void created(const detail::Storage& s);

  // Folds @p v into the current call's entry (a tag, a task's data).
  void note(std::uint64_t v);
  // Raw memory is registered while a call collects its operands, before call(): it goes
  // with the next entry.
  void note_before_call(std::uint64_t v) { pending_ = fold(pending_, v); }

  // Collective on @p comm (every rank calls it at the same point of an agreeing program).
  void compare(MPI_Comm comm, int nranks, detail::SyncPoint what, std::uint64_t serial,
               std::size_t block);

  bool diverged() const noexcept { return !diverged_.empty(); }

 private:
  struct Operand {
    std::uint64_t serial = 0;  // 0: raw memory
    detail::Shape shape{};
    std::size_t bytes = 0;  // raw memory, when known
  };
  struct Entry {
    enum class Kind : std::uint8_t { Call, Creation, Sync };
    Kind kind = Kind::Call;
    detail::SyncPoint sync{};
    std::uint64_t hash = kSeed;
    std::uint64_t calls = 0;   // Call: its number since init; else the calls made before it
    std::uint64_t serial = 0;  // Creation, Sync: the container (0: none)
    std::size_t block = 0;     // Sync at an element read: the block fetched
    detail::Shape shape{};     // Creation
    const char* iface = "";    // Call (the generated wrapper's string literal)
    std::vector<Operand> operands;
  };
  // Beyond this many entries between two comparisons, the later ones are folded into the
  // last (whose description then says so): the record's memory stays bounded.
  static constexpr std::size_t kMaxEntries = 1u << 16;

  Entry& add(Entry::Kind kind);
  void merge_overflow();

  // " after call 3" (the calls made before @p e).
  static std::string after(const Entry& e);

  std::string describe(const Entry& e) const;
  // What a rank did at synchronisation point @p e.
  static std::string sync_text(const Entry& e);

  // Collective: the records differ; every rank learns the first entry that differs and
  // what each rank did there, and gets the same message.
  std::string first_difference(MPI_Comm comm, int nranks) const;

  std::vector<Entry> entries_;
  Entry overflow_;                 // the entries beyond kMaxEntries are made here
  Entry* current_ = nullptr;       // the last entry made (notes go there)
  std::uint64_t count_ = 0;        // entries since the last comparison, kept or not
  std::uint64_t pending_ = kSeed;  // folded into the next entry
  std::uint64_t calls_ = 0;        // component calls since init
  bool done_ = false;              // the shutdown's comparison agreed
  std::string diverged_;           // the error, once the ranks differ
};

}  // namespace peppher::mpi
