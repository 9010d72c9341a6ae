// cfd_copy, CUDA variant: dst = src, a device-to-device copy on this worker's stream; the Vector
// views' data() are device pointers. Compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../cfd_copy.h"

void cfd_copy_cuda(const peppher::Vector<float>& src, peppher::Vector<float>& dst) {
  cudaMemcpyAsync(dst.data(), src.data(), dst.size() * sizeof(float), cudaMemcpyDeviceToDevice,
                  peppher::cuda::stream());
  peppher::cuda::finish("cfd_copy_cuda");
}
