// atax on a CUDA device: two kernels on the worker's stream, as PolyBench-ACC's CUDA
// version launches them; the variant returns once both ran.
#include <peppher/cuda.h>

namespace {

__global__ void atax_rows(const float* A, const float* x, float* tmp, int nx, int ny) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
  }
}

__global__ void atax_cols(const float* A, float* y, const float* tmp, int nx, int ny) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    for (int i = 0; i < nx; i++) y[j] += A[i * ny + j] * tmp[i];
  }
}

}  // namespace

void atax_cuda(const float* A, const float* x, float* y, float* tmp, int nx, int ny) {
  const int threads = 256;
  cudaStream_t stream = peppher::cuda::stream();
  atax_rows<<<(nx + threads - 1) / threads, threads, 0, stream>>>(A, x, tmp, nx, ny);
  // Same stream: runs after atax_rows, reading the tmp it wrote.
  atax_cols<<<(ny + threads - 1) / threads, threads, 0, stream>>>(A, y, tmp, nx, ny);
  peppher::cuda::finish("atax_cuda");
}
