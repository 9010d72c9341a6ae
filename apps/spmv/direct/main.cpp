// SpMV written directly against StarPU, the way an expert would: one codelet over the same
// spmv variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA); each call registers
// the CSR arrays, x and y as StarPU vectors, submits one task and unregisters them (which
// waits and brings y home), as the composed raw-pointer call does.
//   ./spmv_direct [nrows] [nonzeros per row] [iterations]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../../common/direct.h"
#include "../spmv_common.h"

#define SPMV_ARGS int, int, const float*, const int*, const int*, const float*, int, float*
void spmv_cpu(SPMV_ARGS);
void spmv_openmp(SPMV_ARGS);
#ifdef STARPU_USE_CUDA
void spmv_cuda(SPMV_ARGS);
#endif

namespace {

starpu_opencl_program program;

template <typename T>
T* ptr(void* buffer) {
  return reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffer));
}

// The codelet function: unpack nrows, nnz and ncols, call the variant on the buffers.
template <auto variant>
void spmv_host(void* b[], void* arg) {
  int nrows, nnz, ncols;
  starpu_codelet_unpack_args(arg, &nrows, &nnz, &ncols);
  variant(nrows, nnz, ptr<const float>(b[0]), ptr<const int>(b[1]), ptr<const int>(b[2]),
          ptr<const float>(b[3]), ncols, ptr<float>(b[4]));
}

// The OpenCL function: the interface's arguments in order, one work-item per row.
void spmv_cl(void* b[], void* arg) {
  int nrows, nnz, ncols;
  starpu_codelet_unpack_args(arg, &nrows, &nnz, &ncols);
  direct::launch(&program, "spmv_opencl", static_cast<std::size_t>(nrows), 0, nrows, nnz,
                 direct::mem(b[0]), direct::mem(b[1]), direct::mem(b[2]), direct::mem(b[3]), ncols,
                 direct::mem(b[4]));
}

starpu_codelet spmv_codelet =
    DIRECT_CODELET(spmv_host, spmv, spmv_cl, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W);

template <typename T>
starpu_data_handle_t register_vector(T* data, std::size_t n) {
  starpu_data_handle_t h;
  starpu_vector_data_register(&h, STARPU_MAIN_RAM, uintptr_t(data), static_cast<std::uint32_t>(n),
                              sizeof(T));
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const int nrows = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int per_row = argc > 2 ? std::atoi(argv[2]) : 16;
  const int iterations = argc > 3 ? std::atoi(argv[3]) : 10;

  direct::start();
  direct::load_program(&program, KERNEL_DIR "/spmv/spmv_opencl.cl");
  int wrong = 0;
  std::uint64_t checksum = 1469598103934665603ull;
  double seconds = 0.0;  // from before each call to its result on the host
  for (int it = 0; it < iterations; ++it) {
    spmv_app::Csr a = spmv_app::random_csr(nrows, per_row, it);
    std::vector<float> x = spmv_app::input(a.ncols, it);
    std::vector<float> y(a.nrows, -1.0f);
    const auto t0 = std::chrono::steady_clock::now();
    const int nnz = static_cast<int>(a.values.size());
    const starpu_data_handle_t h[5] = {register_vector(a.values.data(), a.values.size()),
                                       register_vector(a.row_offsets.data(), a.row_offsets.size()),
                                       register_vector(a.col_indices.data(), a.col_indices.size()),
                                       register_vector(x.data(), x.size()),
                                       register_vector(y.data(), y.size())};
    STARPU_CHECK_RETURN_VALUE(
        starpu_task_insert(&spmv_codelet, STARPU_R, h[0], STARPU_R, h[1], STARPU_R, h[2], STARPU_R,
                           h[3], STARPU_W, h[4], STARPU_VALUE, &a.nrows, sizeof(int), STARPU_VALUE,
                           &nnz, sizeof(int), STARPU_VALUE, &a.ncols, sizeof(int), 0),
        "starpu_task_insert");
    for (starpu_data_handle_t handle : h) starpu_data_unregister(handle);  // waits, y home
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    checksum = spmv_app::fold(y, checksum);
    wrong += spmv_app::count_wrong(a, x, y);
  }
  direct::unload_program(&program);
  starpu_shutdown();
  std::printf("spmv: %d rows, %d nonzeros per row, %d calls: %s checksum=%016llx time=%.6f\n",
              nrows, per_row, iterations, wrong == 0 ? "all results correct" : "WRONG RESULTS",
              static_cast<unsigned long long>(checksum), seconds);
  if (wrong != 0) std::printf("spmv: %d wrong entries\n", wrong);
  return wrong == 0 ? 0 : 1;
}
