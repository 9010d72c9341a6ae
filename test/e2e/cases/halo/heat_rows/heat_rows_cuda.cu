// heat_rows, CUDA variant: one thread per cell of its block on this worker's stream. The
// Matrix views hold device pointers here, the halo's too: row(-1) and row(rows()) are the
// rows above and below the block (halo_above() / halo_below() of them, 0 at the chip's
// edges). Compiled where nvcc is; run only where StarPU has CUDA and a GPU.
#include <peppher/cuda.h>
#include <peppher/runtime.h>

namespace {

__global__ void heat_kernel(const float* power, int ld_p, const float* t, int ld_t,
                            const float* above, const float* below, float* out, int ld_o, int rows,
                            int cols, float step_div_cap, float rx_1, float ry_1, float rz_1,
                            float amb) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols) return;
  const float* row = t + r * ld_t;
  const float* up = r > 0 ? row - ld_t : above != nullptr ? above : row;
  const float* down = r + 1 < rows ? row + ld_t : below != nullptr ? below : row;
  const float center = row[c];
  const float north = up[c];
  const float south = down[c];
  const float west = row[c > 0 ? c - 1 : c];
  const float east = row[c + 1 < cols ? c + 1 : c];
  const float delta = step_div_cap * (power[r * ld_p + c] + (south + north - 2.0f * center) * ry_1 +
                                      (east + west - 2.0f * center) * rx_1 + (amb - center) * rz_1);
  out[r * ld_o + c] = center + delta;
}

}  // namespace

void heat_rows_cuda(const peppher::Matrix<float>& power, const peppher::Matrix<float>& temp_in,
                    peppher::Matrix<float>& temp_out, int, int, int, float step_div_cap, float rx_1,
                    float ry_1, float rz_1, float amb_temp) {
  const int rows = static_cast<int>(temp_in.rows());
  const int cols = static_cast<int>(temp_in.cols());
  if (rows == 0 || cols == 0) return;
  const float* above = temp_in.halo_above() > 0 ? temp_in.row(-1) : nullptr;
  const float* below = temp_in.halo_below() > 0 ? temp_in.row(rows) : nullptr;
  const dim3 threads(16, 16);
  const dim3 blocks((cols + 15) / 16, (rows + 15) / 16);
  heat_kernel<<<blocks, threads, 0, peppher::cuda::stream()>>>(
      power.data(), static_cast<int>(power.ld()), temp_in.data(), static_cast<int>(temp_in.ld()),
      above, below, temp_out.data(), static_cast<int>(temp_out.ld()), rows, cols, step_div_cap,
      rx_1, ry_1, rz_1, amb_temp);
  peppher::cuda::finish("heat_rows_cuda");
}
