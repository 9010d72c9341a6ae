// The StarPU-MPI layer (library peppher_mpi): MPI and StarPU-MPI start and stop, the
// placement of each rank's workers on its own cores, the per-rank communication report, and
// the comparison of the ranks' programs (Record: every rank makes the same calls).
#include <mpi.h>
#include <starpu.h>
#include <starpu_mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "peppher/detail/call.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/starpu_compat.h"
#include "peppher/detail/storage.h"
#include "peppher/detail/trace.h"
#include "peppher/error.h"
#include "peppher/mpi.h"

namespace peppher::mpi {
namespace {

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

constexpr std::uint64_t kSeed = 1469598103934665603ull;  // FNV-1a's offset basis

std::uint64_t fold(std::uint64_t h, std::uint64_t v) noexcept {
  v *= 0x9e3779b97f4a7c15ull;
  v ^= v >> 32;
  return (h ^ v) * 0x100000001b3ull;
}

std::uint64_t fold(std::uint64_t h, const char* text) noexcept {
  for (; *text != '\0'; ++text) h = (h ^ static_cast<unsigned char>(*text)) * 0x100000001b3ull;
  return fold(h, 0xff);
}

std::string shape_text(const detail::Shape& shape) {
  switch (shape.layout) {
    case detail::Layout::Vector:
      return "Vector of " + std::to_string(shape.nx) + " elements";
    case detail::Layout::Matrix:
      return "Matrix of " + std::to_string(shape.ny) + " x " + std::to_string(shape.nx);
    case detail::Layout::Variable:
      break;
  }
  return "Scalar";
}

// "rank 2", "ranks 1 and 3", "ranks 1, 2 and 3".
std::string ranks_text(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) text += i + 1 == ranks.size() ? " and " : ", ";
    text += std::to_string(ranks[i]);
  }
  return text;
}

// What one rank did since the ranks last compared their programs: one entry per component
// call (with what it registered and submitted), container creation and synchronisation
// point, each with a hash of everything that must be the same on every rank. Values may
// differ between ranks (by-value arguments, the contents of containers and arrays, the
// variant each rank would choose: a task runs on one rank, with that rank's); what makes
// StarPU-MPI's communications match may not: the interfaces called, in which order, on
// which containers (numbered in the order of their creation) of which sizes, the tags,
// access modes and sizes of every task's data, hence the splits (docs/MPI.md).
class Record {
 public:
  void start() {
    entries_.clear();
    current_ = nullptr;
    count_ = 0;
    pending_ = kSeed;
    calls_ = 0;
    done_ = false;
    diverged_.clear();
  }

  void call(const detail::Call& call) {
    Entry& e = add(Entry::Kind::Call);
    e.calls = ++calls_;
    e.iface = call.iface();
    e.hash = fold(e.hash, call.iface());
    for (const detail::Operand& op : call.operands()) {
      Operand noted;
      e.hash = fold(fold(e.hash, static_cast<std::uint64_t>(op.index)),
                    static_cast<std::uint64_t>(op.kind));
      if (op.container != nullptr) {
        noted.serial = op.container->serial();
        noted.shape = op.container->shape();
        e.hash = fold(fold(fold(e.hash, noted.serial), noted.shape.nx), noted.shape.ny);
        e.hash = fold(e.hash, noted.shape.elem_size);
      } else {
        noted.bytes = op.handle != nullptr ? starpu_data_get_size(op.handle) : 0;
      }
      e.operands.push_back(noted);
    }
  }

  void created(const detail::Storage& s) {
    Entry& e = add(Entry::Kind::Creation);
    e.calls = calls_;
    e.serial = s.serial();
    e.shape = s.shape();
    e.hash = fold(
        fold(fold(fold(e.hash, e.serial), static_cast<std::uint64_t>(e.shape.layout)), e.shape.nx),
        e.shape.ny);
  }

  // Folds @p v into the current call's entry (a tag, a task's data).
  void note(std::uint64_t v) {
    if (current_ == nullptr)
      pending_ = fold(pending_, v);
    else
      current_->hash = fold(current_->hash, v);
  }
  // Raw memory is registered while a call collects its operands, before call(): it goes
  // with the next entry.
  void note_before_call(std::uint64_t v) { pending_ = fold(pending_, v); }

  // Collective on @p comm (every rank calls it at the same point of an agreeing program).
  void compare(MPI_Comm comm, int nranks, detail::SyncPoint what, std::uint64_t serial,
               std::size_t block) {
    if (!diverged_.empty()) throw Error(diverged_);
    if (done_) return;  // after the shutdown's comparison: nothing more to compare
    Entry& e = add(Entry::Kind::Sync);
    e.sync = what;
    e.serial = serial;
    e.block = block;
    e.calls = calls_;
    e.hash = fold(fold(fold(e.hash, static_cast<std::uint64_t>(what)), serial), block);
    merge_overflow();
    std::uint64_t summary = fold(kSeed, count_);
    for (const Entry& entry : entries_) summary = fold(summary, entry.hash);
    const std::uint64_t mine[2] = {count_, summary};
    std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(nranks));
    MPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm);
    bool same = true;
    for (int r = 1; r < nranks; ++r)
      same = same && all[2 * r] == all[0] && all[2 * r + 1] == all[1];
    if (same) {
      entries_.clear();
      current_ = nullptr;
      count_ = 0;
      done_ = what == detail::SyncPoint::Shutdown;
      return;
    }
    diverged_ = first_difference(comm, nranks);
    throw Error(diverged_);
  }

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

  Entry& add(Entry::Kind kind) {
    ++count_;
    merge_overflow();
    if (entries_.size() < kMaxEntries) {
      entries_.emplace_back();
      current_ = &entries_.back();
    } else {
      overflow_ = Entry{};  // folded into the last entry kept, which describes it
      current_ = &overflow_;
    }
    current_->kind = kind;
    current_->hash = fold(std::exchange(pending_, kSeed), static_cast<std::uint64_t>(kind));
    return *current_;
  }

  void merge_overflow() {
    if (current_ != &overflow_) return;
    entries_.back().hash = fold(entries_.back().hash, overflow_.hash);
    current_ = &entries_.back();
  }

  // " after call 3" (the calls made before @p e).
  static std::string after(const Entry& e) {
    return e.calls == 0 ? " before any call" : " after call " + std::to_string(e.calls);
  }

  std::string describe(const Entry& e) const {
    std::string text;
    switch (e.kind) {
      case Entry::Kind::Call: {
        text = "made call " + std::to_string(e.calls) + ", " + e.iface + "(";
        for (std::size_t i = 0; i < e.operands.size(); ++i) {
          const Operand& op = e.operands[i];
          text += i > 0 ? ", " : "";
          if (op.serial != 0)
            text += "container " + std::to_string(op.serial) + ": " + shape_text(op.shape);
          else
            text +=
                op.bytes != 0 ? "an array of " + std::to_string(op.bytes) + " bytes" : "an array";
        }
        text += ")";
        break;
      }
      case Entry::Kind::Creation:
        text = "created container " + std::to_string(e.serial) + " (" + shape_text(e.shape) + ")" +
               after(e);
        break;
      case Entry::Kind::Sync:
        text = sync_text(e);
        break;
    }
    if (&e == &entries_.back() && count_ > entries_.size())
      text += " (or one of the " + std::to_string(count_ - entries_.size()) +
              " calls, creations and synchronisation points after it)";
    return text;
  }

  // What a rank did at synchronisation point @p e.
  static std::string sync_text(const Entry& e) {
    const std::string container = "container " + std::to_string(e.serial);
    switch (e.sync) {
      case detail::SyncPoint::HostRead:
        return "read " + container + " on the host" + after(e);
      case detail::SyncPoint::HostWrite:
        return "wrote " + container + " on the host" + after(e);
      case detail::SyncPoint::ElementRead:
        return "read an element of " + container + " (in its block " + std::to_string(e.block) +
               ") on the host" + after(e);
      case detail::SyncPoint::Resize:
        return "resized " + container + after(e);
      case detail::SyncPoint::Gather:
        return "gathered " + container + " (created distributed) for call " +
               std::to_string(e.calls);
      case detail::SyncPoint::Destroy:
        return "destroyed " + container + after(e);
      case detail::SyncPoint::CallEnd:
        return "waited for the tasks of call " + std::to_string(e.calls);
      case detail::SyncPoint::BytesSent:
        return "called peppher::mpi::bytes_sent()" + after(e);
      case detail::SyncPoint::Shutdown:
        break;
    }
    return "called PEPPHER_SHUTDOWN()" + after(e);
  }

  // Collective: the records differ; every rank learns the first entry that differs and
  // what each rank did there, and gets the same message.
  std::string first_difference(MPI_Comm comm, int nranks) const {
    const std::size_t n = static_cast<std::size_t>(nranks);
    std::vector<int> counts(n), displs(n);
    const int kept = static_cast<int>(entries_.size());
    MPI_Allgather(&kept, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    int total = 0;
    for (std::size_t r = 0; r < n; ++r) {
      displs[r] = total;
      total += counts[r];
    }
    std::vector<std::uint64_t> mine;
    for (const Entry& e : entries_) mine.push_back(e.hash);
    std::vector<std::uint64_t> all(static_cast<std::size_t>(total));
    MPI_Allgatherv(mine.data(), kept, MPI_UINT64_T, all.data(), counts.data(), displs.data(),
                   MPI_UINT64_T, comm);
    // Every record ends with the synchronisation point, so two records differ in an entry
    // that both have (at the latest in that last one).
    const int shortest = *std::min_element(counts.begin(), counts.end());
    int first = shortest - 1;
    for (int i = 0; i < shortest && first == shortest - 1; ++i)
      for (std::size_t r = 1; r < n; ++r)
        if (all[static_cast<std::size_t>(displs[r] + i)] != all[static_cast<std::size_t>(i)]) {
          first = i;
          break;
        }
    const std::string text = describe(entries_[static_cast<std::size_t>(first)]);
    const int length = static_cast<int>(text.size());
    std::vector<int> lengths(n), starts(n);
    MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm);
    int chars = 0;
    for (std::size_t r = 0; r < n; ++r) {
      starts[r] = chars;
      chars += lengths[r];
    }
    std::string texts(static_cast<std::size_t>(chars), '\0');
    MPI_Allgatherv(text.data(), length, MPI_CHAR, texts.data(), lengths.data(), starts.data(),
                   MPI_CHAR, comm);
    // The ranks grouped by what they did, in the order of their first rank.
    std::vector<std::pair<std::string, std::vector<int>>> groups;
    for (int r = 0; r < nranks; ++r) {
      const std::size_t at = static_cast<std::size_t>(r);
      std::string did =
          texts.substr(static_cast<std::size_t>(starts[at]), static_cast<std::size_t>(lengths[at]));
      auto it =
          std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == did; });
      if (it == groups.end())
        groups.push_back({std::move(did), {r}});
      else
        it->second.push_back(r);
    }
    std::string message =
        "the ranks' programs differ (under compose --mpi every rank makes the same component "
        "calls and creates the same containers, in the same order; containers are numbered "
        "in the order of their creation; docs/MPI.md): ";
    for (std::size_t g = 0; g < groups.size(); ++g)
      message += (g > 0 ? "; " : "") + ranks_text(groups[g].second) + " " + groups[g].first;
    if (groups.size() == 1)
      message += ", on every rank, but with other tasks or data (e.g. another split)";
    return message;
  }

  std::vector<Entry> entries_;
  Entry overflow_;                 // the entries beyond kMaxEntries are made here
  Entry* current_ = nullptr;       // the last entry made (notes go there)
  std::uint64_t count_ = 0;        // entries since the last comparison, kept or not
  std::uint64_t pending_ = kSeed;  // folded into the next entry
  std::uint64_t calls_ = 0;        // component calls since init
  bool done_ = false;              // the shutdown's comparison agreed
  std::string diverged_;           // the error, once the ranks differ
};

class MpiLayer final : public detail::Distributed {
 public:
  int start(starpu_conf& conf) override {
    int initialized = 0, provided = MPI_THREAD_SINGLE;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
      // StarPU-MPI needs MPI_THREAD_SERIALIZED (its thread makes the MPI calls); the
      // comparison of the ranks' programs is a collective of this thread meanwhile.
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        throw Error("init: MPI_Init_thread failed");
      owns_mpi_ = true;
    } else {
      MPI_Query_thread(&provided);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks_);
    start_checks(provided);
    const char* report = std::getenv("PEPPHER_REPORT");
    if (report != nullptr && std::string(report) == "1")  // the report counts bytes
      setenv("STARPU_COMM_STATS", "1", 0);
    place_workers(conf);
    const int ret = starpu_mpi_init_conf(nullptr, nullptr, 0, MPI_COMM_WORLD, &conf);
    if (ret != 0) stop_checks();
    if (ret != 0 && owns_mpi_) {
      MPI_Finalize();
      owns_mpi_ = false;
    }
    return ret;
  }

  void stop() override {
    starpu_mpi_shutdown();  // waits for communications, stops StarPU (it started it)
    stop_checks();
    if (owns_mpi_) MPI_Finalize();
    owns_mpi_ = false;
  }

  int rank() const noexcept override { return rank_; }
  int nranks() const noexcept override { return nranks_; }
  std::string report() const override;

  void container_registered(starpu_data_handle_t whole) override {
    std::lock_guard<std::mutex> lock(mutex_);
    note(next_tag_);
    starpu_mpi_data_register(whole, next_tag_++, 0);
    wholes_[whole] = Whole{};  // the owner's copy is the value (ranks may differ)
  }

  void blocks_planned(starpu_data_handle_t,
                      const std::vector<starpu_data_handle_t>& blocks) override {
    std::lock_guard<std::mutex> lock(mutex_);
    register_blocks(blocks);
  }

  void partitioned(starpu_data_handle_t whole, const std::vector<starpu_data_handle_t>& blocks,
                   bool overwritten) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Whole& w = wholes_[whole];
    if (w.owner_only && !overwritten) {
      // Only the whole's owner holds the value: each block goes to its owner, once.
      const int from = starpu_mpi_data_get_rank(whole);
      for (starpu_data_handle_t b : blocks) {
        const int to = starpu_mpi_data_get_rank(b);
        if (to == from) continue;
        if (rank_ == from)
          starpu_mpi_isend_detached(b, to, starpu_mpi_data_get_tag(b), MPI_COMM_WORLD, nullptr,
                                    nullptr);
        else if (rank_ == to)
          starpu_mpi_irecv_detached(b, from, starpu_mpi_data_get_tag(b), MPI_COMM_WORLD, nullptr,
                                    nullptr);
      }
    }
    for (starpu_data_handle_t b : blocks) forget_copies(b);  // older values of the blocks
    w.owner_only = false;
  }

  void gathering(starpu_data_handle_t whole,
                 const std::vector<starpu_data_handle_t>& blocks) override {
    fetch_blocks(blocks);
    std::lock_guard<std::mutex> lock(mutex_);
    wholes_[whole].owner_only = false;
  }

  // StarPU-MPI's cache remembers which ranks hold a block's current value (until a task
  // writes it), so a block fetched for an element read is not sent again by a gather.
  void fetch_blocks(const std::vector<starpu_data_handle_t>& blocks) override {
    after_local_writers(blocks);
    for (starpu_data_handle_t b : blocks)
      starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, b);
  }

  void host_access(starpu_data_handle_t whole) override {
    std::lock_guard<std::mutex> lock(mutex_);
    Whole& w = wholes_[whole];
    if (!w.owner_only) return;
    after_local_writers({whole});
    starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, whole);
    w.owner_only = false;
  }

  // The blocks' copies are forgotten when their plan is next partitioned (partitioned()),
  // not here: forgetting a received copy submits an invalidation of the block, and a block
  // accessed while its container is not partitioned in its plan makes StarPU partition the
  // container itself (its automatic partitioning), which the next call's partition would
  // then find already done (a row block of A read on another rank, then A written on the
  // host: apps/sgemm tiled on 2 ranks aborted in _starpu_data_partition_submit).
  void host_written(starpu_data_handle_t whole) override {
    std::lock_guard<std::mutex> lock(mutex_);
    forget_copies(whole);
    wholes_[whole].owner_only = true;
  }

  void halo_registered(starpu_data_handle_t block,
                       const std::vector<starpu_data_handle_t>& pieces) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const int owner = starpu_mpi_data_get_rank(block);
    for (starpu_data_handle_t p : pieces) {
      note(next_tag_);
      starpu_mpi_data_register(p, next_tag_++, owner);
    }
  }

  void unregistering(starpu_data_handle_t whole,
                     const std::vector<starpu_data_handle_t>&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    wholes_.erase(whole);
  }

  void raw_registered(starpu_data_handle_t h,
                      const std::vector<starpu_data_handle_t>& blocks) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (checking_) {  // registered while the call collects its operands, before call_begins
      std::lock_guard<std::mutex> record(record_mutex_);
      record_.note_before_call(fold(next_tag_, starpu_data_get_size(h)));
    }
    starpu_mpi_data_register(h, next_tag_++, 0);
    register_blocks(blocks);
    if (blocks.empty()) every_rank_holds(h);
  }

  void raw_written(starpu_data_handle_t h,
                   const std::vector<starpu_data_handle_t>& blocks) override {
    if (blocks.empty()) starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, h);
    for (starpu_data_handle_t b : blocks)
      starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, b);
  }

  void call_begins(const detail::Call& call) override {
    if (!checking_) return;
    std::lock_guard<std::mutex> lock(record_mutex_);
    record_.call(call);
  }

  void container_created(const detail::Storage& storage) override {
    if (!checking_) return;
    std::lock_guard<std::mutex> lock(record_mutex_);
    record_.created(storage);
  }

  void synchronise(detail::SyncPoint what, std::uint64_t serial, std::size_t block) override {
    if (!checking_) return;
    std::lock_guard<std::mutex> lock(record_mutex_);
    try {
      record_.compare(comm_, nranks_, what, serial, block);
    } catch (const Error&) {
      diverged_ = true;
      throw;
    }
  }

  bool diverged() const noexcept override { return diverged_; }

  int submit(starpu_task* task) override {
    starpu_codelet* cl = task->cl;
    const int n = STARPU_TASK_GET_NBUFFERS(task);
    starpu_data_handle_t handles[STARPU_NMAXBUFS];
    for (int i = 0; i < n; ++i) handles[i] = STARPU_TASK_GET_HANDLE(task, i);
    if (checking_) {  // what the ranks' StarPU-MPI communications match on
      std::uint64_t h = fold(kSeed, static_cast<std::uint64_t>(n));
      for (int i = 0; i < n; ++i) {
        h = fold(h, static_cast<std::uint64_t>(starpu_mpi_data_get_tag(handles[i])));
        h = fold(h, static_cast<std::uint64_t>(STARPU_CODELET_GET_MODE(cl, i)));
        h = fold(h, starpu_data_get_size(handles[i]));
      }
      note(h);
    }
    // StarPU-MPI decides who executes (the owner of the written data) and sends what that
    // rank lacks; the task it builds only stands for ours. It carries our arguments, not
    // owned (StarPU-MPI 1.4 asks the codelet's can_execute about it, which reads them).
    starpu_task* here =
        starpu_mpi_task_build(MPI_COMM_WORLD, cl, STARPU_CL_ARGS_NFREE, task->cl_arg,
                              task->cl_arg_size, STARPU_DATA_ARRAY, handles, n, 0);
    int ret = 1;
    if (here != nullptr) {
      here->destroy = 0;
      starpu_task_destroy(here);
      ret = starpu_task_submit(task);
      if (ret != 0) return ret;
    } else {
      detail::trace_detach(task);  // another rank runs it: its trace records it
      task->destroy = 0;
      starpu_task_destroy(task);  // frees its arguments
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (int i = 0; i < n; ++i) {
        if ((STARPU_CODELET_GET_MODE(cl, i) & STARPU_W) == 0) continue;
        auto it = wholes_.find(handles[i]);
        if (it != wholes_.end()) it->second.owner_only = true;
      }
    }
    starpu_mpi_task_post_build(MPI_COMM_WORLD, cl, STARPU_DATA_ARRAY, handles, n, 0);
    return ret;
  }

 private:
  // Makes the communications submitted next on @p handles wait until this rank's tasks on
  // them have finished: a task that runs nowhere (no data moves) and accesses the handles
  // this rank owns read-write (their sends come after it) and the others write-only (their
  // receives come after it; StarPU-MPI has invalidated this rank's copy of what another
  // rank wrote, which cannot be read); it starts once this rank's writers are done.
  // StarPU-MPI's progress thread polls without sleeping while a receive is posted or a send
  // is unmatched, so a gather posted right away (a host read just after the calls) takes a
  // core from the workers for as long as they compute: on a machine with one core per
  // worker, 2 ranks were no faster than 1 (docs/MPI.md "Benchmark"). The values are needed
  // only once every block is there, so nothing is lost by posting after the local work.
  void after_local_writers(const std::vector<starpu_data_handle_t>& handles) const {
    if (nranks_ <= 1 || handles.empty()) return;
    static starpu_codelet fence = [] {
      starpu_codelet c{};
      c.where = STARPU_NOWHERE;
      c.nbuffers = STARPU_VARIABLE_NBUFFERS;
      c.name = "peppher_mpi_fence";
      return c;
    }();
    std::vector<starpu_data_descr> descrs(handles.size());
    for (std::size_t i = 0; i < handles.size(); ++i)
      descrs[i] = {handles[i],
                   starpu_mpi_data_get_rank(handles[i]) == rank_ ? STARPU_RW : STARPU_W};
    // Without the fence the gather is still right, only posted earlier.
    (void)starpu_task_insert(&fence, STARPU_DATA_MODE_ARRAY, descrs.data(),
                             static_cast<int>(descrs.size()), 0);
  }

  // Ranks on one machine would all bind their first CPU worker to core 0 (StarPU numbers
  // cores per process): rank L of S on this machine starts at core L * (cores / S).
  // StarPU-MPI would then bind its progress thread to a core none of this process's
  // workers use; with none left it binds it onto a worker's core anyway and warns that this
  // "will strongly degrade performance" (measured here: it does while the thread polls). It
  // is left unbound instead, where mpirun put the process. The user's STARPU_WORKERS_CPUID,
  // STARPU_WORKERS_NOBIND, STARPU_MPI_THREAD_CPUID/_COREID and STARPU_MPI_NOBIND are kept.
  void place_workers(starpu_conf& conf) const {
    if (env_set("STARPU_WORKERS_CPUID") || env_set("STARPU_WORKERS_NOBIND")) return;
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    int local_rank = 0, local_size = 1;
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_size(local, &local_size);
    MPI_Comm_free(&local);
    if (local_size <= 1) return;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned per_rank = std::max(1u, cores / static_cast<unsigned>(local_size));
    const unsigned first = static_cast<unsigned>(local_rank) * per_rank;
    conf.use_explicit_workers_bindid = 1;
    for (unsigned i = 0; i < STARPU_NMAXWORKERS; ++i)
      conf.workers_bindid[i] = (first + i % per_rank) % cores;
    if (!env_set("STARPU_MPI_THREAD_CPUID") && !env_set("STARPU_MPI_THREAD_COREID"))
      setenv("STARPU_MPI_NOBIND", "1", 0);
  }

  // What this rank knows of a container's whole handle.
  struct Whole {
    bool owner_only = true;  // only the owner holds the current value
  };

  // Block k of B lives on rank k * nranks / B.
  void register_blocks(const std::vector<starpu_data_handle_t>& blocks) {
    const std::size_t count = blocks.size();
    for (std::size_t k = 0; k < count; ++k) {
      const int owner = static_cast<int>(k * static_cast<std::size_t>(nranks_) / count);
      note(fold(next_tag_, starpu_data_get_size(blocks[k])));
      starpu_mpi_data_register(blocks[k], next_tag_++, owner);
    }
  }

  // The comparison of the ranks' programs (Record), on several ranks, on a communicator
  // of its own (its collectives never meet StarPU-MPI's messages), from the program's
  // thread while StarPU-MPI's thread communicates: it needs MPI_THREAD_MULTIPLE, which
  // this layer asks for when it starts MPI (a program that started MPI itself with less
  // runs without the comparison, and rank 0 says so).
  void start_checks(int provided) {
    std::lock_guard<std::mutex> lock(record_mutex_);
    record_.start();
    diverged_ = false;
    checking_ = false;
    if (nranks_ <= 1) return;
    if (provided < MPI_THREAD_MULTIPLE) {
      if (rank_ == 0)
        std::fprintf(stderr,
                     "peppher: MPI runs without MPI_THREAD_MULTIPLE (the program called "
                     "MPI_Init itself?): the ranks' component calls are not compared "
                     "(docs/MPI.md)\n");
      return;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    checking_ = true;
  }

  void stop_checks() {
    checking_ = false;
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = MPI_COMM_NULL;
  }

  void note(std::uint64_t v) {
    if (!checking_) return;
    std::lock_guard<std::mutex> lock(record_mutex_);
    record_.note(v);
  }

  // Every rank's program filled its own copy of raw array @p h the same way (the sequential
  // contract of legacy calls, docs/MPI.md "Raw pointers"): StarPU-MPI is told that every
  // rank already holds the owner's value, so a task reading it anywhere sends nothing (rank
  // 0's copy was sent to every reader on every call before). Both sides of every pair are
  // marked, so no send waits for a receive that is never posted; a task that writes the
  // array clears the marks (starpu_mpi_task_post_build), and with StarPU-MPI's cache
  // disabled (STARPU_MPI_CACHE=0) nothing is marked and the value travels as before.
  void every_rank_holds(starpu_data_handle_t h) const {
    if (rank_ != 0) {
      starpu_mpi_cached_receive_set(h);
      return;
    }
    for (int dest = 1; dest < nranks_; ++dest) starpu_mpi_cached_send_set(h, dest);
  }

  // StarPU-MPI's record of which ranks already hold h's value is out of date.
  static void forget_copies(starpu_data_handle_t h) {
    starpu_mpi_cached_receive_clear(h);
    starpu_mpi_cached_send_clear(h);
  }

  bool owns_mpi_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;      // the comparison's (start_checks)
  std::atomic<bool> checking_{false};  // several ranks, MPI_THREAD_MULTIPLE
  std::atomic<bool> diverged_{false};  // the ranks' programs differ
  std::mutex record_mutex_;            // taken after mutex_ where both are
  Record record_;
  int rank_ = 0;
  int nranks_ = 1;
  std::mutex mutex_;
  starpu_mpi_tag_t next_tag_ = 1;
  std::unordered_map<starpu_data_handle_t, Whole> wholes_;
};

// Bytes this rank sent to each rank, from StarPU-MPI's counters (STARPU_COMM_STATS=1).
std::vector<std::size_t> sent_per_rank(int nranks) {
  std::vector<std::size_t> sent(static_cast<std::size_t>(nranks), 0);
  if (!env_set("STARPU_COMM_STATS")) return sent;
#if PEPPHER_STARPU_AT_LEAST(1, 4)
  starpu_mpi_comm_stats_retrieve(sent.data());  // renamed in 1.4, same counters
#else
  starpu_mpi_comm_amounts_retrieve(sent.data());
#endif
  return sent;
}

// Collective: every rank calls it (shutdown runs on every rank).
std::string MpiLayer::report() const {
  if (!env_set("STARPU_COMM_STATS"))
    return "(bytes sent and received: run with STARPU_COMM_STATS=1)\n";
  const std::vector<std::size_t> mine = sent_per_rank(nranks_);
  std::vector<unsigned long long> all(static_cast<std::size_t>(nranks_) * nranks_);
  std::vector<unsigned long long> row(mine.begin(), mine.end());
  MPI_Allgather(row.data(), nranks_, MPI_UNSIGNED_LONG_LONG, all.data(), nranks_,
                MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
  unsigned long long sent = 0, received = 0;
  for (int r = 0; r < nranks_; ++r) {
    sent += all[static_cast<std::size_t>(rank_) * nranks_ + r];
    received += all[static_cast<std::size_t>(r) * nranks_ + rank_];
  }
  return "rank " + std::to_string(rank_) + ": " + std::to_string(sent) + " bytes sent, " +
         std::to_string(received) + " bytes received\n";
}

MpiLayer g_layer;

}  // namespace

std::size_t bytes_sent() {
  if (!is_running() || detail::distributed() != &g_layer) return 0;
  g_layer.synchronise(detail::SyncPoint::BytesSent, 0, 0);  // before waiting for other ranks
  starpu_mpi_wait_for_all(MPI_COMM_WORLD);                  // counts what the calls so far sent
  std::size_t total = 0;
  for (std::size_t b : sent_per_rank(g_layer.nranks())) total += b;
  return total;
}

void init(const Config& config) {
  detail::set_distributed(&g_layer);
  peppher::init(config);  // removes the layer again when StarPU cannot start
}

}  // namespace peppher::mpi
