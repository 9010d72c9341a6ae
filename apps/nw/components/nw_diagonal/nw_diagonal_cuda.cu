// nw_diagonal, CUDA variant (skeleton from compose -generateCompFiles, filled in): one block of
// 16 threads per matrix block on the anti-diagonal, a shared-memory wavefront as in Rodinia;
// compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../nw_diagonal.h"

namespace {
constexpr int B = 16;

__global__ void nw_kernel(int* score, int lds, const int* ref, int ldr, int first, int diag,
                          int penalty) {
  __shared__ int t[B + 1][B + 1];
  __shared__ int sim[B][B];
  const int tx = threadIdx.x, b = blockIdx.x;
  const int row0 = (first + b) * B, col0 = (diag - first - b) * B;
  t[0][tx + 1] = score[row0 * lds + col0 + 1 + tx];
  t[tx + 1][0] = score[(row0 + 1 + tx) * lds + col0];
  if (tx == 0) t[0][0] = score[row0 * lds + col0];
  for (int y = 0; y < B; ++y) sim[y][tx] = ref[(row0 + 1 + y) * ldr + col0 + 1 + tx];
  __syncthreads();
  for (int w = 0; w < 2 * B - 1; ++w) {
    const int x = tx + 1, y = w - tx + 1;
    if (y >= 1 && y <= B) {
      const int d = t[y - 1][x - 1] + sim[y - 1][x - 1];
      t[y][x] = max(d, max(t[y][x - 1] - penalty, t[y - 1][x] - penalty));
    }
    __syncthreads();
  }
  for (int y = 0; y < B; ++y) score[(row0 + 1 + y) * lds + col0 + 1 + tx] = t[y + 1][tx + 1];
}
}  // namespace

void nw_diagonal_cuda(peppher::Matrix<int>& score, const peppher::Matrix<int>& ref, int diag,
                      int penalty) {
  const int nblocks = static_cast<int>(score.rows() - 1) / B;
  const int first = diag - nblocks + 1 > 0 ? diag - nblocks + 1 : 0;
  const int count = (diag < nblocks - 1 ? diag : nblocks - 1) - first + 1;
  if (count <= 0) return;
  nw_kernel<<<count, B, 0, peppher::cuda::stream()>>>(score.data(), static_cast<int>(score.ld()),
                                                      ref.data(), static_cast<int>(ref.ld()), first,
                                                      diag, penalty);
  peppher::cuda::finish("nw_diagonal_cuda");
}
