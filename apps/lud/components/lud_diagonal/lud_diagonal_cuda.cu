// lud_diagonal, CUDA variant: one block of 16 threads, thread j updates element j of U's row i,
// then of L's column i (explicit round-to-nearest, no fma). Compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../lud_components.h"

namespace {

__global__ void kernel(float* a, int ld, int offset) {
  const int j = threadIdx.x;
  float* d = a + offset * ld + offset;
  for (int i = 0; i < 16; ++i) {
    if (j >= i)
      for (int k = 0; k < i; ++k)
        d[i * ld + j] = __fsub_rn(d[i * ld + j], __fmul_rn(d[i * ld + k], d[k * ld + j]));
    __syncthreads();
    if (j > i) {
      for (int k = 0; k < i; ++k)
        d[j * ld + i] = __fsub_rn(d[j * ld + i], __fmul_rn(d[j * ld + k], d[k * ld + i]));
      d[j * ld + i] = __fdiv_rn(d[j * ld + i], d[i * ld + i]);
    }
    __syncthreads();
  }
}

}  // namespace

void lud_diagonal_cuda(peppher::Matrix<float>& a, int offset) {
  kernel<<<1, 16, 0, peppher::cuda::stream()>>>(a.data(), static_cast<int>(a.ld()), offset);
  peppher::cuda::finish("lud_diagonal_cuda");
}
