// The `?` split of a call (detail::Call::settle): a split the containers are partitioned
// with or were last given, when valid for the call, else a new one sized from the models of
// the interfaces sharing them (detail::model_split) and the bus model's transfer costs.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "call/call_parts.h"
#include "call/split_sizing.h"
#include "peppher/detail/distributed.h"
#include "peppher/partitioned_call.h"
#include "peppher/placement.h"

namespace peppher::detail {

bool is_even(std::size_t n, const std::vector<std::size_t>& sizes) {
  for (std::size_t b = 0; b < sizes.size(); ++b)
    if (sizes[b] != block_range(n, sizes.size(), b).size) return false;
  return true;
}

namespace {

// Whether @p s can be this call's `?` split of @p n: equal (or given) unpinned blocks, @p k
// of them; or model-sized blocks, at most one per worker, each pinned to a worker that can
// run the codelet; no block smaller than @p halo.
bool valid_for(const SplitState& s, std::size_t n, std::size_t k, const std::vector<int>& workers,
               std::size_t halo) {
  const std::size_t blocks = s.sizes.size();
  // Model-sized: at most one block per worker, or more where blocks that fit cut a worker's
  // share into pieces (consecutive, pinned to the same worker: fit_auto_split).
  std::size_t runs = 0;
  for (std::size_t b = 0; b < s.workers.size(); ++b)
    runs += b == 0 || s.workers[b] != s.workers[b - 1] ? 1 : 0;
  if (s.modelled ? blocks == 0 || runs > workers.size() || s.workers.size() != blocks
                 : blocks != k || !s.workers.empty())
    return false;
  std::size_t sum = 0;
  for (std::size_t size : s.sizes) {
    if (size == 0 || (blocks > 1 && size < halo)) return false;
    sum += size;
  }
  if (sum != n) return false;
  for (int w : s.workers)
    if (std::find(workers.begin(), workers.end(), w) == workers.end()) return false;
  return true;
}

}  // namespace

void Call::choose_auto_split(std::size_t n, std::size_t k, const std::vector<int>& workers,
                             std::size_t halo) {
  const std::size_t k_all = workers.size() < n ? workers.size() : n;
  // What the `?` containers hold: their current splits, the last `?` splits, and the
  // interfaces sharing them.
  std::vector<SplitState> active, last;
  std::vector<std::string> sharing;
  bool containers = false;
  for (const Operand& op : ops_) {
    if (!op.auto_split || op.container == nullptr) continue;
    containers = true;
    SplitRecord r = op.container->split_record();
    active.push_back(std::move(r.active));
    last.push_back(std::move(r.last_auto));
    for (std::string& name : r.sharing)
      if (std::find(sharing.begin(), sharing.end(), name) == sharing.end())
        sharing.push_back(std::move(name));
  }
  auto_->seen(n, workers, codelet_->model);
  SplitState fresh = model_split(
      *auto_, sharing, n, workers, [&] { return transfer_costs(workers); }, k);
  if (!containers && !fresh.modelled) {
    // Raw memory only: nothing remembers a split but the interface (its last modelled one).
    Split kept = auto_->modelled_split(n);
    SplitState s{kept.sizes, kept.workers, true};
    if (valid_for(s, n, k, workers, halo)) fresh = std::move(s);
  }
  fresh.provisional = fresh.modelled && reader_assumed_;
  reader_assumed_ = false;
  // A provisional split (sized at the first call, the written data's next reader taken to be
  // the host) stands while the fresh one, sized with the readers seen since, is the same.
  auto stands = [&](const SplitState& s) {
    return !s.provisional ||
           (!fresh.modelled || (s.sizes == fresh.sizes && s.workers == fresh.workers));
  };
  const SplitState* chosen = nullptr;
  auto first_valid = [&](const std::vector<SplitState>& from, bool modelled) {
    for (const SplitState& s : from)
      if (chosen == nullptr && s.modelled == modelled && stands(s) &&
          valid_for(s, n, k, workers, halo))
        chosen = &s;
  };
  first_valid(active, true);  // partitioned now with a modelled split: keep it
  first_valid(last, true);    // was, and nothing else since: split it that way again
  if (chosen != nullptr && chosen->provisional && fresh.modelled) chosen = &fresh;  // confirmed
  if (chosen == nullptr && fresh.modelled) chosen = &fresh;
  first_valid(active, false);  // an equal (or fixed) split with one block per worker
  // An equal split with more than @p parts blocks, at most @p most: a `?` split of
  // interfaces that run on more kinds of worker (an interface without an OpenCL variant
  // called between ones with one). Its blocks queue on this call's workers, which costs
  // less than a gather and a new split whenever the calls alternate between the interfaces.
  auto more_blocks = [&](std::size_t parts, std::size_t most) -> const SplitState* {
    for (const SplitState& s : active)
      if (!s.modelled && s.workers.empty() && s.sizes.size() > parts && s.sizes.size() <= most &&
          is_even(n, s.sizes) && valid_for(s, n, s.sizes.size(), workers, halo))
        return &s;
    return nullptr;
  };
  if (chosen == nullptr) chosen = more_blocks(k, starpu_worker_get_count());
  if (chosen == nullptr) chosen = &fresh;
  auto_split_ = *chosen;
  if (const Distributed* layer = distributed(); layer != nullptr && layer->nranks() > 1) {
    // Several ranks: each must choose the same split (their models differ), and block b
    // runs on rank b * nranks / B. So equal blocks, this rank's worker count per rank (ranks
    // alike, as mpirun starts them): one block per worker of every rank, each block's worker
    // left to its rank's scheduler; fewer blocks when one would be smaller than a halo.
    // As on one rank, a current equal split with more blocks, at most one per worker of
    // every rank, is kept (the same on every rank: the containers' splits are).
    const std::size_t nranks = static_cast<std::size_t>(layer->nranks());
    std::size_t parts = std::min(n, k_all * nranks);
    while (parts > 1 && n / parts < halo) --parts;
    const SplitState* more = more_blocks(parts, starpu_worker_get_count() * nranks);
    auto_split_ = more != nullptr ? *more : SplitState{even_sizes(n, parts), {}, false};
  }
  auto_->used(n, Split{auto_split_.sizes, auto_split_.workers}, auto_split_.modelled);
}

void Call::settle() {
  check_grid();
  if (auto_ != nullptr && !settled_) settle_auto();
  if (!fitted_) fit_to_devices();
}

void Call::settle_auto() {
  const std::size_t n = auto_extent_;
  // The workers that can run the codelet, looked up only where they matter: not for a call
  // too small for two blocks and without a model (a list and a loop per call of apps/ode).
  std::vector<int> workers;
  auto capable = [&]() -> const std::vector<int>& {
    if (workers.empty()) workers = capable_workers(codelet_);
    if (workers.empty()) workers.push_back(-1);  // submission reports the missing worker
    return workers;
  };
  std::size_t halo = 0, bytes = 0;
  for (const Operand& op : ops_) {
    if (!op.auto_split) continue;
    if (op.halo > halo) halo = op.halo;
    bytes += op.container != nullptr
                 ? op.container->shape().span() * op.container->shape().elem_size
                 : op.extent * (op.row_width == 0 ? 1 : op.row_width) * op.elem_size;
  }
  // Blocks that fit (call/fit.cpp): where the call's operands exceed a device's memory, the
  // split is chosen over the workers whose memory holds a block of one row (no smaller than
  // a halo) with what every block reads whole, and then made to fit (fit_auto_split).
  const bool exceeds = exceeds_devices();
  WorkingSet ws;
  if (exceeds) {
    ws = working_set();
    const std::vector<int> all = capable();
    workers = fitting_workers(all, ws.of_rows(std::max<std::size_t>(halo, 1)));
    fit_need_ = ws.of_rows(std::max<std::size_t>(halo, 1));
    if (workers.empty()) fit_error(all, fit_need_);
    restrict_to(workers, all);
  }
  // Without a model-sized split: one equal block per worker, each of kMinBlockBytes at least.
  const std::size_t k =
      unmodelled_blocks(n, bytes, n) == 1 ? 1 : unmodelled_blocks(n, bytes, capable().size());

  bool quick = distributed() == nullptr && k == 1 && codelet_->model == nullptr && !exceeds;
  for (const Operand& op : ops_)
    if (quick && op.auto_split && op.container != nullptr) quick = op.container->split_free();
  if (quick) {
    // One block of a small call (or of one worker) in one process, no model to size it
    // otherwise, no split in the containers to keep: the whole, as an unpartitioned call.
    // Nothing to ask the containers or the models (a call of a few microseconds).
    quick_ = true;
    auto_split_ = SplitState{{n}, {}, false};
  } else {
    choose_auto_split(n, k, capable(), halo);
  }
  if (exceeds) fit_auto_split(n, ws, workers);
  // Equal blocks because the model knows no block yet, though it could tell one now (a
  // model of functions): size_from_models() may ask it before the tasks are submitted.
  sizing_pending_ = !quick_ && !exceeds && halo == 0 && distributed() == nullptr &&
                    !auto_split_.modelled && auto_split_.sizes.size() > 1 &&
                    auto_->predictable_now(n, workers, codelet_->model);
  auto_workers_ = std::move(workers);  // empty for a quick call (no model to remember)
  apply_auto_split();
  settled_ = true;
}

void Call::apply_auto_split() {
  const std::size_t n = auto_extent_;
  const std::vector<std::size_t>& sizes = auto_split_.sizes;
  check_count(first_auto_, sizes);
  const bool even = is_even(n, sizes);
  SmallVector<std::size_t, 2> offsets;
  for (std::size_t b = 0, at = 0; b < sizes.size(); at += sizes[b++]) offsets.push_back(at);
  for (Operand& op : ops_) {
    if (!op.auto_split || !op.sizes.empty()) continue;
    op.sizes = sizes;
    op.offsets = offsets;
    if (op.container != nullptr) {
      using Kind = PartitionSpec::Kind;
      const bool rows = op.container->shape().layout == Layout::Matrix;
      if (sizes.size() == 1 && distributed() == nullptr)  // the container whole (resolve())
        op.spec.kind = rows ? Kind::MatrixRows : Kind::VectorBlocks;
      else if (even)
        op.spec = {rows ? Kind::MatrixRows : Kind::VectorBlocks, {sizes.size()}};
      else
        op.spec = {rows ? Kind::MatrixRowSizes : Kind::VectorSizes, sizes};
    }  // raw memory: split when the call is resolved (resolve_raw_split)
  }
  workers_ = auto_split_.workers;
}

TransferCosts Call::transfer_costs(const std::vector<int>& workers) const {
  // StarPU's bus model (detail::transfer_predict_us), as placement-aware dispatch charges it:
  // read data comes from the nearest node that will hold it once the tasks already
  // submitted ran (a container's placement(); unknown, e.g. partitioned over several
  // nodes: at home), `?` raw memory from home, shared raw memory from where StarPU has it
  // (kept registered across calls); written data goes on to its next reader (where the
  // container's last one ran; raw memory: home). The `?` operands per element, the shared
  // ones whole.
  auto cost = [](unsigned node, std::uint32_t valid, int reader, starpu_data_access_mode mode,
                 std::size_t bytes) {
    double us = 0;
    if ((mode & STARPU_R) != 0) us += bring_us(valid, node, bytes);
    if ((mode & STARPU_W) != 0 && reader >= 0 && static_cast<unsigned>(reader) != node) {
      const double back = detail::transfer_predict_us(node, static_cast<unsigned>(reader), bytes);
      if (std::isfinite(back)) us += back;
    }
    return us;
  };
  TransferCosts costs;
  const double n = static_cast<double>(auto_extent_);
  const std::uint32_t home = 1u << STARPU_MAIN_RAM;
  for (int w : workers) {
    const unsigned node = w >= 0 ? starpu_worker_get_memory_node(static_cast<unsigned>(w)) : 0;
    double split = 0, shared = 0;
    for (const Operand& op : ops_) {
      const auto mode = STARPU_CODELET_GET_MODE(codelet_, op.index);
      if (op.container != nullptr && op.kind != OperandKind::ContainerReduce) {
        const Storage& c = *op.container;
        const std::uint32_t valid = c.placement() != 0 ? c.placement() : home;
        int reader = c.last_reader();
        if (reader < 0 && first_sizing_ && op.auto_split && (mode & STARPU_W) != 0) {
          // A first call's split, with no call seen to read the result yet: the host, where
          // a host access needs it, is taken for its next reader (the split is provisional).
          reader = STARPU_MAIN_RAM;
          reader_assumed_ = true;
        }
        const double us = cost(node, valid, reader, mode, c.shape().span() * c.shape().elem_size);
        (op.auto_split ? split : shared) += us;
      } else if (op.auto_split) {
        const std::size_t row = op.row_width == 0 ? 1 : op.row_width;
        split += cost(node, home, STARPU_MAIN_RAM, mode, op.extent * row * op.elem_size);
      } else if ((op.kind == OperandKind::Raw || op.kind == OperandKind::RawCached) && op.handle) {
        // Registered and whole (raw_cache.h keeps it across calls): StarPU knows where
        // it is valid.
        if ((mode & STARPU_R) != 0)
          shared += handle_bring_us(op.handle, node, starpu_data_get_size(op.handle));
      }
    }
    costs.per_element.push_back(split / n);
    costs.fixed.push_back(shared);
  }
  return costs;
}

}  // namespace peppher::detail
