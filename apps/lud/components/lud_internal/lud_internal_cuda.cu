// lud_internal, CUDA variant: one thread per element of the trailing matrix (explicit
// round-to-nearest, no fma). Compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../lud_components.h"

namespace {

__global__ void kernel(float* a, int rows, int ld, int offset) {
  const int first = offset + 16;
  const int r = first + blockIdx.y * blockDim.y + threadIdx.y;
  const int c = first + blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < 16; ++k)
    sum = __fadd_rn(sum, __fmul_rn(a[r * ld + offset + k], a[(offset + k) * ld + c]));
  a[r * ld + c] = __fsub_rn(a[r * ld + c], sum);
}

}  // namespace

void lud_internal_cuda(peppher::Matrix<float>& a, int offset) {
  const int m = static_cast<int>(a.rows()) - offset - 16;
  if (m <= 0) return;
  const dim3 threads(16, 16), blocks((m + 15) / 16, (m + 15) / 16);
  kernel<<<blocks, threads, 0, peppher::cuda::stream()>>>(a.data(), static_cast<int>(a.rows()),
                                                          static_cast<int>(a.ld()), offset);
  peppher::cuda::finish("lud_internal_cuda");
}
