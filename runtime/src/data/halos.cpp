// Halo pieces: per block of a partition plan, its first and last rows (elements) as small
// data of their own, which the neighbouring blocks' tasks read (detail::Call::set_halo).
#include <string>
#include <utility>
#include <vector>

#include "data/storage_parts.h"
#include "peppher/detail/distributed.h"
#include "peppher/error.h"

namespace peppher::detail {

void Storage::halo_pieces_locked(const PartitionSpec& spec, std::size_t halo,
                                 std::vector<starpu_data_handle_t>& first,
                                 std::vector<starpu_data_handle_t>& last) {
  if (active_plan_ < 0 || !(plans_[active_plan_]->spec == spec))
    throw Error("halo: the container is not partitioned as the call asks");
  PartitionPlan& plan = *plans_[active_plan_];
  for (const auto& h : plan.halos) {
    if (h.halo != halo) continue;
    first = h.first;
    last = h.last;
    return;
  }
  const bool matrix = shape_.layout == Layout::Matrix;
  const std::size_t n = plan.leaves.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t size =
        matrix ? starpu_matrix_get_ny(plan.leaves[k]) : starpu_vector_get_nx(plan.leaves[k]);
    if (size < halo && n > 1)
      throw Error("halo: block " + std::to_string(k) + " has " + std::to_string(size) +
                  (matrix ? " rows" : " elements") + ", fewer than its halo of " +
                  std::to_string(halo) + "; use larger blocks or a smaller halo");
  }
  PartitionPlan::HaloPieces pieces;
  pieces.halo = halo;
  pieces.first.assign(n, nullptr);
  pieces.last.assign(n, nullptr);
  auto make = [&](starpu_data_handle_t& h) {
    // Home -1: StarPU allocates each piece where a task or a transfer needs it.
    if (matrix)
      starpu_matrix_data_register(&h, -1, 0, to_u32(shape_.nx, "columns"),
                                  to_u32(shape_.nx, "columns"), to_u32(halo, "halo"),
                                  shape_.elem_size);
    else
      starpu_vector_data_register(&h, -1, 0, to_u32(halo, "halo"), shape_.elem_size);
  };
  for (std::size_t k = 0; k < n && halo > 0; ++k) {
    std::vector<starpu_data_handle_t> mine;
    if (k > 0) {
      make(pieces.first[k]);
      mine.push_back(pieces.first[k]);
    }
    if (k + 1 < n) {
      make(pieces.last[k]);
      mine.push_back(pieces.last[k]);
    }
    // Distributed: the pieces live with their block (same owner), tagged in the same order
    // on every rank.
    if (Distributed* layer = distributed()) layer->halo_registered(plan.leaves[k], mine);
  }
  first = pieces.first;
  last = pieces.last;
  plan.halos.push_back(std::move(pieces));
}

}  // namespace peppher::detail
