// The extension point through which a distributed layer (StarPU-MPI, in the separate
// peppher_mpi library) takes over starting and stopping StarPU; the core runtime never
// includes MPI. Without a layer installed the runtime is one process (rank 0 of 1).
#pragma once

#include <starpu.h>

#include <cstdint>
#include <string>
#include <vector>

namespace peppher::detail {

class Call;
class Storage;

/// @brief Where the ranks compare their records of the program (Distributed::synchronise):
///        a point at which this rank is about to wait for tasks or data that other ranks'
///        calls take part in (docs/MPI.md "What each rank may do").
enum class SyncPoint : std::uint8_t {
  HostRead,     ///< the host reads a container a call used (element or whole)
  HostWrite,    ///< the host writes a container a call used
  ElementRead,  ///< an element read that fetches only its block
  Resize,       ///< a container created distributed is resized
  Gather,       ///< a call gathers a container created distributed (whole, another split)
  Destroy,      ///< a container a call used is destroyed (its tasks are waited for)
  CallEnd,      ///< a call waits for its tasks (raw-pointer operands, synchronous calls)
  BytesSent,    ///< peppher::mpi::bytes_sent()
  Shutdown,     ///< PEPPHER_SHUTDOWN(): the last comparison
};

/// @brief What a distributed layer provides to init()/shutdown() and to rank()/nranks().
/// @attention Installed before init() (by peppher::mpi::init) and removed by shutdown().
class Distributed {
 public:
  virtual ~Distributed() = default;
  /// @brief Starts StarPU with @p conf (and the layer underneath); StarPU's error code.
  virtual int start(starpu_conf& conf) = 0;
  /// @brief Stops StarPU and the layer underneath; all tasks have finished.
  virtual void stop() = 0;
  /// @brief This process's rank and the number of ranks, once started.
  virtual int rank() const noexcept = 0;
  virtual int nranks() const noexcept = 0;
  /// @brief Lines added to the PEPPHER_REPORT table (e.g. bytes sent and received).
  virtual std::string report() const = 0;

  // -- data: every rank registers the same data in the same order (sequential task flow) --

  /// @brief A container's handle was registered: it gets a tag; rank 0 owns it.
  virtual void container_registered(starpu_data_handle_t whole) = 0;
  /// @brief The blocks of a new partition plan of @p whole: tags and owner ranks (the
  ///        block distribution: block k of B lives on rank k * nranks / B). @p whole is
  ///        null for the blocks of a container created distributed (data of their own).
  virtual void blocks_planned(starpu_data_handle_t whole,
                              const std::vector<starpu_data_handle_t>& blocks) = 0;
  /// @brief @p blocks were just partitioned from @p whole: each block's owner must hold its
  ///        current value (sent from the whole's owner when only that one holds it), unless
  ///        @p overwritten: the call that partitioned it writes every block without reading
  ///        it, so the old values are needed nowhere and nothing is sent.
  virtual void partitioned(starpu_data_handle_t whole,
                           const std::vector<starpu_data_handle_t>& blocks, bool overwritten) = 0;
  /// @brief @p whole is about to be gathered from @p blocks on every rank (host access, a
  ///        whole-data call, another split): every rank fetches each block from its owner.
  virtual void gathering(starpu_data_handle_t whole,
                         const std::vector<starpu_data_handle_t>& blocks) = 0;
  /// @brief The host is about to read @p blocks without the rest of their container (an
  ///        element read, or materialising a container created distributed): every rank
  ///        fetches each block from its owner (once: a rank holding its value keeps it).
  virtual void fetch_blocks(const std::vector<starpu_data_handle_t>& blocks) = 0;
  /// @brief The host is about to access @p whole (unpartitioned): fetch the owner's value.
  virtual void host_access(starpu_data_handle_t whole) = 0;
  /// @brief Every rank's program wrote @p whole on the host: the owner's copy is the value
  ///        from now on; cached copies of it are forgotten (those of its blocks when their
  ///        plan is next partitioned: partitioned()).
  virtual void host_written(starpu_data_handle_t whole) = 0;
  /// @brief Small data holding boundary rows (elements) of @p block (its halo pieces,
  ///        Storage::halo_pieces_locked): tags; they live where @p block lives.
  virtual void halo_registered(starpu_data_handle_t block,
                               const std::vector<starpu_data_handle_t>& pieces) = 0;
  /// @brief @p whole (and its @p blocks) are about to be unregistered.
  virtual void unregistering(starpu_data_handle_t whole,
                             const std::vector<starpu_data_handle_t>& blocks) = 0;

  /// @brief Raw memory registered for one call (each rank has its own copy of the array):
  ///        a tag, owned by rank 0; its @p blocks, when split, by the block distribution.
  virtual void raw_registered(starpu_data_handle_t h,
                              const std::vector<starpu_data_handle_t>& blocks) = 0;
  /// @brief Before a written raw operand is unregistered: every rank's array gets the result.
  virtual void raw_written(starpu_data_handle_t h,
                           const std::vector<starpu_data_handle_t>& blocks) = 0;

  /// @brief Submits @p task (fully built, never submitted) on the ranks that execute it,
  ///        moving its data; takes ownership of @p task. Returns 0 when this rank submitted
  ///        it, 1 when another rank executes it (then @p task is already destroyed), or
  ///        StarPU's negative error code (then @p task still belongs to the caller).
  virtual int submit(starpu_task* task) = 0;

  // -- the sequential task flow, checked: every rank makes the same calls -----------------

  /// @brief Component call @p call begins (its operands are known, not yet resolved): its
  ///        interface and operands, and what it registers and submits until the next call,
  ///        are folded into this rank's record of the program.
  virtual void call_begins(const Call& call) = 0;
  /// @brief Container @p storage (a new payload: Storage::serial()) was created.
  virtual void container_created(const Storage& storage) = 0;
  /// @brief This rank is about to wait for tasks or data that other ranks take part in, at
  ///        @p what on container @p serial (0: none; ElementRead: its block @p block): the
  ///        ranks compare their records, each
  ///        at the same point of its program when the programs agree, before any of them
  ///        waits. Throws peppher::Error naming the first call (or container creation, or
  ///        synchronisation point) that differs between the ranks; once they differ, every
  ///        later synchronise() throws it again at once, and nothing may wait for other
  ///        ranks any more (diverged()). Without effect on one rank.
  virtual void synchronise(SyncPoint what, std::uint64_t serial, std::size_t block) = 0;
  /// @brief True once synchronise() found that the ranks' programs differ: the runtime
  ///        then waits for no task (a task may wait for data no other rank sends).
  virtual bool diverged() const noexcept = 0;
};

/// @brief Runs @p layer's synchronise() where nothing may be thrown (a destructor): true
///        when this rank may wait for its tasks, false when the ranks diverged (the error is
///        thrown at the next synchronisation point that can throw).
inline bool may_wait(Distributed* layer, SyncPoint what, std::uint64_t serial) noexcept {
  if (layer == nullptr) return true;
  try {
    layer->synchronise(what, serial, 0);
  } catch (...) {  // the error itself, or no memory to compare: diverged() tells
  }
  return !layer->diverged();
}

/// @brief Installs (or, with nullptr, removes) the distributed layer.
void set_distributed(Distributed* layer) noexcept;
/// @brief The installed layer, or nullptr.
Distributed* distributed() noexcept;

}  // namespace peppher::detail
