// cfd_copy, CUDA variant: dst = src, a device-to-device copy on this worker's stream; the Vector
// views' data() are device pointers. Compiled, not run (no GPU here).
#include "../cfd_copy.h"
#include "../../../common/cuda_variant.h"

void cfd_copy_cuda(const peppher::Vector<float>& src, peppher::Vector<float>& dst) {
  cudaMemcpyAsync(dst.data(), src.data(), dst.size() * sizeof(float), cudaMemcpyDeviceToDevice,
                  app::cuda_stream());
  app::cuda_finish("cfd_copy_cuda");
}
