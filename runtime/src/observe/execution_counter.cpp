// ExecutionCounter bookkeeping and the report table (interface, variant, backend, worker,
// count) printed at shutdown when PEPPHER_REPORT=1.
#include "peppher/execution_counter.h"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <vector>

#include "observe/simulated_runs.h"
#include "observe/worker_names.h"
#include "peppher/init.h"

namespace peppher {
namespace {

std::mutex& counters_mutex() {
  static std::mutex m;
  return m;
}
std::vector<ExecutionCounter*>& counters() {
  static std::vector<ExecutionCounter*> list;
  return list;
}

std::mutex& names_mutex() {
  static std::mutex m;
  return m;
}
std::vector<std::string>& names() {
  static std::vector<std::string> list;
  return list;
}

}  // namespace

namespace detail {

void cache_worker_names() {
  std::vector<std::string> fresh;
  const unsigned n = starpu_worker_get_count();
  for (unsigned id = 0; id < n; ++id) {
    char buf[128] = {};
    starpu_worker_get_name(static_cast<int>(id), buf, sizeof buf);
    fresh.emplace_back(buf);
  }
  // Combined workers (parallel-aware schedulers make them at init): ids from n up.
  const unsigned ncombined = starpu_combined_worker_get_count();
  for (unsigned c = 0; c < ncombined; ++c) {
    int size = 0;
    int* members = nullptr;
    std::string name = "combined(";
    if (starpu_combined_worker_get_description(static_cast<int>(n + c), &size, &members) == 0) {
      for (int k = 0; k < size; ++k) name += (k ? ", " : "") + fresh[std::size_t(members[k])];
    }
    fresh.push_back(name + ")");
  }
  std::lock_guard<std::mutex> lock(names_mutex());
  names().swap(fresh);
}

std::string worker_name(int id) {
  std::lock_guard<std::mutex> lock(names_mutex());
  if (id < 0 || static_cast<std::size_t>(id) >= names().size())
    return id < 0 ? "CPU inline (calling thread)" : "worker " + std::to_string(id);
  return names()[static_cast<std::size_t>(id)];
}

}  // namespace detail

ExecutionCounter::ExecutionCounter(std::string interface_name, std::string variant_name,
                                   std::string backend)
    : interface_(std::move(interface_name)),
      variant_(std::move(variant_name)),
      backend_(std::move(backend)) {
  std::lock_guard<std::mutex> lock(counters_mutex());
  counters().push_back(this);
}

ExecutionCounter::~ExecutionCounter() {
  std::lock_guard<std::mutex> lock(counters_mutex());
  auto& list = counters();
  list.erase(std::remove(list.begin(), list.end(), this), list.end());
}

std::uint64_t ExecutionCounter::count(int worker_id) const noexcept {
  const std::size_t slot =
      worker_id < 0 || worker_id >= kMaxIds ? kHostSlot : std::size_t(worker_id);
  return counts_[slot].load(std::memory_order_relaxed);
}

std::uint64_t ExecutionCounter::total() const noexcept {
  std::uint64_t sum = 0;
  for (const auto& c : counts_) sum += c.load(std::memory_order_relaxed);
  return sum;
}

void ExecutionCounter::reset() noexcept {
  for (auto& c : counts_) c.store(0, std::memory_order_relaxed);
}

detail::RunCounts detail::run_counts() {
  RunCounts counts;
  const int workers = static_cast<int>(starpu_worker_get_count());
  std::lock_guard<std::mutex> lock(counters_mutex());
  for (const ExecutionCounter* c : counters()) {
    for (int id = -1; id < ExecutionCounter::kMaxIds; ++id) {
      const std::uint64_t n = c->count(id);
      counts.all += n;
      if (id >= 0 && id < workers && starpu_worker_get_type(id) != STARPU_CPU_WORKER)
        counts.on_devices += n;
    }
  }
  return counts;
}

std::string report_string() {
  wait_until_started();  // the workers' names are known once StarPU is up
  struct Row {
    std::string cells[5];
  };
  std::vector<Row> rows{{{"interface", "variant", "backend", "worker", "count"}}};
  {
    std::lock_guard<std::mutex> lock(counters_mutex());
    for (const ExecutionCounter* c : counters()) {
      for (int id = -1; id < ExecutionCounter::kMaxIds; ++id) {
        const std::uint64_t n = c->count(id);
        if (n == 0) continue;
        rows.push_back({{c->interface_name(), c->variant_name(), c->backend(),
                         detail::worker_name(id), std::to_string(n)}});
      }
    }
  }
  std::size_t width[5] = {};
  for (const Row& r : rows)
    for (int i = 0; i < 5; ++i) width[i] = std::max(width[i], r.cells[i].size());
  std::ostringstream out;
  out << "PEPPHER execution report\n";
  for (const Row& r : rows) {
    for (int i = 0; i < 5; ++i) {
      out << r.cells[i];
      if (i < 4) out << std::string(width[i] - r.cells[i].size() + 2, ' ');
    }
    out << '\n';
  }
  return out.str();
}

namespace detail {

ExecutionCounter* counter_of_implementation(const char* iface, starpu_worker_archtype arch,
                                            unsigned nimpl) noexcept {
  if (iface == nullptr) return nullptr;
  // The codelet's slots per kind of worker follow the variants' order (compose gives slot k
  // to the kind's k-th variant), which is the counters' order of construction.
  auto runs_on = [arch](const std::string& backend) {
    switch (arch) {
      case STARPU_CPU_WORKER:
        return backend == "CPU" || backend == "OPENMP";
      case STARPU_CUDA_WORKER:
        return backend == "CUDA";
      case STARPU_OPENCL_WORKER:
        return backend == "OPENCL";
      default:
        return false;
    }
  };
  std::lock_guard<std::mutex> lock(counters_mutex());
  unsigned k = 0;
  for (ExecutionCounter* c : counters()) {
    if (c->interface_name() != iface || !runs_on(c->backend())) continue;
    if (k++ == nimpl) return c;
  }
  return nullptr;
}

}  // namespace detail

void reset_report() noexcept {
  std::lock_guard<std::mutex> lock(counters_mutex());
  for (ExecutionCounter* c : counters()) c->reset();
}

}  // namespace peppher
