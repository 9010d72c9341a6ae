// pathfinder_row, CUDA variant (skeleton from compose -generateCompFiles, filled in): one thread
// per column on this worker's stream; compiled, not run (no GPU here).
#include <cuda_runtime.h>
#include <starpu.h>

#include <cstdio>
#include <cstdlib>

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
#ifdef STARPU_USE_CUDA
  cudaStream_t stream = starpu_cuda_get_local_stream();
#else
  cudaStream_t stream = 0;
#endif
  pathfinder_row_cuda_kernel<<<(cols + 255) / 256, 256, 0, stream>>>(
      wall.data() + static_cast<std::size_t>(row) * wall.ld(), src.data(), dst.data(), cols);
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "pathfinder_row_cuda: %s\n", cudaGetErrorString(err));
    std::abort();
  }
}
