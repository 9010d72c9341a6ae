// lud_perimeter, CUDA variant: thread t takes column t of the block row or row t - m of the
// block column (explicit round-to-nearest, no fma). Compiled, not run (no GPU here).
#include <peppher/cuda.h>

#include "../lud_components.h"

namespace {

__global__ void kernel(float* a, int rows, int ld, int offset) {
  const int first = offset + 16, m = rows - first;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= 2 * m) return;
  if (t < m) {
    const int c = first + t;
    for (int i = 1; i < 16; ++i)
      for (int k = 0; k < i; ++k)
        a[(offset + i) * ld + c] =
            __fsub_rn(a[(offset + i) * ld + c],
                      __fmul_rn(a[(offset + i) * ld + offset + k], a[(offset + k) * ld + c]));
  } else {
    float* row = a + (first + t - m) * ld + offset;
    for (int j = 0; j < 16; ++j) {
      for (int k = 0; k < j; ++k)
        row[j] = __fsub_rn(row[j], __fmul_rn(row[k], a[(offset + k) * ld + offset + j]));
      row[j] = __fdiv_rn(row[j], a[(offset + j) * ld + offset + j]);
    }
  }
}

}  // namespace

void lud_perimeter_cuda(peppher::Matrix<float>& a, int offset) {
  const int m = static_cast<int>(a.rows()) - offset - 16;
  if (m <= 0) return;
  kernel<<<(2 * m + 127) / 128, 128, 0, peppher::cuda::stream()>>>(
      a.data(), static_cast<int>(a.rows()), static_cast<int>(a.ld()), offset);
  peppher::cuda::finish("lud_perimeter_cuda");
}
