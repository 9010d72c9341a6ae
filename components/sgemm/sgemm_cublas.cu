// sgemm, CUDA variant through cuBLAS: C = A * B with cublasSgemm on the calling worker's cuBLAS
// handle (starpu_cublas_get_local_handle(), bound to the worker's stream by
// starpu_cublas_init(), which peppher::init() calls when StarPU has CUDA workers). cuBLAS is
// column-major: a row-major m x n matrix is its n x m transpose, so C^T = B^T * A^T is one
// cublasSgemm with the operands swapped and no transposition.
// PEPPHER_BACKEND(cuda)
#include <cublas_v2.h>
#include <peppher/cuda.h>
#include <peppher/runtime.h>
#include <starpu_cublas_v2.h>

#include <cstdio>
#include <cstdlib>

void sgemm_cublas(const peppher::Matrix<float>& A, const peppher::Matrix<float>& B,
                  peppher::Matrix<float>& C) {
  const int m = static_cast<int>(C.rows());
  const int n = static_cast<int>(C.cols());
  const int k = static_cast<int>(A.cols());
  // The shapes agree: the descriptor's 'shapes' constraint refuses other calls.
  if (m == 0 || n == 0) return;
#ifdef STARPU_USE_CUDA
  cublasHandle_t handle = starpu_cublas_get_local_handle();
#else
  cublasHandle_t handle = nullptr;  // StarPU without CUDA: compiled for checking, never linked
#endif
  if (handle == nullptr) {
    std::fprintf(stderr, "sgemm_cublas: no cuBLAS handle (starpu_cublas_init not called)\n");
    std::abort();
  }
  const float one = 1.0f;
  const float zero = 0.0f;
  const cublasStatus_t status = cublasSgemm(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B.data(), static_cast<int>(B.ld()), A.data(),
      static_cast<int>(A.ld()), &zero, C.data(), static_cast<int>(C.ld()));
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "sgemm_cublas: cublasSgemm failed with status %d\n",
                 static_cast<int>(status));
    std::abort();
  }
  peppher::cuda::finish("sgemm_cublas");
}
