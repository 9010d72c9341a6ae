// The call-operand core (detail::Call): operands to handles, one task per block, submission
// with clear errors, and the release of what was registered for the call.
#include "peppher/detail/call.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "devices/host_opencl.h"
#include "devices/idle_workers.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/raw_cache.h"
#include "peppher/detail/trace.h"
#include "peppher/error.h"
#include "peppher/init.h"
#include "peppher/inline_call.h"
#include "peppher/partition.h"
#include "peppher/partitioned_call.h"
#include "peppher/placement.h"

namespace peppher::detail {
namespace {

using FilterFunc = void (*)(void*, void*, starpu_data_filter*, unsigned, unsigned);

// A call's argument block for a task follows room for the task itself (make_task).
constexpr std::size_t kTaskBytes = (sizeof(starpu_task) + alignof(std::max_align_t) - 1) /
                                   alignof(std::max_align_t) * alignof(std::max_align_t);

// The error for a failed starpu_task_submit of interface @p iface.
Error submit_error(const char* iface, int ret) {
  if (ret == -ENODEV) {
    return Error(std::string(iface) +
                 ": no worker can run any of its variants (no enabled variant for the workers "
                 "this run has: " +
                 std::to_string(starpu_cpu_worker_get_count()) + " CPU, " +
                 std::to_string(starpu_cuda_worker_get_count()) + " CUDA, " +
                 std::to_string(starpu_opencl_worker_get_count()) + " OpenCL)");
  }
  return Error(std::string(iface) + ": starpu_task_submit failed (" + std::to_string(ret) + ")");
}

// @p n as one of StarPU's 32-bit extents, or a peppher::Error naming the call and buffer.
std::uint32_t extent(const char* iface, int index, const char* what, std::size_t n) {
  if (n > UINT32_MAX)
    throw Error(std::string(iface) + ": buffer " + std::to_string(index) + " has " +
                std::to_string(n) + " " + what +
                ", more than StarPU's 32-bit extents hold (is the length negative?)");
  return static_cast<std::uint32_t>(n);
}

std::vector<std::size_t> offsets_of(const std::vector<std::size_t>& sizes) {
  std::vector<std::size_t> offsets;
  offsets.reserve(sizes.size());
  std::size_t at = 0;
  for (std::size_t s : sizes) {
    offsets.push_back(at);
    at += s;
  }
  return offsets;
}

// A halo piece's copy task: the first (or last) rows (elements) of a block into the small
// data of that boundary (buffers: the block, read; the piece, written).
struct HaloCopy {
  std::uint32_t first;  // the block's first row (element) copied
  std::uint32_t matrix;
};

void halo_copy_cpu(void* buffers[], void* cl_arg) {
  const auto* a = static_cast<const HaloCopy*>(cl_arg);
  if (a->matrix != 0) {
    const std::size_t elem = STARPU_MATRIX_GET_ELEMSIZE(buffers[0]);
    const std::size_t bytes = STARPU_MATRIX_GET_NX(buffers[1]) * elem;
    const auto* src = reinterpret_cast<const unsigned char*>(STARPU_MATRIX_GET_PTR(buffers[0]));
    auto* dst = reinterpret_cast<unsigned char*>(STARPU_MATRIX_GET_PTR(buffers[1]));
    const std::size_t src_ld = STARPU_MATRIX_GET_LD(buffers[0]) * elem;
    const std::size_t dst_ld = STARPU_MATRIX_GET_LD(buffers[1]) * elem;
    for (std::size_t r = 0; r < STARPU_MATRIX_GET_NY(buffers[1]); ++r)
      std::memcpy(dst + r * dst_ld, src + (a->first + r) * src_ld, bytes);
  } else {
    const std::size_t elem = STARPU_VECTOR_GET_ELEMSIZE(buffers[0]);
    std::memcpy(
        reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[1])),
        reinterpret_cast<const unsigned char*>(STARPU_VECTOR_GET_PTR(buffers[0])) + a->first * elem,
        STARPU_VECTOR_GET_NX(buffers[1]) * elem);
  }
}

starpu_codelet make_halo_codelet() {
  starpu_codelet cl{};
  cl.where = STARPU_CPU;
  cl.cpu_funcs[0] = halo_copy_cpu;
  cl.cpu_funcs_name[0] = "peppher_halo_copy";
  cl.nbuffers = 2;
  cl.modes[0] = STARPU_R;
  cl.modes[1] = STARPU_W;
  cl.name = "peppher_halo_copy";
  return cl;
}
starpu_codelet g_halo_codelet = make_halo_codelet();

// A reduction's start (Call::add_reduction): the operator's identity (the ReductionOps in
// cl_arg) into one block's partial (buffer 0, written).
void reduction_start_cpu(void* buffers[], void* cl_arg) {
  const auto* ops = static_cast<const ReductionOps*>(cl_arg);
  std::memcpy(reinterpret_cast<void*>(STARPU_VARIABLE_GET_PTR(buffers[0])), ops->identity,
              ops->elem_size);
}

// A reduction's fold: the Scalar (buffer 0, read-write) op= each partial (buffers 1.., read)
// in buffer order, which is block order.
void reduction_fold_cpu(void* buffers[], void* cl_arg) {
  const auto* ops = static_cast<const ReductionOps*>(cl_arg);
  const int n = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
  auto* acc = reinterpret_cast<void*>(STARPU_VARIABLE_GET_PTR(buffers[0]));
  for (int i = 1; i < n; ++i)
    ops->fold(acc, reinterpret_cast<const void*>(STARPU_VARIABLE_GET_PTR(buffers[i])));
}

starpu_codelet make_reduction_start_codelet() {
  starpu_codelet cl{};
  cl.where = STARPU_CPU;
  cl.cpu_funcs[0] = reduction_start_cpu;
  cl.cpu_funcs_name[0] = "peppher_reduction_start";
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_W;
  cl.name = "peppher_reduction_start";
  return cl;
}
starpu_codelet g_reduction_start = make_reduction_start_codelet();

// Fold codelets by partial count: g_reduction_folds[k] folds k partials (1 .. NMAXBUFS - 1),
// so that StarPU-MPI reads every buffer's mode from the codelet; more blocks take several
// folds, chained on the Scalar in block order.
constexpr int kMaxFold = STARPU_NMAXBUFS - 1;
std::array<starpu_codelet, STARPU_NMAXBUFS> make_reduction_folds() {
  std::array<starpu_codelet, STARPU_NMAXBUFS> all{};
  for (int k = 1; k <= kMaxFold; ++k) {
    starpu_codelet& cl = all[static_cast<std::size_t>(k)];
    cl.where = STARPU_CPU;
    cl.cpu_funcs[0] = reduction_fold_cpu;
    cl.cpu_funcs_name[0] = "peppher_reduction_fold";
    cl.nbuffers = k + 1;
    cl.modes[0] = STARPU_RW;
    for (int i = 1; i <= k; ++i) cl.modes[i] = STARPU_R;
    cl.name = "peppher_reduction_fold";
  }
  return all;
}
std::array<starpu_codelet, STARPU_NMAXBUFS> g_reduction_folds = make_reduction_folds();

// A reduction whose one block's task accumulates into the Scalar itself, with no partial,
// start or fold task: one process (a distributed call folds partials of every rank), one
// block, and min or max, where folding one partial started at the identity gives the same
// value as accumulating into the Scalar (a sum or product would round differently).
bool reduces_in_place(const Operand& op, std::size_t nblocks) {
  return op.kind == OperandKind::ContainerReduce && nblocks == 1 && distributed() == nullptr &&
         (op.reduction.op == Reduction::Min || op.reduction.op == Reduction::Max);
}

// The argument block of a task the call makes itself (a halo copy, a reduction's start or
// fold): a malloc'd copy of @p arg, which StarPU frees with the task. Without memory the
// task is destroyed before the exception leaves.
template <typename Arg>
void set_task_arg(starpu_task* task, const Arg& arg) {
  static_assert(std::is_trivially_copyable_v<Arg>, "StarPU frees the copy with free()");
  void* a = std::malloc(sizeof(Arg));
  if (a == nullptr) {
    task->destroy = 0;
    starpu_task_destroy(task);
    throw std::bad_alloc();
  }
  std::memcpy(a, &arg, sizeof(Arg));
  task->cl_arg = a;
  task->cl_arg_size = sizeof(Arg);
  task->cl_arg_free = 1;
}

}  // namespace

void require_running(const char* iface) {
  if (!is_running()) {
    throw Error(std::string(iface) + " called while the runtime is not running " +
                "(call PEPPHER_INITIALIZE() first)");
  }
}

std::vector<std::size_t> even_sizes(std::size_t n, std::size_t nparts) {
  std::vector<std::size_t> sizes;
  sizes.reserve(nparts);
  for (std::size_t b = 0; b < nparts; ++b) sizes.push_back(block_range(n, nparts, b).size);
  return sizes;
}

Call::Call(starpu_codelet* codelet, const char* iface) : codelet_(codelet), iface_(iface) {
  require_running(iface);
}

Call::~Call() {
  for (void* a : args_)  // not handed to a task
    if (a != nullptr) std::free(static_cast<char*>(a) - kTaskBytes);
  release();
}

Operand& Call::add(int index, OperandKind kind, const char* name) {
  if (index < 0 || index >= STARPU_NMAXBUFS || ops_.size() >= STARPU_NMAXBUFS)
    throw Error(std::string(iface_) + ": buffer index " + std::to_string(index) +
                " out of range (StarPU has " + std::to_string(STARPU_NMAXBUFS) +
                " buffers per task)");
  Operand& op = ops_.emplace_back();
  op.index = index;
  op.kind = kind;
  op.name = name;
  return op;
}

// ---- operands shared whole ---------------------------------------------------------------

void Call::add_container(int index, Storage& s) {
  add(index, OperandKind::Container, "").container = &s;
}

void Call::add_reduction(int index, const char* name, Storage& s, const ReductionOps& ops) {
  if (s.shape().layout != Layout::Variable || s.shape().elem_size != ops.elem_size)
    throw Error(std::string(iface_) + ": the reduction operand '" + name +
                "' must be a peppher::Scalar of the operator's element type");
  Operand& op = add(index, OperandKind::ContainerReduce, name);
  op.container = &s;
  op.reduction = ops;
}

void Call::raw_memory(int index, const void* ptr, std::size_t bytes) const {
  if (bytes == 0 || distributed() != nullptr) return;  // MPI: every rank has its own copy
  // Memory inside a container a task may still hold: its tasks first (inline_call.h).
  wait_for_aliased_container(ptr, bytes,
                             (STARPU_CODELET_GET_MODE(codelet_, index) & STARPU_W) != 0);
}

void Call::add_raw_vector(int index, const void* ptr, std::size_t count, std::size_t elem_size) {
  const std::uint32_t n = extent(iface_, index, "elements", count);
  raw_memory(index, ptr, count * elem_size);
  Operand* op = nullptr;
  if (n != 0 && distributed() == nullptr) {
    // Kept registered across calls on the same pointer and size (raw_cache.h); nullptr when
    // another call still uses that address with another size: registered for this call.
    op = &add(index, OperandKind::RawCached, "");
    op->handle = raw_cache_acquire(ptr, n, elem_size);
    if (op->handle != nullptr) return;
    op->kind = OperandKind::Raw;
  } else {
    if (n == 0) {
      scratch_.push_back(std::make_unique<unsigned char[]>(elem_size));
      ptr = scratch_.back().get();
    }
    op = &add(index, OperandKind::Raw, "");
  }
  starpu_vector_data_register(&op->handle, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr),
                              n == 0 ? 1 : n, elem_size);
  if (Distributed* layer = distributed()) layer->raw_registered(op->handle, {});
}

void Call::add_raw_matrix(int index, const void* ptr, std::size_t count, std::size_t row_width,
                          std::size_t elem_size) {
  const std::uint32_t width = extent(iface_, index, "elements per row", row_width);
  const std::uint32_t rows = extent(iface_, index, "rows", raw_rows(count, row_width));
  raw_memory(index, ptr, count * elem_size);
  if (rows == 0) {
    scratch_.push_back(std::make_unique<unsigned char[]>(elem_size * width));
    ptr = scratch_.back().get();
  }
  Operand& op = add(index, OperandKind::Raw, "");
  starpu_matrix_data_register(&op.handle, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr), width,
                              width, rows == 0 ? 1 : rows, elem_size);
  if (Distributed* layer = distributed()) layer->raw_registered(op.handle, {});
}

void Call::add_raw_variable(int index, const void* ptr, std::size_t elem_size) {
  raw_memory(index, ptr, elem_size);
  Operand& op = add(index, OperandKind::Raw, "");
  starpu_variable_data_register(&op.handle, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr),
                                elem_size);
  if (Distributed* layer = distributed()) layer->raw_registered(op.handle, {});
}

std::size_t Call::raw_rows(std::size_t count, std::size_t row_width) const {
  if (row_width == 0 || count % row_width != 0) {
    throw Error(std::string(iface_) + ": numElements (" + std::to_string(count) +
                ") is not a multiple of descRowWidth (" + std::to_string(row_width) + ")");
  }
  return count / row_width;
}

// ---- partitioned operands ----------------------------------------------------------------

std::size_t Call::count_for(const char* name, std::size_t n, long long block) const {
  if (block <= 0)
    throw Error(std::string(iface_) + ": the partition of '" + name + "' gives blocks of " +
                std::to_string(block) + " elements; it must be positive");
  if (n == 0) throw Error(std::string(iface_) + ": '" + name + "' is empty and cannot be split");
  const auto b = static_cast<std::size_t>(block);
  return n / b + (n % b != 0 ? 1 : 0);
}

void Call::check_count(const char* name, const std::vector<std::size_t>& sizes) {
  if (nblocks_ != 0 && sizes.size() != nblocks_)
    throw Error(std::string(iface_) + ": '" + name + "' splits into " +
                std::to_string(sizes.size()) + " blocks but '" + first_split_ + "' into " +
                std::to_string(nblocks_) +
                "; every partitioned operand of a call must split into the same number of "
                "blocks");
  if (nblocks_ == 0) {
    nblocks_ = sizes.size();
    first_split_ = name;
  }
}

std::vector<std::size_t> Call::fixed_sizes(const char* name, std::size_t n, long long block) {
  std::vector<std::size_t> sizes = even_sizes(n, count_for(name, n, block));
  check_count(name, sizes);
  return sizes;
}

void Call::add_auto_split(int index, const char* name, Storage& s, AutoSplit& a) {
  const bool rows = s.shape().layout == Layout::Matrix;
  const std::size_t n = rows ? s.shape().ny : s.shape().nx;
  Operand& op = add(index, OperandKind::ContainerSplit, name);
  op.container = &s;
  op.auto_split = true;
  op.extent = n;
  note_auto_operand(name, n, a);
}

void Call::add_raw_auto_split(int index, const char* name, const void* ptr, std::size_t n,
                              std::size_t row_width, std::size_t elem_size, AutoSplit& a) {
  if (row_width == 0) {
    extent(iface_, index, "elements", n);
  } else {
    extent(iface_, index, "elements per row", row_width);
    extent(iface_, index, "rows", n);
  }
  raw_memory(index, ptr, n * (row_width == 0 ? 1 : row_width) * elem_size);
  Operand& op = add(index, OperandKind::RawSplit, name);
  op.auto_split = true;
  op.extent = n;
  op.raw = ptr;
  op.row_width = row_width;
  op.elem_size = elem_size;
  note_auto_operand(name, n, a);
}

void Call::note_auto_operand(const char* name, std::size_t n, AutoSplit& a) {
  if (n == 0) throw Error(std::string(iface_) + ": '" + name + "' is empty and cannot be split");
  if (auto_ == nullptr) {
    auto_ = &a;
    auto_extent_ = n;
    first_auto_ = name;
  } else if (n != auto_extent_) {
    throw Error(std::string(iface_) + ": '" + name + "' has " + std::to_string(n) +
                " elements (or rows) but '" + first_auto_ + "' has " +
                std::to_string(auto_extent_) +
                "; operands partitioned with '?' must have the same extent");
  }
  settled_ = false;
}

namespace {

bool is_even(std::size_t n, const std::vector<std::size_t>& sizes) {
  for (std::size_t b = 0; b < sizes.size(); ++b)
    if (sizes[b] != block_range(n, sizes.size(), b).size) return false;
  return true;
}

// Whether @p s can be this call's `?` split of @p n: equal (or given) unpinned blocks, @p k
// of them; or model-sized blocks, at most one per worker, each pinned to a worker that can
// run the codelet; no block smaller than @p halo.
bool valid_for(const SplitState& s, std::size_t n, std::size_t k, const std::vector<int>& workers,
               std::size_t halo) {
  const std::size_t blocks = s.sizes.size();
  if (s.modelled ? blocks == 0 || blocks > workers.size() || s.workers.size() != blocks
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
  const SplitState* chosen = nullptr;
  auto first_valid = [&](const std::vector<SplitState>& from, bool modelled) {
    for (const SplitState& s : from)
      if (chosen == nullptr && s.modelled == modelled && valid_for(s, n, k, workers, halo))
        chosen = &s;
  };
  first_valid(active, true);  // partitioned now with a modelled split: keep it
  first_valid(last, true);    // was, and nothing else since: split it that way again
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
  if (auto_ == nullptr || settled_) return;
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
  // Without a model-sized split: one equal block per worker, each of kMinBlockBytes at least.
  const std::size_t k =
      unmodelled_blocks(n, bytes, n) == 1 ? 1 : unmodelled_blocks(n, bytes, capable().size());

  bool quick = distributed() == nullptr && k == 1 && codelet_->model == nullptr;
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
  auto_workers_ = std::move(workers);  // empty for a quick call (no model to remember)

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
    } else {
      register_raw_split(op);
    }
  }
  workers_ = auto_split_.workers;
  settled_ = true;
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
        const double us =
            cost(node, valid, c.last_reader(), mode, c.shape().span() * c.shape().elem_size);
        (op.auto_split ? split : shared) += us;
      } else if (op.auto_split) {
        const std::size_t row = op.row_width == 0 ? 1 : op.row_width;
        split += cost(node, home, STARPU_MAIN_RAM, mode, op.extent * row * op.elem_size);
      } else if ((op.kind == OperandKind::Raw || op.kind == OperandKind::RawCached) && op.handle) {
        // Registered and whole (raw_cache.h keeps it across calls): StarPU knows where
        // it is valid.
        const double us = starpu_data_expected_transfer_time(op.handle, node, mode);
        if (std::isfinite(us) && us > 0) shared += us;
      }
    }
    costs.per_element.push_back(split / n);
    costs.fixed.push_back(shared);
  }
  return costs;
}

std::vector<std::size_t> Call::sizes_2d(const char* name, std::size_t rows, std::size_t cols,
                                        long long block_rows, long long block_cols,
                                        std::vector<std::size_t>& first_rows,
                                        std::size_t& row_parts) {
  const std::size_t rp = count_for(name, rows, block_rows);
  row_parts = rp;
  const std::size_t cp = count_for(name, cols, block_cols);
  if (grid_rows_ == 0) {
    grid_rows_ = rp;
    grid_cols_ = cp;
    first_grid_ = name;
    grid_checked_ = false;
  } else if (rp != grid_rows_ || cp != grid_cols_) {
    throw Error(std::string(iface_) + ": '" + name + "' splits into " + std::to_string(rp) + " x " +
                std::to_string(cp) + " blocks but '" + first_grid_ + "' into " +
                std::to_string(grid_rows_) + " x " + std::to_string(grid_cols_) +
                "; every operand partitioned in 2-D blocks must split into the same grid");
  }
  std::vector<std::size_t> sizes;
  first_rows.clear();
  for (std::size_t i = 0; i < rp; ++i)
    for (std::size_t j = 0; j < cp; ++j) {
      sizes.push_back(block_range(rows, rp, i).size * block_range(cols, cp, j).size);
      first_rows.push_back(block_range(rows, rp, i).offset);
    }
  check_count(name, sizes);
  return sizes;
}

void Call::add_grid_split(int index, const char* name, Storage& s, GridAxis axis,
                          std::size_t extent, long long block) {
  const bool rows = axis == GridAxis::Rows;
  std::vector<std::size_t> sizes = even_sizes(extent, count_for(name, extent, block));
  PartitionSpec spec{rows ? PartitionSpec::Kind::MatrixRows : PartitionSpec::Kind::MatrixCols,
                     {sizes.size()}};
  add_container_split(index, name, s, std::move(spec), std::move(sizes));
  ops_.back().axis = axis;
  grid_checked_ = false;
}

void Call::check_grid() {
  if (grid_checked_) return;
  for (Operand& op : ops_) {
    if (op.axis == GridAxis::Block) continue;
    const bool rows = op.axis == GridAxis::Rows;
    if (grid_rows_ == 0)
      throw Error(std::string(iface_) + ": '" + op.name + "' is split in " +
                  (rows ? "row" : "column") +
                  " blocks of the call's 2-D grid, but no operand is split in 2-D blocks");
    const std::size_t want = rows ? grid_rows_ : grid_cols_;
    if (op.sizes.size() != want)
      throw Error(std::string(iface_) + ": '" + op.name + "' splits into " +
                  std::to_string(op.sizes.size()) + (rows ? " row" : " column") + " blocks but '" +
                  first_grid_ + "' into " + std::to_string(grid_rows_) + " x " +
                  std::to_string(grid_cols_) + " blocks; the " + (rows ? "row" : "column") +
                  " blocks must match the grid's " + (rows ? "rows" : "columns") +
                  " (task (i, j) gets " + (rows ? "row block i" : "column block j") + ")");
    op.grid_cols = grid_cols_;
  }
  grid_checked_ = true;
}

void Call::add_container_split(int index, const char* name, Storage& s, PartitionSpec spec,
                               std::vector<std::size_t> sizes, std::vector<std::size_t> offsets) {
  Operand& op = add(index, OperandKind::ContainerSplit, name);
  op.container = &s;
  op.spec = std::move(spec);
  op.offsets = offsets.empty() ? offsets_of(sizes) : std::move(offsets);
  op.sizes = std::move(sizes);
}

void Call::set_halo(int index, std::size_t halo, int halo_index) {
  for (Operand& op : ops_) {
    if (op.index != index || op.kind != OperandKind::ContainerSplit) continue;
    if (halo_index < 0 || halo_index + 1 >= STARPU_NMAXBUFS)
      throw Error(std::string(iface_) + ": halo buffer index " + std::to_string(halo_index) +
                  " out of range");
    op.halo = halo;
    op.halo_index = halo_index;
    return;
  }
  throw Error(std::string(iface_) + ": no partitioned container at buffer " +
              std::to_string(index) + " for a halo");
}

void Call::split_registered(Operand& op, starpu_data_handle_t h, FilterFunc filter) {
  op.handle = h;
  op.filter_sizes.assign(op.sizes.begin(), op.sizes.end());
  starpu_data_filter f{};
  f.filter_func = filter;
  f.nchildren = static_cast<unsigned>(op.filter_sizes.size());
  f.filter_arg_ptr = op.filter_sizes.data();
  starpu_data_partition(h, &f);  // fresh handle: no task uses it yet, returns at once
  for (unsigned i = 0; i < f.nchildren; ++i) op.blocks.push_back(starpu_data_get_sub_data(h, 1, i));
  if (Distributed* layer = distributed()) layer->raw_registered(h, op.blocks.to_vector());
}

void Call::register_raw_split(Operand& op) {
  starpu_data_handle_t h;
  const auto home = reinterpret_cast<uintptr_t>(op.raw);
  const auto n = static_cast<std::uint32_t>(op.extent);  // checked by add_raw_auto_split
  if (op.row_width == 0) {
    starpu_vector_data_register(&h, STARPU_MAIN_RAM, home, n, op.elem_size);
    split_registered(op, h, starpu_vector_filter_list);
  } else {
    const auto width = static_cast<std::uint32_t>(op.row_width);
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM, home, width, width, n, op.elem_size);
    split_registered(op, h, matrix_filter_row_list);
  }
}

void Call::add_raw_vector_split(int index, const char* name, const void* ptr, std::size_t count,
                                std::size_t elem_size, std::vector<std::size_t> sizes) {
  const std::uint32_t n = extent(iface_, index, "elements", count);
  raw_memory(index, ptr, count * elem_size);
  Operand& op = add(index, OperandKind::RawSplit, name);
  op.offsets = offsets_of(sizes);
  op.sizes = std::move(sizes);
  starpu_data_handle_t h;
  starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr), n, elem_size);
  split_registered(op, h, starpu_vector_filter_list);
}

void Call::add_raw_matrix_split(int index, const char* name, const void* ptr, std::size_t rows,
                                std::size_t row_width, std::size_t elem_size,
                                std::vector<std::size_t> sizes) {
  const std::uint32_t width = extent(iface_, index, "elements per row", row_width);
  const std::uint32_t ny = extent(iface_, index, "rows", rows);
  raw_memory(index, ptr, rows * row_width * elem_size);
  Operand& op = add(index, OperandKind::RawSplit, name);
  op.offsets = offsets_of(sizes);
  op.sizes = std::move(sizes);
  op.row_width = row_width;
  starpu_data_handle_t h;
  starpu_matrix_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr), width, width,
                              ny, elem_size);
  split_registered(op, h, matrix_filter_row_list);
}

// ---- blocks and arguments ----------------------------------------------------------------

const Operand& Call::find(int index) const {
  for (const Operand& op : ops_)
    if (op.index == index && op.is_split()) return op;
  throw Error(std::string(iface_) + ": no partitioned operand at buffer " + std::to_string(index));
}

std::size_t Call::block_size(std::size_t b, int index) {
  settle();
  const Operand& op = find(index);
  return op.sizes.at(op.block_of(b));
}

std::size_t Call::block_offset(std::size_t b, int index) {
  settle();
  const Operand& op = find(index);
  return op.offsets.at(op.block_of(b));
}

std::size_t Call::block_extent(std::size_t b, int index, bool cols) {
  settle();
  const Operand& op = find(index);
  const std::size_t k = op.block_of(b), size = op.sizes.at(k);
  if (op.container == nullptr) return cols ? (op.row_width == 0 ? 1 : op.row_width) : size;
  const Shape& shape = op.container->shape();
  if (shape.layout != Layout::Matrix) return cols ? 1 : size;
  using Kind = PartitionSpec::Kind;
  switch (op.spec.kind) {
    case Kind::MatrixCols:
      return cols ? size : shape.ny;
    case Kind::Matrix2d: {
      const std::size_t p = op.spec.args.at(0), q = op.spec.args.at(1);
      return cols ? block_range(shape.nx, q, k % q).size : block_range(shape.ny, p, k / q).size;
    }
    default:  // row blocks
      return cols ? shape.nx : size;
  }
}

void Call::set_codelet(starpu_codelet* codelet) {
  settle();
  codelet_ = codelet;
  const std::vector<int> capable = capable_workers(codelet);
  for (int& w : workers_)
    if (std::find(capable.begin(), capable.end(), w) == capable.end()) w = -1;
}

void* Call::args(std::size_t b) const noexcept {
  return b < args_.size() ? args_[b] : nullptr;
}

void* Call::make_args(std::size_t b, std::size_t size) {
  if (b >= blocks()) throw Error(std::string(iface_) + ": no block " + std::to_string(b));
  args_.grow(blocks(), nullptr);
  if (args_[b] == nullptr) {
    void* block = std::malloc(kTaskBytes + size);  // the task's and the arguments' (make_task)
    if (block == nullptr) throw std::bad_alloc();
    args_[b] = static_cast<char*>(block) + kTaskBytes;
  }
  args_size_ = size;
  return args_[b];
}

// ---- submission --------------------------------------------------------------------------

// Whether this call writes every block of @p op's container without reading any: its
// codelet's mode for @p op is write-only and no other operand names the same container.
bool Call::overwrites(const Operand& op) const {
  if ((STARPU_CODELET_GET_MODE(codelet_, op.index) & STARPU_R) != 0) return false;
  for (const Operand& other : ops_)
    if (&other != &op && other.container == op.container) return false;
  return true;
}

void Call::resolve() {
  for (Operand& op : ops_) {
    if (op.kind == OperandKind::Container) {
      op.handle = op.container->handle_for_task_locked();
    } else if (op.kind == OperandKind::ContainerSplit && op.auto_split && op.sizes.size() == 1 &&
               distributed() == nullptr) {
      // A `?` split into one block (one capable worker) in one process: the block is the
      // whole container, so its task gets the container's own handle, with no partition
      // plan to make, keep or undo (the same task, the same data).
      op.blocks.assign(1, op.container->handle_for_task_locked());
      if (!quick_) op.container->note_auto_split_locked(iface_, auto_split_);
      if (op.halo_index >= 0) {  // no neighbour: the block itself stands for both halos
        op.halo_first.assign(1, nullptr);
        op.halo_last.assign(1, nullptr);
      }
    } else if (op.kind == OperandKind::ContainerSplit) {
      op.blocks = op.container->partition_locked(op.spec, overwrites(op));
      if (op.auto_split) op.container->note_auto_split_locked(iface_, auto_split_);
      if (op.blocks.size() != op.sizes.size())
        throw Error(std::string(iface_) + ": '" + op.name + "' was split into " +
                    std::to_string(op.blocks.size()) + " blocks instead of " +
                    std::to_string(op.sizes.size()));
      if (op.halo_index >= 0) {
        const bool matrix = op.container->shape().layout == Layout::Matrix;
        for (std::size_t b = 0; b < op.sizes.size() && op.sizes.size() > 1; ++b)
          if (op.sizes[b] < op.halo)
            throw Error(std::string(iface_) + ": block " + std::to_string(b) + " of '" + op.name +
                        "' has " + std::to_string(op.sizes[b]) + (matrix ? " rows" : " elements") +
                        ", fewer than its halo of " + std::to_string(op.halo) +
                        " (a block's task reads its halo from its two neighbours only); use "
                        "larger blocks or a smaller halo");
        std::vector<starpu_data_handle_t> first, last;
        op.container->halo_pieces_locked(op.spec, op.halo, first, last);
        op.halo_first = first;
        op.halo_last = last;
      }
    } else if (op.kind == OperandKind::ContainerReduce) {
      op.handle = op.container->handle_for_task_locked();
      if (reduces_in_place(op, blocks()))
        op.blocks.assign(1, op.handle);
      else
        op.blocks = op.container->reduction_partials_locked(blocks());
    }
  }
}

// A task the call makes itself (a halo copy, a reduction's start or fold), through the
// distributed layer when there is one: it runs on the owner of the data it writes.
void Call::submit_internal(starpu_task* task) {
  Distributed* layer = distributed();
  wake_workers();  // paused while the runtime was idle (idle_workers.h)
  const int ret = layer != nullptr ? layer->submit(task) : starpu_task_submit(task);
  task_submitted();  // CPU workers blocked beside a busy OpenCL device poll (idle_workers.h)
  if (ret < 0) {
    task->destroy = 0;
    starpu_task_destroy(task);  // frees its argument block too
    throw submit_error(iface_, ret);
  }
  submitted_ = true;
}

void Call::submit_reduction_starts() {
  for (const Operand& op : ops_) {
    if (op.kind != OperandKind::ContainerReduce || reduces_in_place(op, blocks())) continue;
    for (starpu_data_handle_t partial : op.blocks) {
      starpu_task* task = starpu_task_create();
      task->cl = &g_reduction_start;
      task->handles[0] = partial;
      set_task_arg(task, op.reduction);
      submit_internal(task);
    }
  }
}

void Call::submit_reduction_folds() {
  for (const Operand& op : ops_) {
    if (op.kind != OperandKind::ContainerReduce || reduces_in_place(op, blocks())) continue;
    for (std::size_t first = 0; first < op.blocks.size(); first += kMaxFold) {
      const std::size_t k = std::min<std::size_t>(kMaxFold, op.blocks.size() - first);
      starpu_task* task = starpu_task_create();
      task->cl = &g_reduction_folds[k];
      task->handles[0] = op.handle;
      for (std::size_t i = 0; i < k; ++i) task->handles[i + 1] = op.blocks[first + i];
      set_task_arg(task, op.reduction);
      submit_internal(task);
    }
  }
}

void Call::submit_halo_copies() {
  for (const Operand& op : ops_) {
    if (op.halo_index < 0 || op.halo == 0) continue;
    const bool matrix = op.container->shape().layout == Layout::Matrix;
    for (std::size_t b = 0; b < op.blocks.size(); ++b) {
      const std::size_t size = op.sizes[b];
      const std::pair<starpu_data_handle_t, std::size_t> pieces[2] = {
          {op.halo_first[b], 0}, {op.halo_last[b], size - op.halo}};
      for (const auto& [piece, first] : pieces) {
        if (piece == nullptr) continue;
        starpu_task* task = starpu_task_create();
        task->cl = &g_halo_codelet;
        task->handles[0] = op.blocks[b];
        task->handles[1] = piece;
        HaloCopy arg{};
        arg.first = static_cast<std::uint32_t>(first);
        arg.matrix = matrix ? 1 : 0;
        set_task_arg(task, arg);
        submit_internal(task);  // on the block's owner (it writes the piece, which lives there)
      }
    }
  }
}

starpu_task* Call::make_task(std::size_t b) {
  starpu_task* task = nullptr;
  if (b < args_.size() && args_[b] != nullptr) {
    // The task in front of its arguments, as starpu_task_create() makes one (malloc, init,
    // destroyed with the task): StarPU frees a task it destroys with free(), the arguments
    // with it. One allocation per task instead of two: each is made by the calling thread
    // and freed by a worker, and such pairs meet in glibc's arena lock (apps/ode on one CPU
    // worker: the worker blocked there about twice per step of 22 calls; one allocation less
    // per task, 4 % less time).
    void* args = std::exchange(args_[b], nullptr);
    task = reinterpret_cast<starpu_task*>(static_cast<char*>(args) - kTaskBytes);
    starpu_task_init(task);
    task->destroy = 1;
    task->cl_arg = args;
    task->cl_arg_size = args_size_;
    task->cl_arg_free = 0;  // freed with the task
  } else {
    task = starpu_task_create();
  }
  task->cl = codelet_;
  for (const Operand& op : ops_) {
    task->handles[op.index] = op.handle_of_block(b);
    if (op.halo_index < 0) continue;
    // The neighbours' boundaries; at an end, the block itself (read twice, no halo).
    const bool before = b > 0 && op.halo > 0, after = b + 1 < op.blocks.size() && op.halo > 0;
    task->handles[op.halo_index] = before ? op.halo_last[b - 1] : op.blocks[b];
    task->handles[op.halo_index + 1] = after ? op.halo_first[b + 1] : op.blocks[b];
  }
  if (b < workers_.size() && workers_[b] >= 0) {
    task->execute_on_a_specific_worker = 1;
    task->workerid = static_cast<unsigned>(workers_[b]);
  }
  return task;
}

bool Call::submit_task(starpu_task* task, std::size_t b) {
  // The footprint of an equal block, where the history model's predictions for this
  // interface's equal splits are found (model_split).
  if (b == 0 && auto_ != nullptr && workers_.empty() && codelet_->model != nullptr &&
      is_even(auto_extent_, auto_split_.sizes))
    auto_->remember(auto_extent_, auto_workers_, codelet_->model, starpu_task_data_footprint(task),
                    auto_split_.sizes.size());
  // Through the distributed layer when there is one (StarPU-MPI decides which rank runs
  // it): 0 submitted here, 1 run by another rank (the task is gone), < 0 StarPU's error.
  trace_task(task, iface_, nblocks_ == 0 ? -1 : static_cast<int>(b));  // PEPPHER_TRACE
  Distributed* layer = distributed();
  wake_workers();  // paused while the runtime was idle (idle_workers.h)
  const int ret = layer != nullptr ? layer->submit(task) : starpu_task_submit(task);
  task_submitted();  // CPU workers blocked beside a busy OpenCL device poll (idle_workers.h)
  if (ret < 0) {
    trace_detach(task);
    task->destroy = 0;          // starpu_task_destroy refuses auto-destroyed detached tasks
    starpu_task_destroy(task);  // frees its argument block too
    throw submit_error(iface_, ret);
  }
  submitted_ = true;
  return ret == 0;  // submitted on this rank (1: another rank runs it)
}

void Call::submit(bool synchronous) {
  settle();
  Distributed* layer = distributed();
  if (layer != nullptr) layer->call_begins(*this);  // the ranks compare their calls
  std::vector<starpu_task*> to_wait;  // synchronous calls with nothing registered for them
  bool registered = false;            // raw operands, registered for the call or cached
  {
    // The containers' locks, in address order (no deadlock between calls naming the same
    // containers in another order), from taking their handles to submitting the tasks:
    // another thread's host read or call cannot unpartition or re-register them meanwhile.
    std::array<Storage*, STARPU_NMAXBUFS> used{};
    std::size_t nused = 0;
    for (const Operand& op : ops_)
      if (op.container != nullptr) used[nused++] = op.container;
    for (std::size_t i = 1; i < nused; ++i)  // insertion sort: a handful of operands
      for (std::size_t j = i; j > 0 && std::less<Storage*>()(used[j], used[j - 1]); --j)
        std::swap(used[j], used[j - 1]);
    std::array<std::unique_lock<std::mutex>, STARPU_NMAXBUFS> locks;
    for (std::size_t i = 0; i < nused; ++i)
      if (i == 0 || used[i] != used[i - 1]) locks[i] = used[i]->lock();

    resolve();
    submit_halo_copies();
    submit_reduction_starts();
    // Raw operands (registered for the call, or cached) are waited for by release().
    registered = nused < ops_.size();
    const std::size_t n = blocks();
    for (std::size_t b = 0; b < n; ++b) {
      starpu_task* task = make_task(b);
      if (chooser_ != nullptr && n == 1 && nblocks_ == 0 && layer == nullptr) {
        codelet_ = chooser_(chooser_context_, task);  // same buffers and modes
        task->cl = codelet_;
      }
      if (synchronous && !registered) task->detach = 0;  // waited for below, then freed
      const bool wait = task->detach == 0;
      if (submit_task(task, b) && wait) to_wait.push_back(task);
    }
    submit_reduction_folds();
    // Where the containers' data will be once these tasks ran (placement-aware dispatch).
    if (nused > 0) {
      const int node = workers_.empty() ? memory_node_of(*codelet_) : -1;
      for (const Operand& op : ops_)  // a reduced Scalar: written by its fold, on a CPU
        if (op.container != nullptr)
          op.container->note_task_locked(
              STARPU_CODELET_GET_MODE(codelet_, op.index),
              op.kind == OperandKind::ContainerReduce && !reduces_in_place(op, n) ? STARPU_MAIN_RAM
                                                                                  : node);
    }
  }
  // Waiting for this rank's tasks, which may wait for other ranks' data: the ranks compare
  // their calls first (Distributed::synchronise).
  if (layer != nullptr && (synchronous || registered)) layer->synchronise(SyncPoint::CallEnd, 0, 0);
  for (starpu_task* task : to_wait) {
    if (starpu_task_wait(task) != 0)  // frees it (destroy is set)
      throw Error(std::string(iface_) + ": starpu_task_wait failed");
  }
  release();  // waits for the tasks and copies raw data back
}

void Call::release() noexcept {
  if (Distributed* layer = distributed(); layer != nullptr && layer->diverged()) {
    for (Operand& op : ops_) op.handle = nullptr;  // left registered: see Storage::abandon()
    return;
  }
  if (Distributed* layer = distributed(); layer != nullptr && submitted_) {
    for (Operand& op : ops_)  // every rank's array gets what a task wrote
      if (op.container == nullptr && op.handle != nullptr &&
          (STARPU_CODELET_GET_MODE(codelet_, op.index) & STARPU_W) != 0)
        layer->raw_written(op.handle, op.blocks.to_vector());
  }
  for (Operand& op : ops_) {
    if (op.container != nullptr || op.handle == nullptr) continue;
    if (op.kind == OperandKind::RawCached) {  // waits for the tasks, data home, kept registered
      raw_cache_release(std::exchange(op.handle, nullptr));
      continue;
    }
    if (op.kind == OperandKind::RawSplit) starpu_data_unpartition(op.handle, STARPU_MAIN_RAM);
    starpu_data_unregister(op.handle);
    op.handle = nullptr;
  }
}

}  // namespace peppher::detail
