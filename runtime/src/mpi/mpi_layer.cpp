// The StarPU-MPI layer (library peppher_mpi): MPI and StarPU-MPI start and stop, the
// placement of each rank's workers on its own cores, and the per-rank communication report.
#include <mpi.h>
#include <starpu.h>
#include <starpu_mpi.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "peppher/detail/distributed.h"
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
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0) {
      int provided = 0;
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
        throw Error("init: MPI_Init_thread failed");
      owns_mpi_ = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks_);
    const char* report = std::getenv("PEPPHER_REPORT");
    if (report != nullptr && std::string(report) == "1")  // the report counts bytes
      setenv("STARPU_COMM_STATS", "1", 0);
    place_workers(conf);
    const int ret = starpu_mpi_init_conf(nullptr, nullptr, 0, MPI_COMM_WORLD, &conf);
    if (ret != 0 && owns_mpi_) {
      MPI_Finalize();
      owns_mpi_ = false;
    }
    return ret;
  }

  void stop() override {
    starpu_mpi_shutdown();  // waits for communications, stops StarPU (it started it)
    if (owns_mpi_) MPI_Finalize();
    owns_mpi_ = false;
  }

  int rank() const noexcept override { return rank_; }
  int nranks() const noexcept override { return nranks_; }
  std::string report() const override;

 private:
  // Ranks on one machine would all bind their first CPU worker to core 0 (StarPU numbers
  // cores per process): rank L of S on this machine starts at core L * (cores / S).
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
  }

  bool owns_mpi_ = false;
  int rank_ = 0;
  int nranks_ = 1;
};

// Bytes this rank sent to each rank, from StarPU-MPI's counters (STARPU_COMM_STATS=1).
std::vector<std::size_t> sent_per_rank(int nranks) {
  std::vector<std::size_t> sent(static_cast<std::size_t>(nranks), 0);
  if (env_set("STARPU_COMM_STATS")) starpu_mpi_comm_amounts_retrieve(sent.data());
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
  std::size_t total = 0;
  for (std::size_t b : sent_per_rank(g_layer.nranks())) total += b;
  return total;
}

void init(const Config& config) {
  detail::set_distributed(&g_layer);
  peppher::init(config);  // removes the layer again when StarPU cannot start
}

}  // namespace peppher::mpi
