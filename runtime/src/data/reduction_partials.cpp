// Reduction partials: the small variables of a Scalar that the blocks of a partitioned call
// reduce into, one per block, registered once per block count (detail::Call::add_reduction).
#include <vector>

#include "data/storage_parts.h"
#include "peppher/detail/distributed.h"

namespace peppher::detail {

std::vector<starpu_data_handle_t> Storage::reduction_partials_locked(std::size_t count) {
  for (const auto& p : partials_)
    if (p.size() == count) return p;
  std::vector<starpu_data_handle_t> partials(count, nullptr);
  for (starpu_data_handle_t& h : partials)
    starpu_variable_data_register(&h, -1, 0, shape_.elem_size);
  // Distributed: tagged in the same order on every rank, owned like the blocks of a plan.
  if (Distributed* layer = distributed()) layer->blocks_planned(handle_, partials);
  partials_.push_back(partials);
  return partials;
}

}  // namespace peppher::detail
