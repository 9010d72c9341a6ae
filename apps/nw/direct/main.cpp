// Needleman-Wunsch written directly against StarPU, the way an expert would: one codelet over
// the same variant sources as the composed app, the score and similarity matrices registered
// once, one task per block anti-diagonal.   ./nw_direct [length] [penalty]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include "../../common/direct.h"
#include "../nw_common.h"

void nw_diagonal_cpu(peppher::Matrix<int>&, const peppher::Matrix<int>&, int, int);
void nw_diagonal_openmp(peppher::Matrix<int>&, const peppher::Matrix<int>&, int, int);
#ifdef STARPU_USE_CUDA
void nw_diagonal_cuda(peppher::Matrix<int>&, const peppher::Matrix<int>&, int, int);
#endif

namespace {

starpu_opencl_program program;

constexpr auto view = direct::matrix_view<int>;

template <auto variant>
void host_func(void* buffers[], void* cl_arg) {
  int diag, penalty;
  starpu_codelet_unpack_args(cl_arg, &diag, &penalty);
  auto score = view(buffers[0]), ref = view(buffers[1]);
  variant(score, ref, diag, penalty);
}

void opencl_func(void* buffers[], void* cl_arg) {
  int diag, penalty;
  starpu_codelet_unpack_args(cl_arg, &diag, &penalty);
  cl_mem m[2];
  int dims[2][3];
  for (int i = 0; i < 2; ++i) {
    m[i] = reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffers[i]));
    dims[i][0] = static_cast<int>(STARPU_MATRIX_GET_NY(buffers[i]));
    dims[i][1] = static_cast<int>(STARPU_MATRIX_GET_NX(buffers[i]));
    dims[i][2] = static_cast<int>(STARPU_MATRIX_GET_LD(buffers[i]));
  }
  direct::launch(&program, "nw_diagonal_opencl", size_t(16) * (diag + 1), 16, m[0], dims[0][0],
                 dims[0][1], dims[0][2], m[1], dims[1][0], dims[1][1], dims[1][2], diag, penalty);
}

starpu_codelet codelet = DIRECT_CODELET(host_func, nw_diagonal, opencl_func, STARPU_RW, STARPU_R);

}  // namespace

int main(int argc, char** argv) {
  const int n = nw::length(argc, argv);
  const int penalty = app::arg(argc, argv, 2, 10, "nw [length] [penalty]");
  const nw::Input in = nw::generate(n, penalty);

  direct::start();
  const double t0 = app::now();
  direct::load_program(&program, KERNEL_DIR "/nw_diagonal/nw_diagonal_opencl.cl");
  const size_t w = n + 1, bytes = w * w * sizeof(int);
  int *score, *ref;
  starpu_malloc(reinterpret_cast<void**>(&score), bytes);
  starpu_malloc(reinterpret_cast<void**>(&ref), bytes);
  std::copy(in.score.begin(), in.score.end(), score);
  std::copy(in.ref.begin(), in.ref.end(), ref);
  starpu_data_handle_t h_score, h_ref;
  starpu_matrix_data_register(&h_score, STARPU_MAIN_RAM, uintptr_t(score), w, w, w, sizeof(int));
  starpu_matrix_data_register(&h_ref, STARPU_MAIN_RAM, uintptr_t(ref), w, w, w, sizeof(int));
  for (int diag = 0; diag < 2 * (n / 16) - 1; ++diag) {
    int ret = starpu_task_insert(&codelet, STARPU_RW, h_score, STARPU_R, h_ref, STARPU_VALUE, &diag,
                                 sizeof(diag), STARPU_VALUE, &penalty, sizeof(penalty), 0);
    STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
  }
  starpu_data_unregister(h_score);  // waits for the tasks and brings the data home
  starpu_data_unregister(h_ref);
  const double seconds = app::now() - t0;
  const std::uint64_t sum = app::checksum(score, w * w);
  const long wrong = nw::count_wrong(score, w, nw::reference(in, penalty), n);
  peppher::detail::starpu_free_sized(score, bytes);
  peppher::detail::starpu_free_sized(ref, bytes);
  direct::unload_program(&program);
  starpu_shutdown();
  char what[64];
  std::snprintf(what, sizeof what, "length %d, penalty %d", n, penalty);
  return app::verdict("nw", what, wrong, sum, seconds);
}
