// AutoSplit: the `?` split of an interface's calls, equal blocks per capable worker until
// StarPU's models predict each worker's time (history models once those blocks ran, models of
// functions at once), then blocks sized by speed; and model_split, the split sized from the
// models of every interface sharing the containers.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "call/split_sizing.h"
#include "peppher/detail/backends.h"
#include "peppher/partitioned_call.h"
#include "peppher/task.h"

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
  const detail::Backend* b = detail::backend_of_worker(type);
  return b != nullptr && (cl->*b->funcs)[0] != nullptr;
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

// Whether StarPU's predictions of @p model come from the times it measures (history,
// regressions), which a task's footprint finds once such tasks ran, rather than from
// functions (per-arch and common cost functions: prediction functions, a trained table),
// which predict a task before any ran, under simulation too.
bool measured(const starpu_perfmodel* model) {
  return model->type == STARPU_HISTORY_BASED || model->type == STARPU_REGRESSION_BASED ||
         model->type == STARPU_NL_REGRESSION_BASED ||
         model->type == STARPU_MULTIPLE_REGRESSION_BASED;
}

}  // namespace

struct AutoSplit::State {
  struct Entry {
    Split split;  // the last modelled split used
    bool modelled = false;
    std::vector<int> workers;  // the workers of the remembered equal split
    starpu_perfmodel* model = nullptr;
    std::uint32_t footprint = 0;
    std::size_t blocks = 1;  // of the remembered equal split
    bool have_footprint = false;
    std::vector<double> predicted;  // per worker: an equal block's time (a model of functions)
    std::vector<double> whole;      // per worker: the time of one block of n (empty: unknown)
  };
  std::mutex mutex;
  std::map<std::size_t, Entry> entries;
};

AutoSplit::AutoSplit(const char* iface) : iface_(iface), state_(std::make_unique<State>()) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry()[iface] = this;
}

AutoSplit::~AutoSplit() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(iface_);
  if (it != registry().end() && it->second == this) registry().erase(it);
}

void AutoSplit::seen(std::size_t n, const std::vector<int>& workers, starpu_perfmodel* model) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  State::Entry& e = state_->entries[n];
  if (e.workers != workers || e.model != model) e.have_footprint = false;
  e.workers = workers;
  e.model = model;
}

void AutoSplit::remember(std::size_t n, const std::vector<int>& workers, starpu_perfmodel* model,
                         starpu_task* task, std::size_t blocks, starpu_task* whole) {
  // A model of functions: each worker's time for this block, asked before taking the lock
  // (the functions are the program's). Empty when some worker has none.
  auto ask = [&](starpu_task* t) {
    std::vector<double> times;
    for (int w : workers) {
      if (w < 0) break;
      starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(w, STARPU_NMAX_SCHED_CTXS);
      const double us = starpu_task_expected_length(t, arch, 0);
      if (!(std::isfinite(us) && us > 0)) break;
      times.push_back(us);
    }
    if (times.size() != workers.size()) times.clear();
    return times;
  };
  std::vector<double> predicted, whole_times;
  if (model != nullptr && !measured(model)) {
    predicted = ask(task);
    if (!predicted.empty() && whole != nullptr && blocks > 1) whole_times = ask(whole);
  }
  const std::uint32_t footprint = model_footprint(task);
  std::lock_guard<std::mutex> lock(state_->mutex);
  State::Entry& e = state_->entries[n];
  e.workers = workers;
  e.model = model;
  e.footprint = footprint;
  e.blocks = blocks > 0 ? blocks : 1;
  e.have_footprint = true;
  e.predicted = std::move(predicted);
  e.whole = std::move(whole_times);
}

bool AutoSplit::predictable_now(std::size_t n, const std::vector<int>& workers,
                                const starpu_perfmodel* model) {
  if (model == nullptr || measured(model)) return false;
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->entries.find(n);
  if (it == state_->entries.end()) return true;
  const State::Entry& e = it->second;
  return !e.have_footprint || e.workers != workers || e.model != model || e.predicted.empty();
}

AutoSplit::Prediction AutoSplit::predict(std::size_t n, const std::vector<int>& workers,
                                         std::vector<double>& times, std::vector<double>& fixed) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->entries.find(n);
  if (it == state_->entries.end()) return Prediction::None;
  const State::Entry& e = it->second;
  if (e.model == nullptr || e.workers != workers) return Prediction::None;
  if (!e.have_footprint) return Prediction::Pending;  // no equal split ran yet
  times.clear();
  fixed.clear();
  const double block = static_cast<double>(n) / static_cast<double>(e.blocks);  // elements
  for (std::size_t i = 0; i < workers.size(); ++i) {
    double t = 0;
    if (!e.predicted.empty()) {
      t = e.predicted[i];  // a model of functions, asked when the block was submitted
    } else {
      starpu_perfmodel_arch* arch =
          starpu_worker_get_perf_archtype(workers[i], STARPU_NMAX_SCHED_CTXS);
      t = starpu_perfmodel_history_based_expected_perf(e.model, arch, e.footprint);
    }
    if (!(std::isfinite(t) && t > 0)) return Prediction::Pending;
    // Two sizes predicted (a block and the whole): the line through them, a time per block
    // (a task's cost) and one per element, where both are positive; else all per element.
    double per_element = t / block, per_block = 0;
    if (!e.whole.empty() && static_cast<double>(n) > block) {
      const double slope = (e.whole[i] - t) / (static_cast<double>(n) - block);
      const double intercept = t - slope * block;
      if (slope > 0 && intercept >= 0) {
        per_element = slope;
        per_block = intercept;
      }
    }
    times.push_back(per_element);
    fixed.push_back(per_block);
  }
  return Prediction::Known;
}

void AutoSplit::used(std::size_t n, const Split& split, bool modelled) {
  if (!modelled) return;
  std::lock_guard<std::mutex> lock(state_->mutex);
  State::Entry& e = state_->entries[n];
  e.split = split;
  e.modelled = true;
}

Split AutoSplit::modelled_split(std::size_t n) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  auto it = state_->entries.find(n);
  return it != state_->entries.end() && it->second.modelled ? it->second.split : Split{};
}

Split auto_split_of(const std::string& iface, std::size_t n) {
  // Held while asking: the AutoSplit cannot be destroyed (unregistered) meanwhile.
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(iface);
  return it != registry().end() ? it->second->modelled_split(n) : Split{};
}

namespace detail {

std::vector<int> capable_workers(const starpu_codelet* cl) {
  std::vector<int> workers;
  const unsigned n = starpu_worker_get_count();  // combined workers have larger ids
  for (unsigned w = 0; w < n; ++w)
    if (can_run(cl, starpu_worker_get_type(static_cast<int>(w))))
      workers.push_back(static_cast<int>(w));
  return workers;
}

std::size_t unmodelled_blocks(std::size_t n, std::size_t bytes, std::size_t workers) {
  std::size_t k = std::min(workers, n);
  k = std::min(k, bytes / kMinBlockBytes);
  return k > 0 ? k : 1;
}

SplitState fastest_split(std::size_t n, const std::vector<int>& workers,
                         const std::vector<double>& kernel, const TransferCosts& transfer) {
  const std::size_t k = std::min(workers.size(), n);
  auto finite = [](const std::vector<double>& v, std::size_t i) {
    return i < v.size() && std::isfinite(v[i]) && v[i] > 0 ? v[i] : 0.0;
  };
  std::vector<double> cost(workers.size()), fixed(workers.size());
  std::vector<std::size_t> order(workers.size());
  for (std::size_t i = 0; i < workers.size(); ++i) {
    cost[i] = finite(kernel, i) + finite(transfer.per_element, i);
    fixed[i] = finite(transfer.fixed, i);
    order[i] = i;
  }
  // Cheapest per element first (ties: worker order).
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return cost[a] < cost[b]; });
  double best = std::numeric_limits<double>::infinity();
  std::vector<double> share;  // per worker: its part of n (0: not used)
  for (std::size_t m = 1; m <= k; ++m) {
    // Blocks that all finish at T: worker i takes (T - fixed_i) / cost_i elements.
    double inv = 0, lead = 0;
    for (std::size_t j = 0; j < m; ++j) {
      const std::size_t i = order[j];
      if (!(cost[i] > 0)) return {{n}, {workers[i]}, true};  // a worker that costs nothing
      inv += 1 / cost[i];
      lead += fixed[i] / cost[i];
    }
    const double t = (static_cast<double>(n) + lead) / inv;
    bool useful = true;
    for (std::size_t j = 0; j < m && useful; ++j) useful = t - fixed[order[j]] > 0;
    const double total = t + (m > 1 ? static_cast<double>(m) * kBlockCostUs : 0.0);
    if (!useful || !(total < best)) continue;
    best = total;
    share.assign(workers.size(), 0.0);
    for (std::size_t j = 0; j < m; ++j) share[order[j]] = (t - fixed[order[j]]) / cost[order[j]];
  }
  SplitState s{{}, {}, true};
  std::vector<double> weights;
  double sum = 0;
  for (std::size_t i = 0; i < share.size(); ++i) {
    if (!(share[i] > 0)) continue;
    s.workers.push_back(workers[i]);
    weights.push_back(share[i]);
    sum += share[i];
  }
  s.sizes = proportional(n, weights, sum);
  return s;
}

SplitState model_split(AutoSplit& own, const std::vector<std::string>& sharing, std::size_t n,
                       const std::vector<int>& workers,
                       const std::function<TransferCosts()>& transfer, std::size_t parts) {
  const std::size_t k = workers.size() < n ? workers.size() : n;
  SplitState even{even_sizes(n, parts), {}, false};
  if (k != workers.size() || k < 2) return even;
  std::vector<double> total(k, 0.0), per_block(k, 0.0), times, fixed;
  bool known = false;
  // Each interface's predicted time per element on each worker, summed: the split
  // balances the interfaces' work together. One still calibrating on equal blocks
  // (Pending) waits for it, so that no interface's model is left out for good (once the
  // blocks are sized unequally, equal blocks no longer run to calibrate it).
  auto add = [&](AutoSplit& a) {
    switch (a.predict(n, workers, times, fixed)) {
      case AutoSplit::Prediction::None:
        return true;
      case AutoSplit::Prediction::Pending:
        return false;
      case AutoSplit::Prediction::Known:
        for (std::size_t w = 0; w < k; ++w) {
          total[w] += times[w];
          per_block[w] += fixed[w];
        }
        known = true;
        return true;
    }
    return true;
  };
  if (!add(own)) return even;
  {
    // Held while asking: no AutoSplit named in @p sharing is destroyed meanwhile.
    std::lock_guard<std::mutex> lock(registry_mutex());
    for (const std::string& name : sharing) {
      auto it = registry().find(name);
      if (name == own.iface() || it == registry().end()) continue;
      if (!add(*it->second)) return even;
    }
  }
  if (!known) return even;
  // A block's own cost (its task's, where the models tell it) is paid once per block, as
  // the shared operands' transfers are.
  TransferCosts costs = transfer();
  costs.fixed.resize(k, 0.0);
  for (std::size_t w = 0; w < k; ++w) costs.fixed[w] += per_block[w];
  return fastest_split(n, workers, total, costs);
}

}  // namespace detail
}  // namespace peppher
