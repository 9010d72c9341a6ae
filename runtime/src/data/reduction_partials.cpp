// Reduction partials: the private copies of a Scalar, Vector or Matrix that the blocks of a
// partitioned call reduce into, one per block, each of the container's shape (a Matrix's
// packed), registered once per block count (detail::Call::add_reduction).
#include <vector>

#include "data/storage_parts.h"
#include "peppher/detail/distributed.h"

namespace peppher::detail {

std::vector<starpu_data_handle_t> Storage::reduction_partials_locked(std::size_t count) {
  for (const auto& p : partials_)
    if (p.size() == count) return p;
  std::vector<starpu_data_handle_t> partials(count, nullptr);
  const auto nx = to_u32(shape_.nx, "container size");
  const auto ny = to_u32(shape_.ny, "matrix rows");
  for (starpu_data_handle_t& h : partials) {
    switch (shape_.layout) {
      case Layout::Vector:
        starpu_vector_data_register(&h, -1, 0, nx, shape_.elem_size);
        break;
      case Layout::Matrix:
        starpu_matrix_data_register(&h, -1, 0, nx, nx, ny, shape_.elem_size);
        break;
      case Layout::Variable:
        starpu_variable_data_register(&h, -1, 0, shape_.elem_size);
        break;
    }
  }
  // Distributed: tagged in the same order on every rank, owned like the blocks of a plan.
  if (Distributed* layer = distributed()) layer->blocks_planned(handle_, partials);
  partials_.push_back(partials);
  return partials;
}

}  // namespace peppher::detail
