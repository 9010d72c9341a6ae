// BFS written directly against StarPU, the way an expert would: two codelets over the same
// variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA), the graph and the node arrays
// registered once, two tasks per level and a wait for the `changed` flag.
//   ./bfs_direct [nodes] [edges]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include "../../common/direct.h"
#include "../bfs_common.h"

using Vec = peppher::Vector<int>;
#define DECLARE_VARIANTS(name, ...) \
  void name##_cpu(__VA_ARGS__);     \
  void name##_openmp(__VA_ARGS__);  \
  void name##_cuda(__VA_ARGS__);
DECLARE_VARIANTS(bfs_expand, const Vec&, const Vec&, Vec&, const Vec&, Vec&, Vec&)
DECLARE_VARIANTS(bfs_update, Vec&, Vec&, Vec&, peppher::Scalar<int>&)

namespace {

starpu_opencl_program programs[2];

constexpr auto vec = direct::vector_view<int>;
using direct::len;
using direct::mem;

template <auto variant>
void expand_host(void* b[], void*) {
  Vec start = vec(b[0]), edges = vec(b[1]), frontier = vec(b[2]), visited = vec(b[3]),
      cost = vec(b[4]), updating = vec(b[5]);
  variant(start, edges, frontier, visited, cost, updating);
}
template <auto variant>
void update_host(void* b[], void*) {
  Vec frontier = vec(b[0]), visited = vec(b[1]), updating = vec(b[2]);
  auto changed = peppher::Scalar<int>::view(reinterpret_cast<int*>(STARPU_VARIABLE_GET_PTR(b[3])));
  variant(frontier, visited, updating, changed);
}
// OpenCL: each vector as its buffer and its length, one work-item per node.
void expand_cl(void* b[], void*) {
  direct::launch(&programs[0], "bfs_expand_opencl", len(b[2]), 0, mem(b[0]), len(b[0]), mem(b[1]),
                 len(b[1]), mem(b[2]), len(b[2]), mem(b[3]), len(b[3]), mem(b[4]), len(b[4]),
                 mem(b[5]), len(b[5]));
}
void update_cl(void* b[], void*) {
  direct::launch(&programs[1], "bfs_update_opencl", len(b[0]), 0, mem(b[0]), len(b[0]), mem(b[1]),
                 len(b[1]), mem(b[2]), len(b[2]),
                 reinterpret_cast<cl_mem>(STARPU_VARIABLE_GET_DEV_HANDLE(b[3])));
}

starpu_codelet expand_codelet = DIRECT_CODELET(expand_host, bfs_expand, expand_cl, STARPU_R,
                                               STARPU_R, STARPU_RW, STARPU_R, STARPU_RW, STARPU_RW);
starpu_codelet update_codelet =
    DIRECT_CODELET(update_host, bfs_update, update_cl, STARPU_RW, STARPU_RW, STARPU_RW, STARPU_RW);

}  // namespace

int main(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 100000, bfs::kUsage);
  const int max_degree = app::arg(argc, argv, 2, 6, bfs::kUsage);
  const bfs::Graph g = bfs::generate(n, max_degree);

  direct::start();
  const double t0 = app::now();
  direct::load_program(&programs[0], KERNEL_DIR "/bfs_expand/bfs_expand_opencl.cl");
  direct::load_program(&programs[1], KERNEL_DIR "/bfs_update/bfs_update_opencl.cl");
  const std::vector<int> zeros(n, 0);
  const std::vector<int>* init[6] = {&g.row_start, &g.edges, &g.frontier,
                                     &g.visited,   &g.cost,  &zeros};
  int* data[6];
  starpu_data_handle_t h[6];
  for (int i = 0; i < 6; ++i) {
    starpu_malloc(reinterpret_cast<void**>(&data[i]), init[i]->size() * sizeof(int));
    std::copy(init[i]->begin(), init[i]->end(), data[i]);
    starpu_vector_data_register(&h[i], STARPU_MAIN_RAM, uintptr_t(data[i]), init[i]->size(),
                                sizeof(int));
  }
  int changed = 0;
  starpu_data_handle_t h_changed;
  starpu_variable_data_register(&h_changed, STARPU_MAIN_RAM, uintptr_t(&changed), sizeof(int));
  int levels = 0;
  do {
    starpu_data_acquire(h_changed, STARPU_W);  // waits for the previous level's update
    changed = 0;
    starpu_data_release(h_changed);
    int ret = starpu_task_insert(&expand_codelet, STARPU_R, h[0], STARPU_R, h[1], STARPU_RW, h[2],
                                 STARPU_R, h[3], STARPU_RW, h[4], STARPU_RW, h[5], 0);
    STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
    ret = starpu_task_insert(&update_codelet, STARPU_RW, h[2], STARPU_RW, h[3], STARPU_RW, h[5],
                             STARPU_RW, h_changed, 0);
    STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
    ++levels;
    starpu_data_acquire(h_changed, STARPU_R);
    starpu_data_release(h_changed);
  } while (changed != 0);
  for (int i = 0; i < 6; ++i) starpu_data_unregister(h[i]);  // brings the data home
  starpu_data_unregister(h_changed);
  const double seconds = app::now() - t0;
  const std::uint64_t sum = app::checksum(data[4], static_cast<std::size_t>(n));
  const long wrong = bfs::count_wrong(data[4], bfs::reference(g));
  for (int i = 0; i < 6; ++i)
    peppher::detail::starpu_free_sized(data[i], init[i]->size() * sizeof(int));
  direct::unload_program(&programs[0]);
  direct::unload_program(&programs[1]);
  starpu_shutdown();
  char what[80];
  std::snprintf(what, sizeof what, "%d nodes, %zu edges, %d levels", n, g.edges.size(), levels);
  return app::verdict("bfs", what, wrong, sum, seconds);
}
