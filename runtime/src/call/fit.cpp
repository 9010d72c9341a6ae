// Blocks that fit (docs/PARTITIONING.md): what a call's tasks hold in a device's memory at
// once against what the device offers (starpu_memory_get_total, which honours
// STARPU_LIMIT_CUDA_MEM / STARPU_LIMIT_OPENCL_MEM), so that a 1-D split gets more, smaller
// blocks that fit, and a call that cannot be split so runs only where it fits, or fails.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "call/call_parts.h"
#include "call/split_sizing.h"
#include "peppher/detail/distributed.h"
#include "peppher/partitioned_call.h"

namespace peppher::detail {

// ---- the sizing, on its own (tested in runtime_tests [partition]) ------------------------

std::size_t WorkingSet::of_blocks(std::size_t k) const noexcept {
  std::size_t bytes = halo + whole;
  for (const Part& p : split) bytes += (p.extent / k + (p.extent % k != 0 ? 1 : 0)) * p.row_bytes;
  return bytes;
}

std::size_t WorkingSet::of_rows(std::size_t rows) const noexcept {
  std::size_t bytes = halo + whole;
  for (const Part& p : split) bytes += rows * p.row_bytes;
  return bytes;
}

std::size_t rows_that_fit(const WorkingSet& ws, std::size_t capacity) noexcept {
  std::size_t per_row = 0;
  for (const WorkingSet::Part& p : ws.split) per_row += p.row_bytes;
  if (ws.halo + ws.whole >= capacity) return 0;
  const std::size_t room = capacity - ws.halo - ws.whole;
  return per_row == 0 ? std::numeric_limits<std::size_t>::max() : room / per_row;
}

std::size_t blocks_that_fit(std::size_t k, std::size_t most, const WorkingSet& ws,
                            std::size_t capacity) noexcept {
  if (k == 0) k = 1;
  if (ws.of_blocks(k) <= capacity) return k;
  if (most <= k || ws.of_blocks(most) > capacity) return 0;
  // of_blocks() does not grow with the block count: the least count in (k, most] that fits.
  std::size_t lo = k, hi = most;  // lo does not fit, hi does
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    (ws.of_blocks(mid) <= capacity ? hi : lo) = mid;
  }
  return hi;
}

SplitState pieces_that_fit(const SplitState& split,
                           const std::function<std::size_t(int)>& fitting_rows) {
  if (split.workers.size() != split.sizes.size()) return split;
  SplitState out{{}, {}, split.modelled};
  for (std::size_t b = 0; b < split.sizes.size(); ++b) {
    const std::size_t size = split.sizes[b], most = fitting_rows(split.workers[b]);
    const std::size_t pieces = most == 0 || size <= most ? 1 : size / most + (size % most != 0);
    for (std::size_t i = 0; i < pieces; ++i) {
      out.sizes.push_back(block_range(size, pieces, i).size);
      out.workers.push_back(split.workers[b]);
    }
  }
  return out;
}

namespace {

// ---- what the devices offer -------------------------------------------------------------

// What a device holds of a call's tasks at once: the running task's data and the next
// one's, which StarPU fetches ahead while it runs. A task whose data takes (nearly) all of a
// device's memory stalled StarPU 1.3 (pocl, STARPU_LIMIT_OPENCL_MEM): the next tasks'
// prefetches held the room the running one needed.
constexpr std::size_t kTasksOnDevice = 2;

// starpu_memory_get_total() of worker @p w's node when it is a device's; 0 (no limit that
// matters here) for main memory, where the data lives, or a node without a total.
std::size_t memory_of_worker(int w) {
  if (w < 0) return 0;
  const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(w));
  const starpu_node_kind kind = starpu_node_get_kind(node);
  if (kind == STARPU_CPU_RAM || kind == STARPU_DISK_RAM) return 0;
  const starpu_ssize_t total = starpu_memory_get_total(node);
  return total > 0 ? static_cast<std::size_t>(total) : 0;
}

// Bytes one task may hold on worker @p w's device (0: no limit).
std::size_t room_of_worker(int w) {
  return memory_of_worker(w) / kTasksOnDevice;
}

// The least room for a task on this run's devices (0: no device has a total).
std::size_t smallest_device_room() {
  std::size_t least = 0;
  const unsigned nodes = starpu_memory_nodes_get_count();
  for (unsigned node = 0; node < nodes; ++node) {
    const starpu_node_kind kind = starpu_node_get_kind(node);
    if (kind == STARPU_CPU_RAM || kind == STARPU_DISK_RAM) continue;
    const starpu_ssize_t total = starpu_memory_get_total(node);
    const std::size_t room = total > 0 ? static_cast<std::size_t>(total) / kTasksOnDevice : 0;
    if (room > 0 && (least == 0 || room < least)) least = room;
  }
  return least;
}

// "OpenCL 0 (memory node 1: 1048576 bytes, 524288 for one task, 1040384 available now)"
std::string device_label(int w) {
  char name[64] = "";
  starpu_worker_get_name(w, name, sizeof(name));
  const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(w));
  const starpu_ssize_t available = starpu_memory_get_available(node);
  return std::string(name) + " (memory node " + std::to_string(node) + ": " +
         std::to_string(memory_of_worker(w)) + " bytes, " + std::to_string(room_of_worker(w)) +
         " for one task" +
         (available >= 0 ? ", " + std::to_string(available) + " available now" : "") + ")";
}

// A StarPU worker bitmap (starpu_task::workerids) of @p workers that lives as long as the
// process: tasks keep the pointer until they end, and a run uses few distinct sets.
const std::uint32_t* worker_mask(const std::vector<int>& workers, unsigned& len) {
  std::vector<std::uint32_t> bits((STARPU_NMAXWORKERS + 31) / 32, 0);
  for (int w : workers)
    if (w >= 0) bits[static_cast<std::size_t>(w) / 32] |= 1u << (static_cast<unsigned>(w) % 32);
  static std::mutex mutex;
  static std::set<std::vector<std::uint32_t>> masks;
  std::lock_guard<std::mutex> lock(mutex);
  len = static_cast<unsigned>(bits.size());
  return masks.insert(std::move(bits)).first->data();
}

bool refinable_spec(const Operand& op) {
  using Kind = PartitionSpec::Kind;
  if (op.axis != GridAxis::Block) return false;
  if (op.kind == OperandKind::RawSplit) return true;
  return op.kind == OperandKind::ContainerSplit &&
         (op.spec.kind == Kind::VectorBlocks || op.spec.kind == Kind::MatrixRows);
}

}  // namespace

// ---- a call's working set ----------------------------------------------------------------

// Bytes of @p op that the task of block @p k holds on a device (@p k past the blocks: the
// whole operand), as the device stores it (a matrix's rows without the host's padding).
std::size_t Call::operand_bytes(const Operand& op, std::size_t k) const {
  if (op.container != nullptr) {
    const Shape& shape = op.container->shape();
    const std::size_t whole = shape.nx * shape.ny * shape.elem_size;
    if (op.kind != OperandKind::ContainerSplit || k >= op.sizes.size()) return whole;
    using Kind = PartitionSpec::Kind;
    switch (op.spec.kind) {
      case Kind::VectorBlocks:
      case Kind::VectorSizes:
      case Kind::Matrix2d:  // sizes count elements
        return op.sizes[k] * shape.elem_size;
      case Kind::MatrixCols:
        return op.sizes[k] * shape.ny * shape.elem_size;
      default:  // row blocks
        return op.sizes[k] * shape.nx * shape.elem_size;
    }
  }
  const std::size_t row = (op.row_width == 0 ? 1 : op.row_width) * op.elem_size;
  if (op.kind == OperandKind::RawSplit)
    return (k < op.sizes.size() ? op.sizes[k] : op.extent) * row;
  return op.handle != nullptr ? starpu_data_get_size(op.handle) : 0;
}

// Bytes of the halo rows a block's task reads of its two neighbours.
std::size_t Call::halo_bytes() const {
  std::size_t bytes = 0;
  for (const Operand& op : ops_) {
    if (op.halo_index < 0 || op.container == nullptr) continue;
    const Shape& shape = op.container->shape();
    const std::size_t row = (shape.layout == Layout::Matrix ? shape.nx : 1) * shape.elem_size;
    bytes += 2 * op.halo * row;
  }
  return bytes;
}

// The working set of the call's 1-D split: its split operands per row, its halos, and what
// every block's task reads whole.
WorkingSet Call::working_set() const {
  WorkingSet ws;
  ws.halo = halo_bytes();
  for (const Operand& op : ops_) {
    if (!op.is_split()) {
      ws.whole += operand_bytes(op, SIZE_MAX);
      continue;
    }
    std::size_t extent = op.auto_split ? op.extent : 0;
    if (extent == 0)
      for (std::size_t s : op.sizes) extent += s;
    const std::size_t bytes = operand_bytes(op, SIZE_MAX);
    ws.split.push_back({extent, extent == 0 ? 0 : bytes / extent});
  }
  return ws;
}

// Whether some task of the call might not fit some device: all its operands whole exceed the
// least memory of this run's devices (the cheap test every call makes; a CPU-only run, or a
// call on less than the smallest device holds, stops here).
bool Call::exceeds_devices() const {
  if (distributed() != nullptr) return false;  // ranks must agree on splits (docs/MPI.md)
  const std::size_t least = smallest_device_room();
  if (least == 0) return false;
  std::size_t bytes = halo_bytes();
  for (const Operand& op : ops_) bytes += operand_bytes(op, SIZE_MAX);
  return bytes > least;
}

std::vector<int> Call::fitting_workers(const std::vector<int>& workers, std::size_t need) const {
  std::vector<int> fit;
  for (int w : workers) {
    const std::size_t memory = room_of_worker(w);
    if (memory == 0 || need <= memory) fit.push_back(w);
  }
  return fit;
}

void Call::fit_error(const std::vector<int>& workers, std::size_t need) const {
  std::string devices;
  for (int w : workers)
    if (w >= 0) devices += (devices.empty() ? "" : ", ") + device_label(w);
  throw Error(std::string(iface_) + ": a task of this call needs " + std::to_string(need) +
              " bytes of device memory at once (its operands, or its smallest blocks with "
              "what every block reads whole), more than " +
              (devices.empty() ? std::string("its workers") : devices) +
              " can hold (STARPU_LIMIT_CUDA_MEM / STARPU_LIMIT_OPENCL_MEM, or the device's "
              "size), and no other worker that can run it was left; partition the call "
              "(docs/PARTITIONING.md, \"Blocks that fit\"), give the device more memory, or "
              "let a CPU variant run it");
}

void Call::restrict_to(const std::vector<int>& allowed, const std::vector<int>& capable) {
  if (allowed.size() == capable.size()) return;
  fit_allowed_ = allowed;
  fit_mask_ = worker_mask(allowed, fit_mask_len_);
}

// Whether some worker that can run @p codelet holds the call's tasks (all, when the call was
// not restricted to some workers).
bool Call::fits_somewhere(const starpu_codelet* codelet) const {
  if (fit_allowed_.empty()) return true;
  for (int w : capable_workers(codelet))
    if (std::find(fit_allowed_.begin(), fit_allowed_.end(), w) != fit_allowed_.end()) return true;
  return false;
}

// ---- the fit of a call -------------------------------------------------------------------

// A `?` split (auto_split_, chosen over @p workers, those whose memory holds a block of one
// row) made to fit: unpinned equal blocks become more equal blocks that fit the least
// memory among @p workers, and a pinned block too large for its worker's memory is cut into
// pieces pinned to that worker (its share stays what the models gave it).
void Call::fit_auto_split(std::size_t n, const WorkingSet& ws, const std::vector<int>& workers) {
  std::size_t halo = 0;
  for (const Operand& op : ops_)
    if (op.auto_split && op.halo > halo) halo = op.halo;
  const std::size_t most = halo > 0 ? std::max<std::size_t>(1, n / halo) : n;
  if (!auto_split_.workers.empty()) {
    auto_split_ = pieces_that_fit(auto_split_, [&](int w) {
      const std::size_t memory = room_of_worker(w);
      return memory == 0 ? n : std::max<std::size_t>(halo, rows_that_fit(ws, memory));
    });
  } else {
    std::size_t least = 0;
    for (int w : workers) {
      const std::size_t memory = room_of_worker(w);
      if (memory != 0 && (least == 0 || memory < least)) least = memory;
    }
    if (least == 0) return;
    const std::size_t k = auto_split_.sizes.size();
    const std::size_t fit = blocks_that_fit(k, most, ws, least);
    if (fit > k) {
      auto_split_ = SplitState{even_sizes(n, fit), {}, false};
      quick_ = false;
    }
  }
}

// A call without `?` operands: a 1-D fixed split gets more blocks when a block's working set
// exceeds the least memory of the devices that can hold its smallest blocks; a call that
// cannot be split so (none, a 2-D grid) runs only on the workers whose memory holds its
// largest task. Devices that cannot hold the call at all are left out (restrict_to).
void Call::fit_to_devices() {
  fitted_ = true;
  if (auto_ != nullptr || !exceeds_devices()) return;  // `?`: settle() fitted it
  const std::vector<int> capable = capable_workers(codelet_);
  bool refinable = nblocks_ != 0 && grid_rows_ == 0;  // a 1-D split
  for (const Operand& op : ops_)
    if (op.is_split() && !refinable_spec(op)) refinable = false;
  std::size_t need = 0;
  if (refinable) {
    const WorkingSet ws = working_set();
    std::size_t most = SIZE_MAX;  // blocks of at least one row, none smaller than a halo
    for (const Operand& op : ops_) {
      if (!op.is_split()) continue;
      std::size_t extent = 0;
      for (std::size_t s : op.sizes) extent += s;
      const std::size_t least_rows = op.halo > 0 ? op.halo : 1;
      most = std::min(most, std::max<std::size_t>(1, extent / least_rows));
    }
    most = std::max(most, nblocks_);
    need = ws.of_blocks(most);
    const std::vector<int> fit = fitting_workers(capable, need);
    if (fit.empty()) {
      fit_need_ = need;
      fit_error(capable, need);
    }
    std::size_t least = 0;
    for (int w : fit) {
      const std::size_t memory = room_of_worker(w);
      if (memory != 0 && (least == 0 || memory < least)) least = memory;
    }
    if (least != 0) {
      const std::size_t k = blocks_that_fit(nblocks_, most, ws, least);
      if (k > nblocks_) resplit_fixed(k);
    }
    fit_need_ = ws.of_blocks(nblocks_);
    restrict_to(fit, capable);
    return;
  }
  const std::size_t tasks = nblocks_ == 0 ? 1 : nblocks_;
  for (std::size_t b = 0; b < tasks; ++b) {
    std::size_t bytes = halo_bytes();
    for (const Operand& op : ops_)
      bytes += operand_bytes(op, op.is_split() ? op.block_of(b) : SIZE_MAX);
    need = std::max(need, bytes);
  }
  fit_need_ = need;
  const std::vector<int> fit = fitting_workers(capable, need);
  if (fit.empty()) fit_error(capable, need);
  restrict_to(fit, capable);
}

// The call's fixed 1-D splits, each into @p k equal blocks instead (nothing is partitioned
// yet: containers and raw memory are split when the call is resolved, at submit).
void Call::resplit_fixed(std::size_t k) {
  for (Operand& op : ops_) {
    if (!op.is_split()) continue;
    std::size_t extent = 0;
    for (std::size_t s : op.sizes) extent += s;
    const std::vector<std::size_t> sizes = even_sizes(extent, k);
    op.sizes = sizes;
    std::vector<std::size_t> offsets;
    for (std::size_t b = 0, at = 0; b < sizes.size(); at += sizes[b++]) offsets.push_back(at);
    op.offsets = offsets;
    if (op.kind == OperandKind::ContainerSplit) op.spec.args = {k};
  }
  nblocks_ = k;
}

}  // namespace peppher::detail
