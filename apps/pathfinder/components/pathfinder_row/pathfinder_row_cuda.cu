// pathfinder_row, CUDA variant (skeleton from compose -generateCompFiles, filled in): one thread
// per column on this worker's stream; compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../pathfinder_row.h"

__global__ void pathfinder_row_cuda_kernel(const int* w, const int* s, int* d, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  int best = s[c];
  if (c > 0 && s[c - 1] < best) best = s[c - 1];
  if (c + 1 < cols && s[c + 1] < best) best = s[c + 1];
  d[c] = w[c] + best;
}

void pathfinder_row_cuda(const peppher::Matrix<int>& wall, const peppher::Vector<int>& src,
                         peppher::Vector<int>& dst, int row) {
  const int cols = static_cast<int>(dst.size());
  if (cols <= 0) return;
  pathfinder_row_cuda_kernel<<<(cols + 255) / 256, 256, 0, peppher::cuda::stream()>>>(
      wall.data() + static_cast<std::size_t>(row) * wall.ld(), src.data(), dst.data(), cols);
  peppher::cuda::finish("pathfinder_row_cuda");
}
