// bfs_expand, CUDA variant: one thread per node, as Rodinia's first kernel. Compiled, not run
// (no GPU here).
#include <peppher/cuda.h>

#include "../bfs_components.h"

namespace {

__global__ void kernel(const int* row_start, const int* edges, int* frontier, const int* visited,
                       int* cost, int* updating, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !frontier[v]) return;
  frontier[v] = 0;
  for (int j = row_start[v]; j < row_start[v + 1]; ++j)
    if (!visited[edges[j]]) {
      cost[edges[j]] = cost[v] + 1;
      updating[edges[j]] = 1;
    }
}

}  // namespace

void bfs_expand_cuda(const peppher::Vector<int>& row_start, const peppher::Vector<int>& edges,
                     peppher::Vector<int>& frontier, const peppher::Vector<int>& visited,
                     peppher::Vector<int>& cost, peppher::Vector<int>& updating) {
  const int n = static_cast<int>(frontier.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(row_start.data(), edges.data(),
                                                               frontier.data(), visited.data(),
                                                               cost.data(), updating.data(), n);
  peppher::cuda::finish("bfs_expand_cuda");
}
