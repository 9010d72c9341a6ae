// The operands of a call (detail::Call): containers whole or split, raw memory registered
// for the call (its lengths checked), the splits' block sizes and the 2-D grid, halos, and
// what each block's task gets of a split operand.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "call/call_parts.h"
#include "call/split_sizing.h"
#include "lifecycle/lifecycle.h"
#include "peppher/detail/distributed.h"
#include "peppher/detail/raw_cache.h"
#include "peppher/error.h"
#include "peppher/init.h"
#include "peppher/inline_call.h"
#include "peppher/partition.h"
#include "peppher/partitioned_call.h"

namespace peppher::detail {
namespace {

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

}  // namespace

void require_running(const char* iface) {
  wait_until_started();  // a background start's error is thrown here
  if (!started()) {
    const std::string failure = start_failure();
    throw Error(std::string(iface) + " called while the runtime is not running " +
                (failure.empty() ? "(call PEPPHER_INITIALIZE() first)"
                                 : "(its start failed: " + failure + ")"));
  }
}

std::vector<std::size_t> even_sizes(std::size_t n, std::size_t nparts) {
  std::vector<std::size_t> sizes;
  sizes.reserve(nparts);
  for (std::size_t b = 0; b < nparts; ++b) sizes.push_back(block_range(n, nparts, b).size);
  return sizes;
}

// Any number of buffers (a task of more than STARPU_NMAXBUFS gets dyn_handles, make_task),
// but only those of the codelet: its task has room for nbuffers handles.
void Call::check_buffer_index(int index, const char* what) const {
  if (index < 0 || index >= codelet_->nbuffers)
    throw Error(std::string(iface_) + ": " + what + " " + std::to_string(index) +
                " out of range (its codelet has " + std::to_string(codelet_->nbuffers) +
                " buffers)");
}

Operand& Call::add(int index, OperandKind kind, const char* name) {
  check_buffer_index(index, "buffer index");
  fitted_ = false;  // the fit of the blocks is made once every operand is known
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
  if (s.shape().elem_size != ops.elem_size)
    throw Error(std::string(iface_) + ": the reduction operand '" + name +
                "' must be a peppher::Scalar, Vector or Matrix of the operator's element type");
  Operand& op = add(index, OperandKind::ContainerReduce, name);
  op.container = &s;
  op.reduction = ops;
}

void Call::raw_memory(int index, const void* ptr, std::size_t bytes) const {
  if (ptr == nullptr && bytes != 0)  // StarPU would copy from it (or a variant read it)
    throw Error(std::string(iface_) + ": the raw pointer of buffer " + std::to_string(index) +
                " is null but its length is " + std::to_string(bytes) + " bytes (numElements)");
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
    check_buffer_index(halo_index, "halo buffer index");
    check_buffer_index(halo_index + 1, "halo buffer index");
    op.halo = halo;
    op.halo_index = halo_index;
    return;
  }
  throw Error(std::string(iface_) + ": no partitioned container at buffer " +
              std::to_string(index) + " for a halo");
}

void Call::add_raw_split(int index, const char* name, const void* ptr, std::size_t rows,
                         std::size_t row_width, std::size_t elem_size,
                         std::vector<std::size_t> sizes) {
  Operand& op = add(index, OperandKind::RawSplit, name);
  op.offsets = offsets_of(sizes);
  op.sizes = std::move(sizes);
  op.raw = ptr;
  op.extent = rows;
  op.row_width = row_width;
  op.elem_size = elem_size;
}

void Call::add_raw_vector_split(int index, const char* name, const void* ptr, std::size_t count,
                                std::size_t elem_size, std::vector<std::size_t> sizes) {
  extent(iface_, index, "elements", count);
  raw_memory(index, ptr, count * elem_size);
  add_raw_split(index, name, ptr, count, 0, elem_size, std::move(sizes));
}

void Call::add_raw_matrix_split(int index, const char* name, const void* ptr, std::size_t rows,
                                std::size_t row_width, std::size_t elem_size,
                                std::vector<std::size_t> sizes) {
  extent(iface_, index, "elements per row", row_width);
  extent(iface_, index, "rows", rows);
  raw_memory(index, ptr, rows * row_width * elem_size);
  add_raw_split(index, name, ptr, rows, row_width, elem_size, std::move(sizes));
}

// A split raw operand's blocks, once its sizes are final (blocks that fit, `?`): the
// registration cache's, split by a partition plan kept across calls; or, when the cache
// cannot serve it now or under the distributed layer (whose ranks register raw memory per
// call), registered, planned and partitioned for this call.
void Call::resolve_raw_split(Operand& op) {
  const RawLayout layout{op.extent, op.row_width, op.elem_size};
  const std::vector<std::size_t> sizes(op.sizes.begin(), op.sizes.end());
  std::vector<starpu_data_handle_t> blocks;
  Distributed* layer = distributed();
  if (layer == nullptr) op.handle = raw_cache_acquire_blocks(op.raw, layout, sizes, blocks);
  op.cached = op.handle != nullptr;
  if (!op.cached) {
    op.handle = register_raw(op.raw, layout);
    blocks = plan_raw_split(op.handle, layout, sizes);
    if (layer != nullptr) layer->raw_registered(op.handle, blocks);
    partition_raw(op.handle, blocks);
  }
  op.blocks = blocks;
}

// ---- blocks --------------------------------------------------------------------------------

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
  codelet_set_ = true;
  const std::vector<int> capable = capable_workers(codelet);
  if (!fits_somewhere(codelet)) fit_error(capable, fit_need_);  // none holds the blocks
  for (int& w : workers_)
    if (std::find(capable.begin(), capable.end(), w) == capable.end()) w = -1;
}

}  // namespace peppher::detail
