// Raw-pointer splits as partition plans (issue 43): a raw array registered in main memory,
// its blocks planned with starpu_data_partition_plan and partitioned and gathered with
// StarPU's asynchronous partitioning, as containers' are (data/partition_plans.cpp).
// Before, each call split its raw arrays with StarPU's synchronous starpu_data_partition
// and gathered them with starpu_data_unpartition: under dm/dmda with pocl's memory limited
// (STARPU_LIMIT_OPENCL_MEM=1) about one run in two stalled for ever, the caller inside
// starpu_data_unpartition waiting for a block whose task sat ready in the device's queue,
// the device's memory full (48 KB of 1 MiB free), both workers idle.
#include <cstdint>
#include <vector>

#include "data/storage_parts.h"
#include "peppher/detail/raw_cache.h"

namespace peppher::detail {

starpu_data_handle_t register_raw(const void* ptr, const RawLayout& layout) {
  starpu_data_handle_t h = nullptr;
  const auto home = reinterpret_cast<uintptr_t>(ptr);
  const std::uint32_t rows = to_u32(layout.rows, "raw array rows");
  if (layout.row_width == 0) {
    starpu_vector_data_register(&h, STARPU_MAIN_RAM, home, rows, layout.elem_size);
  } else {
    const std::uint32_t width = to_u32(layout.row_width, "raw array row width");
    starpu_matrix_data_register(&h, STARPU_MAIN_RAM, home, width, width, rows, layout.elem_size);
  }
  return h;
}

std::vector<starpu_data_handle_t> plan_raw_split(starpu_data_handle_t whole,
                                                 const RawLayout& layout,
                                                 const std::vector<std::size_t>& sizes) {
  // The list filters read their argument while the plan is made only.
  std::vector<std::uint32_t> list;
  list.reserve(sizes.size());
  for (std::size_t s : sizes) list.push_back(to_u32(s, "block size"));
  starpu_data_filter f{};
  f.filter_func = layout.row_width == 0 ? starpu_vector_filter_list : matrix_filter_row_list;
  f.nchildren = static_cast<unsigned>(list.size());
  f.filter_arg_ptr = list.data();
  std::vector<starpu_data_handle_t> blocks(list.size(), nullptr);
  starpu_data_partition_plan(whole, &f, blocks.data());
  return blocks;
}

void partition_raw(starpu_data_handle_t whole, std::vector<starpu_data_handle_t>& blocks) {
  count_raw_partition();
  starpu_data_partition_submit(whole, static_cast<unsigned>(blocks.size()), blocks.data());
}

void gather_raw(starpu_data_handle_t whole, std::vector<starpu_data_handle_t>& blocks) noexcept {
  count_raw_gather();
  starpu_data_unpartition_submit(whole, static_cast<unsigned>(blocks.size()), blocks.data(),
                                 STARPU_MAIN_RAM);
}

void end_raw_split_for_call(starpu_data_handle_t whole,
                            std::vector<starpu_data_handle_t>& blocks) noexcept {
  // The whole acquired, not each block: StarPU 1.4.7 aborts (_starpu_select_src_node) when
  // blocks a device used are acquired under memory pressure with dm/dmda's prefetches. The
  // plan is cleaned only then: StarPU's clean holds a lock while it waits for the blocks.
  gather_raw(whole, blocks);
  if (starpu_data_acquire(whole, STARPU_RW) == 0) starpu_data_release(whole);
  clean_raw_split(whole, blocks, false);
}

void clean_raw_split(starpu_data_handle_t whole, std::vector<starpu_data_handle_t>& blocks,
                     bool partitioned) noexcept {
  if (partitioned) gather_raw(whole, blocks);
  // Not partitioned now: starpu_data_partition_clean only unregisters the blocks.
  starpu_data_partition_clean(whole, static_cast<unsigned>(blocks.size()), blocks.data());
}

}  // namespace peppher::detail
