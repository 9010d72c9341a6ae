// sgemm_tiles, CUDA variant: one tile of C = A * B (A's row block, B's column block), the
// shared-memory kernel of components/sgemm/sgemm_cuda.cu on this worker's stream; the Matrix
// views' data() are device pointers inside the variant.
#include <peppher/cuda.h>
#include <peppher/runtime.h>

namespace {

constexpr int kTile = 16;

// One block computes one kTile x kTile tile of C; threads outside C only help load tiles.
__global__ void sgemm_kernel(const float* A, int lda, const float* B, int ldb, float* C, int ldc,
                             int m, int n, int k) {
  __shared__ float a_tile[kTile][kTile];
  __shared__ float b_tile[kTile][kTile];
  const int ty = threadIdx.y;
  const int tx = threadIdx.x;
  const int i = blockIdx.y * kTile + ty;
  const int j = blockIdx.x * kTile + tx;
  float sum = 0.0f;
  for (int p0 = 0; p0 < k; p0 += kTile) {
    const int pa = p0 + tx;
    const int pb = p0 + ty;
    a_tile[ty][tx] = (i < m && pa < k) ? A[static_cast<size_t>(i) * lda + pa] : 0.0f;
    b_tile[ty][tx] = (pb < k && j < n) ? B[static_cast<size_t>(pb) * ldb + j] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int q = 0; q < kTile; ++q) sum += a_tile[ty][q] * b_tile[q][tx];
    __syncthreads();
  }
  if (i < m && j < n) C[static_cast<size_t>(i) * ldc + j] = sum;
}

}  // namespace

void sgemm_tiles_cuda(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
                      peppher::Matrix<float>& C, int /*tile*/) {
  const int m = static_cast<int>(C.rows());
  const int n = static_cast<int>(C.cols());
  const int k = static_cast<int>(A.cols());
  // The shapes agree: the descriptor's 'shapes' constraint refuses other calls.
  if (m == 0 || n == 0) return;
  cudaStream_t stream = peppher::cuda::stream();
  const dim3 threads(kTile, kTile);
  const dim3 blocks((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  sgemm_kernel<<<blocks, threads, 0, stream>>>(A.data(), static_cast<int>(A.ld()), B.data(),
                                               static_cast<int>(B.ld()), C.data(),
                                               static_cast<int>(C.ld()), m, n, k);
  peppher::cuda::finish("sgemm_tiles_cuda");
}
