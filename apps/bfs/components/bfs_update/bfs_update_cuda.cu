// bfs_update, CUDA variant: one thread per node, as Rodinia's second kernel; the Scalar view's
// data is a device pointer. Compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../bfs_components.h"

namespace {

__global__ void kernel(int* frontier, int* visited, int* updating, int* changed, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !updating[v]) return;
  frontier[v] = 1;
  visited[v] = 1;
  updating[v] = 0;
  *changed = 1;
}

}  // namespace

void bfs_update_cuda(peppher::Vector<int>& frontier, peppher::Vector<int>& visited,
                     peppher::Vector<int>& updating, peppher::Scalar<int>& changed) {
  const int n = static_cast<int>(frontier.size());
  if (n == 0) return;
  kernel<<<(n + 255) / 256, 256, 0, peppher::cuda::stream()>>>(
      frontier.data(), visited.data(), updating.data(), changed.host_write(), n);
  peppher::cuda::finish("bfs_update_cuda");
}
