// bench/gpu: cuBLAS called directly, the baseline of sgemm_cublas (RESULT sgemm_cublas_vs_direct):
// C = A * B on n x n floats already on the GPU, `calls` cublasSgemm back to back then one
// synchronisation, 5 rounds, the median round's time per call; the same operands and sizes as
// bench_gpu cublas. Built by tools/gpu-bundle with nvcc; no StarPU.
//   cublas_direct [n=4096] [calls=10]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  std::fprintf(stderr, "cublas_direct: %s: %s\n", what, cudaGetErrorString(err));
  std::exit(1);
}

void check(cublasStatus_t status, const char* what) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "cublas_direct: %s: cuBLAS status %d\n", what, static_cast<int>(status));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 10;
  const size_t elems = static_cast<size_t>(n) * n;
  std::vector<float> a(elems, 1.0f), b(elems, 0.5f), c(elems, 0.0f);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  check(cudaMalloc(&da, elems * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&db, elems * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&dc, elems * sizeof(float)), "cudaMalloc");
  check(cudaMemcpy(da, a.data(), elems * sizeof(float), cudaMemcpyHostToDevice), "copy A");
  check(cudaMemcpy(db, b.data(), elems * sizeof(float), cudaMemcpyHostToDevice), "copy B");
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  const float one = 1.0f, zero = 0.0f;
  auto gemm = [&] {
    // Row-major C = A * B is column-major C^T = B^T * A^T: the operands swapped.
    check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db, n, da, n, &zero, dc, n),
          "cublasSgemm");
  };
  gemm();  // warm-up
  check(cudaDeviceSynchronize(), "synchronize");
  std::vector<double> per_call;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) gemm();
    check(cudaDeviceSynchronize(), "synchronize");
    per_call.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls);
  }
  check(cudaMemcpy(c.data(), dc, sizeof(float), cudaMemcpyDeviceToHost), "copy C");
  std::sort(per_call.begin(), per_call.end());
  const double t = per_call[per_call.size() / 2];
  const bool ok = c[0] == 0.5f * static_cast<float>(n);
  std::printf("TIME cublas_direct n=%d %.6f s/call (%.1f GFLOP/s)%s\n", n, t,
              2.0 * n * static_cast<double>(n) * n / t * 1e-9, ok ? "" : " WRONG");
  cublasDestroy(handle);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return ok ? 0 : 1;
}
