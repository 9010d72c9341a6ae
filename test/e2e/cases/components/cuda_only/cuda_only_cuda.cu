// cuda_only, CUDA variant: zeroes v on the device.
#include <peppher/runtime.h>

void cuda_only_cuda(peppher::Vector<float>& v) {
  cudaMemset(v.data(), 0, v.size() * sizeof(float));
}
