// The StarPU-MPI layer (library peppher_mpi): MPI and StarPU-MPI start and stop, the
// placement of each rank's workers on its own cores, the per-rank communication report, and
// the comparison of the ranks' programs (ProgramRecord, program_record.h: every rank
// makes the same calls).
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

#include "mpi/program_record.h"
#include "peppher/detail/call.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/small_vector.h"
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
  // host: apps/sgemm_tiles on 2 ranks aborted in _starpu_data_partition_submit).
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
    detail::SmallVector<starpu_data_handle_t, STARPU_NMAXBUFS> handles;  // dyn_handles too
    handles.assign(STARPU_TASK_GET_HANDLES(task), STARPU_TASK_GET_HANDLES(task) + n);
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
                              task->cl_arg_size, STARPU_DATA_ARRAY, handles.data(), n, 0);
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
    starpu_mpi_task_post_build(MPI_COMM_WORLD, cl, STARPU_DATA_ARRAY, handles.data(), n, 0);
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

  // The comparison of the ranks' programs (ProgramRecord), on several ranks, on a communicator
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
  ProgramRecord record_;
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
