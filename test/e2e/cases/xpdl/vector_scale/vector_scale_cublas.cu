// CUBLAS variant of vector_scale: arr is in device memory; cublasSscal scales it on the
// runtime's stream for this worker.
#include <cublas_v2.h>
#include <starpu.h>

void scale_cublas_func(float* arr, int size, float factor) {
  cublasHandle_t handle;
  cublasCreate(&handle);
#ifdef STARPU_USE_CUDA
  cublasSetStream(handle, starpu_cuda_get_local_stream());
#endif
  cublasSscal(handle, size, &factor, arr, 1);
  cublasDestroy(handle);
}
