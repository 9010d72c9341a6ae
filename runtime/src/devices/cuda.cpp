// The CUDA driver's hooks (devices/cuda.h): cuBLAS handles for CUDA variants and the
// transfer time StarPU predicts for a CUDA device, less its doubling.
#include "devices/cuda.h"

#include <starpu.h>

#include <cmath>

namespace peppher::detail {

void open_cuda() {
  // Simulated (STARPU_SIMGRID): no variant runs, so no cuBLAS handle is needed, and making
  // one would call the CUDA library on a machine that may have no GPU.
#if defined(STARPU_USE_CUDA) && !defined(STARPU_SIMGRID)
  // A cuBLAS handle per CUDA worker, on its stream (starpu_cublas_get_local_handle() in a
  // CUDA variant: components/sgemm/sgemm_cublas.cu); close_cuda() releases them.
  if (starpu_cuda_worker_get_count() > 0) starpu_cublas_init();
#endif
}

void close_cuda() noexcept {
#if defined(STARPU_USE_CUDA) && !defined(STARPU_SIMGRID)
  if (starpu_cuda_worker_get_count() > 0) starpu_cublas_shutdown();
#endif
}

double cuda_transfer_us(unsigned src, unsigned dst, double predicted) noexcept {
  // StarPU 1.3 predicts latency + bytes / bandwidth x 2 x (its GPU count), for the GPUs'
  // contention on the host bridge. One GPU's copies take what its calibrated bandwidth says,
  // not twice that (H200: 64 MB each way in 2.7 ms together at a calibrated 54 GB/s,
  // predicted 5 ms), and a '?' split sized with the doubling gave the CPUs two thirds of the
  // elements (bench/gpu split: 0.0056 s a call against 0.0027 s for the GPU alone). So the
  // doubling is left out for CUDA devices.
  const bool cuda =
      starpu_node_get_kind(src) == STARPU_CUDA_RAM || starpu_node_get_kind(dst) == STARPU_CUDA_RAM;
  if (!cuda || !std::isfinite(predicted)) return predicted;
  const double latency = starpu_transfer_latency(src, dst);
  return latency + (predicted - latency) / 2;
}

}  // namespace peppher::detail
