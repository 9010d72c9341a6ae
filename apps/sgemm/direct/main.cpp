// SGEMM written directly against StarPU, the way an expert would: one codelet over the same
// sgemm variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA), the problems' matrices
// registered once as StarPU matrices (every other B with a padded leading dimension), every
// product submitted before the first result is acquired, then the first problem again with a
// new A written from the host.   ./sgemm_direct [size] [iterations]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../../common/app_check.h"
#include "../../common/direct.h"
#include "../sgemm_common.h"

using Mat = peppher::Matrix<float>;
void sgemm_cpu(const Mat&, const Mat&, Mat&);
void sgemm_openmp(const Mat&, const Mat&, Mat&);
#ifdef STARPU_USE_CUDA
void sgemm_cuda(const Mat&, const Mat&, Mat&);
#endif

namespace {

starpu_opencl_program program;

// The codelet function: the three buffers as the Matrix views the variant takes.
template <auto variant>
void sgemm_host(void* b[], void*) {
  const Mat a = direct::matrix_view<float>(b[0]), bm = direct::matrix_view<float>(b[1]);
  Mat c = direct::matrix_view<float>(b[2]);
  variant(a, bm, c);
}

// The OpenCL function: each matrix as its buffer, rows, columns and leading dimension, launched
// as the variant's descriptor asks (65536 work-items in groups of 256).
cl_mem buffer(void* b) {
  return reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(b));
}
int rows(void* b) {
  return static_cast<int>(STARPU_MATRIX_GET_NY(b));
}
int cols(void* b) {
  return static_cast<int>(STARPU_MATRIX_GET_NX(b));
}
int ld(void* b) {
  return static_cast<int>(STARPU_MATRIX_GET_LD(b));
}
void sgemm_cl(void* b[], void*) {
  direct::launch(&program, "sgemm_opencl", 65536, 256, buffer(b[0]), rows(b[0]), cols(b[0]),
                 ld(b[0]), buffer(b[1]), rows(b[1]), cols(b[1]), ld(b[1]), buffer(b[2]), rows(b[2]),
                 cols(b[2]), ld(b[2]));
}

starpu_codelet sgemm_codelet =
    DIRECT_CODELET(sgemm_host, sgemm, sgemm_cl, STARPU_R, STARPU_R, STARPU_W);

// A row-major rows x cols matrix, rows ld apart, registered with StarPU.
struct Matrix {
  std::size_t rows, cols, ld;
  std::vector<float> data;
  starpu_data_handle_t handle = nullptr;
  Matrix(std::size_t r, std::size_t c, std::size_t l, float value)
      : rows(r), cols(c), ld(l), data(r * l, value) {
    starpu_matrix_data_register(&handle, STARPU_MAIN_RAM, uintptr_t(data.data()),
                                static_cast<std::uint32_t>(ld), static_cast<std::uint32_t>(cols),
                                static_cast<std::uint32_t>(rows), sizeof(float));
  }
  void fill(unsigned seed) {  // from the host
    starpu_data_acquire(handle, STARPU_W);
    sgemm_app::fill(data.data(), rows, cols, ld, seed);
    starpu_data_release(handle);
  }
  const float* read() {  // waits for the writer; released by release()
    starpu_data_acquire(handle, STARPU_R);
    return data.data();
  }
  void release() { starpu_data_release(handle); }
  sgemm_app::Dense dense() {
    sgemm_app::Dense d = sgemm_app::dense(read(), rows, cols, ld);
    release();
    return d;
  }
};

void product(Matrix& a, Matrix& b, Matrix& c) {
  STARPU_CHECK_RETURN_VALUE(starpu_task_insert(&sgemm_codelet, STARPU_R, a.handle, STARPU_R,
                                               b.handle, STARPU_W, c.handle, 0),
                            "starpu_task_insert");
}

struct Problem {
  Matrix a, b, c, e;
};

}  // namespace

int main(int argc, char** argv) {
  const int size = argc > 1 ? std::atoi(argv[1]) : 256;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 4;
  if (size < 1 || iterations < 1 || argc > 3) {
    std::fprintf(stderr, "usage: sgemm_direct [size >= 1] [iterations >= 1]\n");
    return 2;
  }
  const sgemm_app::Shape s = sgemm_app::shape(size);

  direct::start();
  direct::load_program(&program, KERNEL_DIR "/sgemm/sgemm_opencl.cl");
  long wrong = 0;
  int calls = 0;
  std::uint64_t sum = 1469598103934665603ull;
  {
    Matrix f(s.n, s.p, s.p, 0.0f);
    f.fill(99u);
    std::vector<Problem> problems;
    problems.reserve(static_cast<std::size_t>(iterations));
    for (int it = 0; it < iterations; ++it) {
      // Every other B has a padded leading dimension.
      problems.push_back({Matrix(s.m, s.k, s.k, 0.0f),
                          Matrix(s.k, s.n, it % 2 == 0 ? s.n : s.n + 5, 0.0f),
                          Matrix(s.m, s.n, s.n, -7.0f), Matrix(s.m, s.p, s.p, -7.0f)});
      problems.back().a.fill(1000u + static_cast<unsigned>(it));
      problems.back().b.fill(2000u + static_cast<unsigned>(it));
    }
    const double t0 = app::now();
    for (Problem& pr : problems) {
      product(pr.a, pr.b, pr.c);
      product(pr.c, f, pr.e);
      calls += 2;
    }
    for (Problem& pr : problems) {  // wait for the products
      pr.c.read();
      pr.e.read();
      pr.c.release();
      pr.e.release();
    }
    double seconds = app::now() - t0;
    const sgemm_app::Dense fd = f.dense();
    for (Problem& pr : problems) {
      const sgemm_app::Dense c_ref = sgemm_app::multiply(pr.a.dense(), pr.b.dense());
      wrong += sgemm_app::count_wrong(pr.c.read(), s.m, s.n, s.n, c_ref);
      wrong += sgemm_app::count_wrong(pr.e.read(), s.m, s.p, s.p, sgemm_app::multiply(c_ref, fd));
      sum = sgemm_app::fold(pr.e.data.data(), s.m, s.p, s.p,
                            sgemm_app::fold(pr.c.data.data(), s.m, s.n, s.n, sum));
      pr.c.release();
      pr.e.release();
    }
    // The first problem again, A written from the host: the device copies of the first round
    // are stale.
    Problem& first = problems.front();
    first.a.fill(3000u);
    const double t1 = app::now();
    product(first.a, first.b, first.c);
    ++calls;
    first.c.read();
    seconds += app::now() - t1;
    wrong += sgemm_app::count_wrong(first.c.data.data(), s.m, s.n, s.n,
                                    sgemm_app::multiply(first.a.dense(), first.b.dense()));
    sum = sgemm_app::fold(first.c.data.data(), s.m, s.n, s.n, sum);
    first.c.release();
    for (Problem& pr : problems)
      for (Matrix* mat : {&pr.a, &pr.b, &pr.c, &pr.e}) starpu_data_unregister(mat->handle);
    starpu_data_unregister(f.handle);
    direct::unload_program(&program);
    starpu_shutdown();
    std::printf("sgemm: m=%zu k=%zu n=%zu, %d calls: %s checksum=%016llx time=%.6f\n", s.m, s.k,
                s.n, calls, wrong == 0 ? "all results correct" : "WRONG RESULTS",
                static_cast<unsigned long long>(sum), seconds);
  }
  if (wrong != 0) std::printf("sgemm: %ld wrong elements\n", wrong);
  return wrong == 0 ? 0 : 1;
}
