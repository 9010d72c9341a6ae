// LUD written directly against StarPU, the way an expert would: one codelet per kernel over the
// same variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA), the matrix registered
// once, three tasks per 16-wide block step.   ./lud_direct [size]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include <string>

#include "../../common/direct.h"
#include "../lud_common.h"

#define DECLARE_VARIANTS(name)                      \
  void name##_cpu(peppher::Matrix<float>&, int);    \
  void name##_openmp(peppher::Matrix<float>&, int); \
  void name##_cuda(peppher::Matrix<float>&, int);
DECLARE_VARIANTS(lud_diagonal)
DECLARE_VARIANTS(lud_perimeter)
DECLARE_VARIANTS(lud_internal)

namespace {

starpu_opencl_program programs[3];

template <auto variant>
void host_func(void* buffers[], void* cl_arg) {
  int offset;
  starpu_codelet_unpack_args(cl_arg, &offset);
  auto a = direct::matrix_view<float>(buffers[0]);
  variant(a, offset);
}

// OpenCL: the matrix as its buffer, rows, cols and leading dimension, then the offset.
template <int kernel>
void opencl_func(void* buffers[], void* cl_arg) {
  static const char* const names[3] = {"lud_diagonal_opencl", "lud_perimeter_opencl",
                                       "lud_internal_opencl"};
  static const size_t global[3] = {16, 2048, 16384}, local[3] = {16, 0, 0};
  int offset;
  starpu_codelet_unpack_args(cl_arg, &offset);
  direct::launch(&programs[kernel], names[kernel], global[kernel], local[kernel],
                 reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffers[0])),
                 static_cast<int>(STARPU_MATRIX_GET_NY(buffers[0])),
                 static_cast<int>(STARPU_MATRIX_GET_NX(buffers[0])),
                 static_cast<int>(STARPU_MATRIX_GET_LD(buffers[0])), offset);
}

#define CODELET(name, k) DIRECT_CODELET(host_func, name, opencl_func<k>, STARPU_RW)
starpu_codelet codelets[3] = {CODELET(lud_diagonal, 0), CODELET(lud_perimeter, 1),
                              CODELET(lud_internal, 2)};

}  // namespace

int main(int argc, char** argv) {
  const int n = lud::size(argc, argv);
  const std::vector<float> a0 = lud::generate(n);

  direct::start();
  const double t0 = app::now();
  const char* const files[3] = {"lud_diagonal", "lud_perimeter", "lud_internal"};
  for (int i = 0; i < 3; ++i) {
    const std::string path = std::string(KERNEL_DIR "/") + files[i] + "/" + files[i] + "_opencl.cl";
    direct::load_program(&programs[i], path.c_str());
  }
  float* a;
  starpu_malloc(reinterpret_cast<void**>(&a), a0.size() * sizeof(float));
  std::copy(a0.begin(), a0.end(), a);
  starpu_data_handle_t h;
  starpu_matrix_data_register(&h, STARPU_MAIN_RAM, uintptr_t(a), n, n, n, sizeof(float));
  for (int offset = 0; offset < n; offset += 16)
    for (int k = 0; k < (offset + 16 == n ? 1 : 3); ++k) {
      int ret =
          starpu_task_insert(&codelets[k], STARPU_RW, h, STARPU_VALUE, &offset, sizeof(offset), 0);
      STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
    }
  starpu_data_unregister(h);  // waits for the tasks and brings the data home
  const double seconds = app::now() - t0;
  const std::uint64_t sum = app::checksum(a, a0.size());
  const long wrong = lud::count_wrong(a, n, n, lud::reference(n, a0));
  peppher::detail::starpu_free_sized(a, a0.size() * sizeof(float));
  for (int i = 0; i < 3; ++i) direct::unload_program(&programs[i]);
  starpu_shutdown();
  char what[64];
  std::snprintf(what, sizeof what, "%dx%d, %d calls", n, n, 3 * (n / 16) - 2);
  return app::verdict("lud", what, wrong, sum, seconds);
}
