// AutoSplit: the `?` split of an interface's calls, equal blocks per capable worker until
// StarPU's history model predicts each worker's time, then blocks sized by speed.
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "peppher/partitioned_call.h"

namespace peppher {
namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, AutoSplit*>& registry() {
  static std::map<std::string, AutoSplit*> r;
  return r;
}

bool can_run(const starpu_codelet* cl, starpu_worker_archtype type) {
  switch (type) {
    case STARPU_CPU_WORKER:
      return cl->cpu_funcs[0] != nullptr;
    case STARPU_OPENCL_WORKER:
      return cl->opencl_funcs[0] != nullptr;
    case STARPU_CUDA_WORKER:
      return cl->cuda_funcs[0] != nullptr;
    default:
      return false;
  }
}

std::vector<int> capable_workers(const starpu_codelet* cl) {
  std::vector<int> workers;
  const unsigned n = starpu_worker_get_count();  // combined workers have larger ids
  for (unsigned w = 0; w < n; ++w)
    if (can_run(cl, starpu_worker_get_type(static_cast<int>(w))))
      workers.push_back(static_cast<int>(w));
  return workers;
}

// n split in proportion to speed, every block at least one element, summing to n.
std::vector<std::size_t> proportional(std::size_t n, const std::vector<double>& speed,
                                      double total) {
  std::vector<std::size_t> sizes;
  std::size_t given = 0;
  for (std::size_t i = 0; i < speed.size(); ++i) {
    const std::size_t left = speed.size() - i - 1;  // blocks still to size
    std::size_t s = i + 1 == speed.size()
                        ? n - given
                        : static_cast<std::size_t>(std::llround(n * speed[i] / total));
    if (s < 1) s = 1;
    if (given + s + left > n) s = n - given - left;
    sizes.push_back(s);
    given += s;
  }
  return sizes;
}

}  // namespace

AutoSplit::AutoSplit(const char* iface) : iface_(iface) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[iface] = this;
}

AutoSplit::~AutoSplit() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(iface_);
  if (it != registry().end() && it->second == this) registry().erase(it);
}

Split AutoSplit::plan(std::size_t n, starpu_codelet* codelet) {
  std::vector<int> workers = capable_workers(codelet);
  if (workers.empty()) workers.push_back(-1);  // submission reports the missing worker
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& e = entries_[n];
  if (e.modelled && e.split.workers == workers) return e.split;
  const std::size_t k = workers.size() < n ? workers.size() : n;
  if (codelet->model != nullptr && e.have_footprint && k == workers.size() && k > 1) {
    std::vector<double> speed;
    double total = 0;
    for (int w : workers) {
      starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(w, STARPU_NMAX_SCHED_CTXS);
      double t = starpu_perfmodel_history_based_expected_perf(codelet->model, arch, e.footprint);
      if (!(std::isfinite(t) && t > 0)) break;
      speed.push_back(1.0 / t);
      total += 1.0 / t;
    }
    if (speed.size() == workers.size()) {
      e.split = {proportional(n, speed, total), workers};
      e.modelled = true;
      return e.split;
    }
  }
  return {detail::even_sizes(n, k), {}};
}

void AutoSplit::remember(std::size_t n, std::uint32_t footprint) {
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& e = entries_[n];
  e.footprint = footprint;
  e.have_footprint = true;
}

Split AutoSplit::modelled_split(std::size_t n) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(n);
  return it != entries_.end() && it->second.modelled ? it->second.split : Split{};
}

Split auto_split_of(const std::string& iface, std::size_t n) {
  // Held while asking: the AutoSplit cannot be destroyed (unregistered) meanwhile.
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(iface);
  return it != registry().end() ? it->second->modelled_split(n) : Split{};
}

}  // namespace peppher
