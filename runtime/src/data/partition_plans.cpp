// Partition plans: how a container is split into blocks (StarPU filters, planned once per
// split and reused), partitioning and gathering (unpartitioning) it asynchronously, and the
// counts of both, for containers and raw arrays (partition_counts()).
#include <atomic>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "data/storage_parts.h"
#include "peppher/detail/distributed.h"
#include "peppher/error.h"
#include "peppher/partition.h"

namespace peppher::detail {
namespace {

// partition_counts(): every container's partitions and gathers.
std::atomic<std::uint64_t> g_partitions{0};
std::atomic<std::uint64_t> g_gathers{0};
// The same for raw arrays split by calls (data/raw_plans.cpp).
std::atomic<std::uint64_t> g_raw_partitions{0};
std::atomic<std::uint64_t> g_raw_gathers{0};

starpu_data_filter make_filter(void (*func)(void*, void*, starpu_data_filter*, unsigned, unsigned),
                               std::size_t nparts, void* arg = nullptr) {
  starpu_data_filter f;
  std::memset(&f, 0, sizeof f);
  f.filter_func = func;
  f.nchildren = static_cast<unsigned>(nparts);
  f.filter_arg_ptr = arg;
  return f;
}

void check_parts(std::size_t nparts, std::size_t n, const char* what) {
  if (nparts == 0 || nparts > n)
    throw Error(std::string(what) + ": cannot split " + std::to_string(n) + " into " +
                std::to_string(nparts) + " non-empty blocks");
}

}  // namespace

void count_partition() noexcept {
  g_partitions.fetch_add(1, std::memory_order_relaxed);
}

void count_raw_partition() noexcept {
  g_raw_partitions.fetch_add(1, std::memory_order_relaxed);
}

void count_raw_gather() noexcept {
  g_raw_gathers.fetch_add(1, std::memory_order_relaxed);
}

// The block sizes of a 1-D split @p spec of a container of shape @p shape (empty for 2-D).
std::vector<std::size_t> sizes_of(const PartitionSpec& spec, const Shape& shape) {
  using Kind = PartitionSpec::Kind;
  switch (spec.kind) {
    case Kind::VectorSizes:
    case Kind::MatrixRowSizes:
      return spec.args;
    case Kind::VectorBlocks:
    case Kind::MatrixRows: {
      const std::size_t n = spec.kind == Kind::MatrixRows ? shape.ny : shape.nx;
      std::vector<std::size_t> sizes;
      for (std::size_t b = 0; b < spec.args.at(0); ++b)
        sizes.push_back(block_range(n, spec.args[0], b).size);
      return sizes;
    }
    case Kind::Matrix2d:
    case Kind::MatrixCols:
      break;
  }
  return {};
}

// Throws peppher::Error unless @p spec can split a container of shape @p shape: the kind
// fits the container, and every block is non-empty (the sizes of a list add up to it).
void check_spec(const PartitionSpec& spec, const Shape& shape) {
  using Kind = PartitionSpec::Kind;
  const bool vector_kind = spec.kind == Kind::VectorBlocks || spec.kind == Kind::VectorSizes;
  if (vector_kind != (shape.layout == Layout::Vector) ||
      !vector_kind != (shape.layout == Layout::Matrix))
    throw Error("partition: kind does not match the container");
  switch (spec.kind) {
    case Kind::VectorBlocks:
      check_parts(spec.args.at(0), shape.nx, "partition_blocks");
      return;
    case Kind::VectorSizes:
    case Kind::MatrixRowSizes: {
      const bool rows = spec.kind == Kind::MatrixRowSizes;
      const std::size_t extent = rows ? shape.ny : shape.nx;
      std::size_t sum = 0;
      for (std::size_t size : spec.args) {
        if (size == 0) throw Error("partition_sizes: a block size is 0");
        sum += size;
      }
      if (spec.args.empty() || sum != extent)
        throw Error(std::string(rows ? "partition_row_sizes" : "partition_sizes") +
                    ": block sizes sum to " + std::to_string(sum) + ", the " +
                    (rows ? "matrix has " : "vector has ") + std::to_string(extent) +
                    (rows ? " rows" : " elements"));
      return;
    }
    case Kind::MatrixCols:
      check_parts(spec.args.at(0), shape.nx, "partition columns");
      return;
    case Kind::MatrixRows:
    case Kind::Matrix2d:
      check_parts(spec.args.at(0), shape.ny, "partition rows");
      if (spec.kind == Kind::Matrix2d) check_parts(spec.args.at(1), shape.nx, "partition columns");
      return;
  }
}

// Where each block of @p spec lies in a container of shape @p shape (the order of the
// plan's leaves: 2-D blocks row-major, as block_range() and StarPU's block filters cut).
std::vector<PartitionPlan::Extent> extents_of(const PartitionSpec& spec, const Shape& shape) {
  std::vector<PartitionPlan::Extent> out;
  if (spec.kind == PartitionSpec::Kind::Matrix2d) {
    for (std::size_t bi = 0; bi < spec.args.at(0); ++bi)
      for (std::size_t bj = 0; bj < spec.args.at(1); ++bj) {
        const BlockRange r = block_range(shape.ny, spec.args[0], bi);
        const BlockRange c = block_range(shape.nx, spec.args[1], bj);
        out.push_back({r.offset, r.size, c.offset, c.size});
      }
    return out;
  }
  if (spec.kind == PartitionSpec::Kind::MatrixCols) {  // column blocks, every row each
    for (std::size_t bj = 0; bj < spec.args.at(0); ++bj) {
      const BlockRange c = block_range(shape.nx, spec.args[0], bj);
      out.push_back({0, shape.ny, c.offset, c.size});
    }
    return out;
  }
  const bool rows = shape.layout == Layout::Matrix;
  std::size_t first = 0;
  for (std::size_t size : sizes_of(spec, shape)) {
    if (rows)
      out.push_back({first, size, 0, shape.nx});
    else
      out.push_back({0, 1, first, size});
    first += size;
  }
  return out;
}

// StarPU 1.3 has a list filter for vectors only: this is its matrix twin, consecutive row
// blocks of the sizes in filter_arg_ptr (uint32_t[nchildren]), as
// starpu_matrix_filter_vertical_block lays out children.
void matrix_filter_row_list(void* father, void* child, starpu_data_filter* f, unsigned id,
                            unsigned) {
  auto* parent = static_cast<starpu_matrix_interface*>(father);
  auto* block = static_cast<starpu_matrix_interface*>(child);
  const auto* sizes = static_cast<const std::uint32_t*>(f->filter_arg_ptr);
  std::size_t first = 0;
  for (unsigned i = 0; i < id; ++i) first += sizes[i];
  const std::size_t offset = first * parent->ld * parent->elemsize;
  block->id = parent->id;
  block->nx = parent->nx;
  block->ny = sizes[id];
  block->elemsize = parent->elemsize;
  block->allocsize = static_cast<std::size_t>(parent->nx) * sizes[id] * parent->elemsize;
  if (parent->dev_handle) {
    if (parent->ptr) block->ptr = parent->ptr + offset;
    block->ld = parent->ld;
    block->dev_handle = parent->dev_handle;
    block->offset = parent->offset + offset;
  }
}

std::vector<starpu_data_handle_t> Storage::all_blocks() const {
  std::vector<starpu_data_handle_t> blocks;
  for (const auto& plan : plans_) {
    blocks.insert(blocks.end(), plan->top.begin(), plan->top.end());
    for (const auto& row : plan->sub) blocks.insert(blocks.end(), row.begin(), row.end());
  }
  return blocks;
}

std::vector<starpu_data_handle_t> Storage::partition(const PartitionSpec& spec) {
  std::lock_guard<std::mutex> lock(mutex_);
  return partition_locked(spec);
}

std::vector<starpu_data_handle_t> Storage::partition_locked(const PartitionSpec& spec,
                                                            bool overwritten) {
  check_task_use("partition");
  end_host_phase();
  if (distributed_) {
    if (active_plan_ < 0) plan_distributed_locked(spec);
    if (plans_[active_plan_]->spec == spec) {
      phase_ = HostPhase::None;
      return plans_[active_plan_]->leaves;
    }
    synchronise(SyncPoint::Gather);
    materialise_locked();  // another split: from the whole, as for any container
  }
  drop_independent_locked();
  if (handle_ == nullptr) register_handle();
  phase_ = HostPhase::None;
  if (active_plan_ >= 0 && plans_[active_plan_]->spec == spec) return plans_[active_plan_]->leaves;
  unpartition_active();

  int found = -1;
  for (std::size_t i = 0; i < plans_.size(); ++i)
    if (plans_[i]->spec == spec) found = static_cast<int>(i);
  if (found < 0) {
    auto plan = std::make_unique<PartitionPlan>();
    plan->spec = spec;
    using Kind = PartitionSpec::Kind;
    check_spec(spec, shape_);
    if (spec.kind == Kind::VectorBlocks) {
      plan->top.resize(spec.args[0]);
      auto f = make_filter(starpu_vector_filter_block, spec.args[0]);
      starpu_data_partition_plan(handle_, &f, plan->top.data());
    } else if (spec.kind == Kind::VectorSizes || spec.kind == Kind::MatrixRowSizes) {
      const bool rows = spec.kind == Kind::MatrixRowSizes;
      for (std::size_t size : spec.args) plan->sizes.push_back(to_u32(size, "block size"));
      plan->top.resize(spec.args.size());
      auto f = make_filter(rows ? matrix_filter_row_list : starpu_vector_filter_list,
                           spec.args.size(), plan->sizes.data());
      starpu_data_partition_plan(handle_, &f, plan->top.data());
    } else if (spec.kind == Kind::MatrixCols) {
      // StarPU's matrix x dimension is the row-major matrix's columns: the (horizontal)
      // block filter cuts them into column blocks of every row, block_range's sizes.
      plan->top.resize(spec.args[0]);
      auto f = make_filter(starpu_matrix_filter_block, spec.args[0]);
      starpu_data_partition_plan(handle_, &f, plan->top.data());
    } else {
      plan->top.resize(spec.args[0]);
      auto f = make_filter(starpu_matrix_filter_vertical_block, spec.args[0]);
      starpu_data_partition_plan(handle_, &f, plan->top.data());
      if (spec.kind == Kind::Matrix2d) {
        plan->sub.resize(plan->top.size());
        for (std::size_t i = 0; i < plan->top.size(); ++i) {
          plan->sub[i].resize(spec.args[1]);
          auto g = make_filter(starpu_matrix_filter_block, spec.args[1]);
          starpu_data_partition_plan(plan->top[i], &g, plan->sub[i].data());
        }
      }
    }
    plan->extents = extents_of(spec, shape_);
    if (plan->sub.empty())
      plan->leaves = plan->top;
    else
      for (const auto& row : plan->sub)
        plan->leaves.insert(plan->leaves.end(), row.begin(), row.end());
    assert(plan->extents.size() == plan->leaves.size());  // element reads find blocks by them
    // Distributed: the leaves (what tasks use) get their owner ranks; a 2-D plan's row
    // bands stay local intermediates.
    if (Distributed* layer = distributed()) layer->blocks_planned(handle_, plan->leaves);
    plans_.push_back(std::move(plan));
    found = static_cast<int>(plans_.size() - 1);
  }
  PartitionPlan& plan = *plans_[found];
  g_partitions.fetch_add(1, std::memory_order_relaxed);
  starpu_data_partition_submit(handle_, static_cast<unsigned>(plan.top.size()), plan.top.data());
  for (std::size_t i = 0; i < plan.sub.size(); ++i)
    starpu_data_partition_submit(plan.top[i], static_cast<unsigned>(plan.sub[i].size()),
                                 plan.sub[i].data());
  active_plan_ = found;
  if (Distributed* layer = distributed()) layer->partitioned(handle_, plan.leaves, overwritten);
  return plan.leaves;
}

void Storage::unpartition_active(bool gather) noexcept {
  if (active_plan_ < 0 || plans_[active_plan_]->independent) return;
  g_gathers.fetch_add(1, std::memory_order_relaxed);
  PartitionPlan& plan = *plans_[active_plan_];
  // Distributed: every rank's whole copy is rebuilt from the blocks' owners (unless the
  // data is being dropped).
  if (Distributed* layer = distributed(); layer != nullptr && gather)
    layer->gathering(handle_, plan.leaves);
  for (std::size_t i = 0; i < plan.sub.size(); ++i)
    starpu_data_unpartition_submit(plan.top[i], static_cast<unsigned>(plan.sub[i].size()),
                                   plan.sub[i].data(), STARPU_MAIN_RAM);
  starpu_data_unpartition_submit(handle_, static_cast<unsigned>(plan.top.size()), plan.top.data(),
                                 STARPU_MAIN_RAM);
  placement_ = kHome;  // gathered at home
  active_plan_ = -1;
}

}  // namespace peppher::detail

namespace peppher {

PartitionCounts partition_counts() noexcept {
  PartitionCounts c;
  c.partitions = detail::g_partitions.load(std::memory_order_relaxed);
  c.gathers = detail::g_gathers.load(std::memory_order_relaxed);
  c.raw_partitions = detail::g_raw_partitions.load(std::memory_order_relaxed);
  c.raw_gathers = detail::g_raw_gathers.load(std::memory_order_relaxed);
  return c;
}

}  // namespace peppher
