// PathFinder written directly against StarPU, the way an expert would: one codelet over the same
// variant sources as the composed app, the grid and two rows registered once, one task per row
// with the row index packed as a value.   ./pathfinder_direct [cols] [rows]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include "../../common/direct.h"
#include "../pathfinder_common.h"

void pathfinder_row_cpu(const peppher::Matrix<int>&, const peppher::Vector<int>&,
                        peppher::Vector<int>&, int);
void pathfinder_row_openmp(const peppher::Matrix<int>&, const peppher::Vector<int>&,
                           peppher::Vector<int>&, int);
#ifdef STARPU_USE_CUDA
void pathfinder_row_cuda(const peppher::Matrix<int>&, const peppher::Vector<int>&,
                         peppher::Vector<int>&, int);
#endif

namespace {

starpu_opencl_program program;

constexpr auto vec = direct::vector_view<int>;

template <auto variant>
void host_func(void* buffers[], void* cl_arg) {
  int row;
  starpu_codelet_unpack_args(cl_arg, &row);
  auto wall = direct::matrix_view<int>(buffers[0]);
  auto src = vec(buffers[1]), dst = vec(buffers[2]);
  variant(wall, src, dst, row);
}

void opencl_func(void* buffers[], void* cl_arg) {
  int row;
  starpu_codelet_unpack_args(cl_arg, &row);
  const int cols = static_cast<int>(STARPU_VECTOR_GET_NX(buffers[2]));
  direct::launch(&program, "pathfinder_row_opencl", size_t(cols), 0,
                 reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffers[0])),
                 int(STARPU_MATRIX_GET_NY(buffers[0])), int(STARPU_MATRIX_GET_NX(buffers[0])),
                 int(STARPU_MATRIX_GET_LD(buffers[0])),
                 reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[1])),
                 int(STARPU_VECTOR_GET_NX(buffers[1])),
                 reinterpret_cast<cl_mem>(STARPU_VECTOR_GET_DEV_HANDLE(buffers[2])), cols, row);
}

starpu_codelet codelet =
    DIRECT_CODELET(host_func, pathfinder_row, opencl_func, STARPU_R, STARPU_R, STARPU_W);

}  // namespace

int main(int argc, char** argv) {
  const int cols = app::arg(argc, argv, 1, 100000, pathfinder::kUsage);
  const int rows = app::arg(argc, argv, 2, 100, pathfinder::kUsage);
  const std::vector<int> wall0 = pathfinder::generate(rows, cols);

  direct::start();
  const double t0 = app::now();
  direct::load_program(&program, KERNEL_DIR "/pathfinder_row/pathfinder_row_opencl.cl");
  int *wall, *line[2];
  starpu_malloc(reinterpret_cast<void**>(&wall), wall0.size() * sizeof(int));
  starpu_malloc(reinterpret_cast<void**>(&line[0]), cols * sizeof(int));
  starpu_malloc(reinterpret_cast<void**>(&line[1]), cols * sizeof(int));
  std::copy(wall0.begin(), wall0.end(), wall);
  std::copy(wall0.begin(), wall0.begin() + cols, line[0]);
  starpu_data_handle_t h_wall, h_line[2];
  starpu_matrix_data_register(&h_wall, STARPU_MAIN_RAM, uintptr_t(wall), cols, cols, rows,
                              sizeof(int));
  for (int i = 0; i < 2; ++i)
    starpu_vector_data_register(&h_line[i], STARPU_MAIN_RAM, uintptr_t(line[i]), cols, sizeof(int));
  for (int r = 1; r < rows; ++r) {
    int ret = starpu_task_insert(&codelet, STARPU_R, h_wall, STARPU_R, h_line[(r + 1) % 2],
                                 STARPU_W, h_line[r % 2], STARPU_VALUE, &r, sizeof(r), 0);
    STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
  }
  starpu_data_unregister(h_wall);  // waits for the tasks and brings the data home
  starpu_data_unregister(h_line[0]);
  starpu_data_unregister(h_line[1]);
  const double seconds = app::now() - t0;
  const int* result = line[(rows + 1) % 2];
  const std::uint64_t sum = app::checksum(result, cols);
  const long wrong = pathfinder::count_wrong(result, pathfinder::reference(rows, cols, wall0));
  peppher::detail::starpu_free_sized(wall, wall0.size() * sizeof(int));
  peppher::detail::starpu_free_sized(line[0], cols * sizeof(int));
  peppher::detail::starpu_free_sized(line[1], cols * sizeof(int));
  direct::unload_program(&program);
  starpu_shutdown();
  char what[64];
  std::snprintf(what, sizeof what, "%d columns, %d rows", cols, rows);
  return app::verdict("pathfinder", what, wrong, sum, seconds);
}
