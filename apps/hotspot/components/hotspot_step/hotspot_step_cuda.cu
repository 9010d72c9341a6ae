// hotspot_step, CUDA variant: one thread per cell on this worker's stream; the Matrix views'
// data() are device pointers inside the variant. Compiled, not run (no GPU here).
#include <peppher/cuda.h>
#include <peppher/runtime.h>

namespace {

__global__ void step_kernel(const float* power, int ld_p, const float* t, int ld_t, float* out,
                            int ld_o, int rows, int cols, float step_div_cap, float rx_1,
                            float ry_1, float rz_1, float amb) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols) return;
  const float center = t[r * ld_t + c];
  const float north = t[(r > 0 ? r - 1 : r) * ld_t + c];
  const float south = t[(r + 1 < rows ? r + 1 : r) * ld_t + c];
  const float west = t[r * ld_t + (c > 0 ? c - 1 : c)];
  const float east = t[r * ld_t + (c + 1 < cols ? c + 1 : c)];
  const float delta = step_div_cap * (power[r * ld_p + c] + (south + north - 2.0f * center) * ry_1 +
                                      (east + west - 2.0f * center) * rx_1 + (amb - center) * rz_1);
  out[r * ld_o + c] = center + delta;
}

}  // namespace

void hotspot_step_cuda(const peppher::Matrix<float>& power, const peppher::Matrix<float>& temp_in,
                       peppher::Matrix<float>& temp_out, float step_div_cap, float rx_1, float ry_1,
                       float rz_1, float amb_temp) {
  const int rows = static_cast<int>(temp_out.rows());
  const int cols = static_cast<int>(temp_out.cols());
  if (rows == 0 || cols == 0) return;
  const dim3 threads(16, 16);
  const dim3 blocks((cols + 15) / 16, (rows + 15) / 16);
  step_kernel<<<blocks, threads, 0, peppher::cuda::stream()>>>(
      power.data(), static_cast<int>(power.ld()), temp_in.data(), static_cast<int>(temp_in.ld()),
      temp_out.data(), static_cast<int>(temp_out.ld()), rows, cols, step_div_cap, rx_1, ry_1, rz_1,
      amb_temp);
  peppher::cuda::finish("hotspot_step_cuda");
}
