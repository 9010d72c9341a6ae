// HotSpot written directly against StarPU, the way an expert would: one codelet over the same
// variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA), the three grids registered
// once, one task per time step.   ./hotspot_direct [rows] [cols] [steps]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include "../../common/direct.h"
#include "../hotspot_common.h"

void hotspot_step_cpu(const peppher::Matrix<float>&, const peppher::Matrix<float>&,
                      peppher::Matrix<float>&, float, float, float, float, float);
void hotspot_step_openmp(const peppher::Matrix<float>&, const peppher::Matrix<float>&,
                         peppher::Matrix<float>&, float, float, float, float, float);
#ifdef STARPU_USE_CUDA
void hotspot_step_cuda(const peppher::Matrix<float>&, const peppher::Matrix<float>&,
                       peppher::Matrix<float>&, float, float, float, float, float);
#endif

namespace {

starpu_opencl_program program;

constexpr auto view = direct::matrix_view<float>;

template <auto variant>
void host_func(void* buffers[], void* cl_arg) {
  hotspot::Coefficients k;
  starpu_codelet_unpack_args(cl_arg, &k);
  auto power = view(buffers[0]), in = view(buffers[1]), out = view(buffers[2]);
  variant(power, in, out, k.step_div_cap, k.rx_1, k.ry_1, k.rz_1, k.amb_temp);
}

void opencl_func(void* buffers[], void* cl_arg) {
  hotspot::Coefficients k;
  starpu_codelet_unpack_args(cl_arg, &k);
  cl_mem m[3];
  int dims[3][3];
  for (int i = 0; i < 3; ++i) {
    m[i] = reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffers[i]));
    dims[i][0] = static_cast<int>(STARPU_MATRIX_GET_NY(buffers[i]));
    dims[i][1] = static_cast<int>(STARPU_MATRIX_GET_NX(buffers[i]));
    dims[i][2] = static_cast<int>(STARPU_MATRIX_GET_LD(buffers[i]));
  }
  direct::launch(&program, "hotspot_step_opencl", size_t(dims[2][0]) * dims[2][1], 0, m[0],
                 dims[0][0], dims[0][1], dims[0][2], m[1], dims[1][0], dims[1][1], dims[1][2], m[2],
                 dims[2][0], dims[2][1], dims[2][2], k.step_div_cap, k.rx_1, k.ry_1, k.rz_1,
                 k.amb_temp);
}

starpu_codelet codelet =
    DIRECT_CODELET(host_func, hotspot_step, opencl_func, STARPU_R, STARPU_R, STARPU_W);

}  // namespace

int main(int argc, char** argv) {
  const int rows = app::arg(argc, argv, 1, 512, hotspot::kUsage);
  const int cols = app::arg(argc, argv, 2, 512, hotspot::kUsage);
  const int steps = app::arg(argc, argv, 3, 100, hotspot::kUsage);
  std::vector<float> temp0, power0;
  hotspot::generate(rows, cols, temp0, power0);
  const hotspot::Coefficients k = hotspot::coefficients(rows, cols);

  direct::start();
  const double t0 = app::now();
  direct::load_program(&program, KERNEL_DIR "/hotspot_step/hotspot_step_opencl.cl");
  const size_t n = temp0.size(), bytes = n * sizeof(float);
  float *power, *grid[2];
  starpu_malloc(reinterpret_cast<void**>(&power), bytes);
  starpu_malloc(reinterpret_cast<void**>(&grid[0]), bytes);
  starpu_malloc(reinterpret_cast<void**>(&grid[1]), bytes);
  std::copy(power0.begin(), power0.end(), power);
  std::copy(temp0.begin(), temp0.end(), grid[0]);
  starpu_data_handle_t h_power, h_grid[2];
  starpu_matrix_data_register(&h_power, STARPU_MAIN_RAM, uintptr_t(power), cols, cols, rows,
                              sizeof(float));
  for (int i = 0; i < 2; ++i)
    starpu_matrix_data_register(&h_grid[i], STARPU_MAIN_RAM, uintptr_t(grid[i]), cols, cols, rows,
                                sizeof(float));
  for (int s = 0; s < steps; ++s) {
    int ret = starpu_task_insert(&codelet, STARPU_R, h_power, STARPU_R, h_grid[s % 2], STARPU_W,
                                 h_grid[(s + 1) % 2], STARPU_VALUE, &k, sizeof(k), 0);
    STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
  }
  starpu_data_unregister(h_power);  // waits for the tasks and brings the data home
  starpu_data_unregister(h_grid[0]);
  starpu_data_unregister(h_grid[1]);
  const double seconds = app::now() - t0;
  const float* result = grid[steps % 2];
  const std::uint64_t sum = app::checksum(result, n);
  const long wrong = hotspot::count_wrong(result, cols, rows, cols,
                                          hotspot::reference(rows, cols, steps, temp0, power0, k));
  peppher::detail::starpu_free_sized(power, bytes);
  peppher::detail::starpu_free_sized(grid[0], bytes);
  peppher::detail::starpu_free_sized(grid[1], bytes);
  direct::unload_program(&program);
  starpu_shutdown();
  char what[64];
  std::snprintf(what, sizeof what, "%dx%d, %d steps", rows, cols, steps);
  return app::verdict("hotspot", what, wrong, sum, seconds);
}
