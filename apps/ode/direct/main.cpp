// The ODE solver written directly against StarPU, the way an expert would: one codelet per
// component over the same variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA; the
// diffusion stencil CPU and OpenMP only, as composed), the vectors registered once and never
// split, 22 tasks per RK4 step.   ./ode_direct [points] [steps]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include <string>

#include "../../common/direct.h"
#include "../ode_common.h"

using Vec = peppher::Vector<double>;
#define DECLARE_VARIANTS(name, ...) \
  void name##_cpu(__VA_ARGS__);     \
  void name##_openmp(__VA_ARGS__);  \
  void name##_cuda(__VA_ARGS__);
void bruss_diffusion_cpu(const Vec&, Vec&, double, double, int, int);
void bruss_diffusion_openmp(const Vec&, Vec&, double, double, int, int);
DECLARE_VARIANTS(bruss_reaction, const Vec&, const Vec&, Vec&, Vec&, double, double)
DECLARE_VARIANTS(rk_stage, const Vec&, const Vec&, Vec&, double)
DECLARE_VARIANTS(rk_update, const Vec&, const Vec&, const Vec&, const Vec&, const Vec&, Vec&,
                 double)
DECLARE_VARIANTS(rk_maxdiff, const Vec&, const Vec&, peppher::Scalar<double>&)

namespace {

// OpenCL programs of the components that have an OpenCL variant.
starpu_opencl_program programs[4];
enum Kernel { kReaction, kStage, kUpdate, kMaxdiff };
const char* const kNames[4] = {"bruss_reaction", "rk_stage", "rk_update", "rk_maxdiff"};

constexpr auto vec = direct::vector_view<double>;
using direct::len;
using direct::mem;

// Host functions: unpack the by-value arguments, view the buffers, call the variant (the
// diffusion on the whole vector: its first point is 0 of n, no halo needed).
template <auto variant>
void diffusion_host(void* b[], void* arg) {
  double alpha, boundary;
  starpu_codelet_unpack_args(arg, &alpha, &boundary);
  Vec u = vec(b[0]), du = vec(b[1]);
  variant(u, du, alpha, boundary, 0, len(b[1]));
}
template <auto variant>
void reaction_host(void* b[], void* arg) {
  double a, bb;
  starpu_codelet_unpack_args(arg, &a, &bb);
  Vec u = vec(b[0]), v = vec(b[1]), du = vec(b[2]), dv = vec(b[3]);
  variant(u, v, du, dv, a, bb);
}
template <auto variant>
void stage_host(void* b[], void* arg) {
  double c;
  starpu_codelet_unpack_args(arg, &c);
  Vec y = vec(b[0]), k = vec(b[1]), ys = vec(b[2]);
  variant(y, k, ys, c);
}
template <auto variant>
void update_host(void* b[], void* arg) {
  double h;
  starpu_codelet_unpack_args(arg, &h);
  Vec y = vec(b[0]), k1 = vec(b[1]), k2 = vec(b[2]), k3 = vec(b[3]), k4 = vec(b[4]), yn = vec(b[5]);
  variant(y, k1, k2, k3, k4, yn, h);
}
template <auto variant>
void maxdiff_host(void* b[], void*) {
  Vec yn = vec(b[0]), y = vec(b[1]);
  auto change =
      peppher::Scalar<double>::view(reinterpret_cast<double*>(STARPU_VARIABLE_GET_PTR(b[2])));
  variant(yn, y, change);
}

// OpenCL functions: each vector is passed as its buffer and its length, like the composed app.
void reaction_cl(void* b[], void* arg) {
  double a, bb;
  starpu_codelet_unpack_args(arg, &a, &bb);
  direct::launch(&programs[kReaction], "bruss_reaction_opencl", len(b[2]), 0, mem(b[0]), len(b[0]),
                 mem(b[1]), len(b[1]), mem(b[2]), len(b[2]), mem(b[3]), len(b[3]), a, bb);
}
void stage_cl(void* b[], void* arg) {
  double c;
  starpu_codelet_unpack_args(arg, &c);
  direct::launch(&programs[kStage], "rk_stage_opencl", len(b[2]), 0, mem(b[0]), len(b[0]),
                 mem(b[1]), len(b[1]), mem(b[2]), len(b[2]), c);
}
void update_cl(void* b[], void* arg) {
  double h;
  starpu_codelet_unpack_args(arg, &h);
  direct::launch(&programs[kUpdate], "rk_update_opencl", len(b[5]), 0, mem(b[0]), len(b[0]),
                 mem(b[1]), len(b[1]), mem(b[2]), len(b[2]), mem(b[3]), len(b[3]), mem(b[4]),
                 len(b[4]), mem(b[5]), len(b[5]), h);
}
void maxdiff_cl(void* b[], void*) {
  cl_mem change = reinterpret_cast<cl_mem>(STARPU_VARIABLE_GET_DEV_HANDLE(b[2]));
  direct::launch(&programs[kMaxdiff], "rk_maxdiff_opencl", 256, 256, mem(b[0]), len(b[0]),
                 mem(b[1]), len(b[1]), change);
}

starpu_codelet diffusion_codelet = direct::codelet(
    diffusion_host<bruss_diffusion_cpu>, direct::openmp<diffusion_host<bruss_diffusion_openmp>>,
    nullptr, nullptr, {STARPU_R, STARPU_W});
starpu_codelet reaction_codelet = DIRECT_CODELET(reaction_host, bruss_reaction, reaction_cl,
                                                 STARPU_R, STARPU_R, STARPU_RW, STARPU_RW);
starpu_codelet stage_codelet =
    DIRECT_CODELET(stage_host, rk_stage, stage_cl, STARPU_R, STARPU_R, STARPU_W);
starpu_codelet update_codelet = DIRECT_CODELET(update_host, rk_update, update_cl, STARPU_R,
                                               STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W);
starpu_codelet maxdiff_codelet =
    DIRECT_CODELET(maxdiff_host, rk_maxdiff, maxdiff_cl, STARPU_R, STARPU_R, STARPU_RW);

void check(int ret) {
  STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
}

// f(u, v) into (ku, kv), as three tasks.
void rhs(const ode::Problem& p, starpu_data_handle_t u, starpu_data_handle_t v,
         starpu_data_handle_t ku, starpu_data_handle_t kv) {
  check(starpu_task_insert(&diffusion_codelet, STARPU_R, u, STARPU_W, ku, STARPU_VALUE, &p.alpha,
                           sizeof(double), STARPU_VALUE, &p.u_boundary, sizeof(double), 0));
  check(starpu_task_insert(&diffusion_codelet, STARPU_R, v, STARPU_W, kv, STARPU_VALUE, &p.alpha,
                           sizeof(double), STARPU_VALUE, &p.v_boundary, sizeof(double), 0));
  check(starpu_task_insert(&reaction_codelet, STARPU_R, u, STARPU_R, v, STARPU_RW, ku, STARPU_RW,
                           kv, STARPU_VALUE, &p.a, sizeof(double), STARPU_VALUE, &p.b,
                           sizeof(double), 0));
}

}  // namespace

int main(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 1000, ode::kUsage);
  const int steps = app::arg(argc, argv, 2, 500, ode::kUsage);
  const ode::Problem p = ode::generate(n);

  direct::start();
  const double t0 = app::now();
  for (int i = 0; i < 4; ++i) {
    const std::string path =
        std::string(KERNEL_DIR "/") + kNames[i] + "/" + kNames[i] + "_opencl.cl";
    direct::load_program(&programs[i], path.c_str());
  }
  // 14 vectors: u, v and their next values, the stage point of each, four slopes of each.
  enum { kU0, kV0, kU1, kV1, kSu, kSv, kKu, kKv = kKu + 4, kCount = kKv + 4 };
  double* data[kCount];
  starpu_data_handle_t h[kCount];
  for (int i = 0; i < kCount; ++i) {
    starpu_malloc(reinterpret_cast<void**>(&data[i]), n * sizeof(double));
    const std::vector<double>* init = i == kU0 ? &p.u0 : i == kV0 ? &p.v0 : nullptr;
    if (init)
      std::copy(init->begin(), init->end(), data[i]);
    else
      std::fill(data[i], data[i] + n, 0.0);
    starpu_vector_data_register(&h[i], STARPU_MAIN_RAM, uintptr_t(data[i]), n, sizeof(double));
  }
  double change = 0.0;
  starpu_data_handle_t h_change;
  starpu_variable_data_register(&h_change, STARPU_MAIN_RAM, uintptr_t(&change), sizeof(double));

  int u = kU0, v = kV0, u_next = kU1, v_next = kV1;
  const double c[4] = {0.0, p.h / 2, p.h / 2, p.h};
  for (int step = 0; step < steps; ++step) {
    rhs(p, h[u], h[v], h[kKu], h[kKv]);
    for (int j = 1; j < 4; ++j) {
      check(starpu_task_insert(&stage_codelet, STARPU_R, h[u], STARPU_R, h[kKu + j - 1], STARPU_W,
                               h[kSu], STARPU_VALUE, &c[j], sizeof(double), 0));
      check(starpu_task_insert(&stage_codelet, STARPU_R, h[v], STARPU_R, h[kKv + j - 1], STARPU_W,
                               h[kSv], STARPU_VALUE, &c[j], sizeof(double), 0));
      rhs(p, h[kSu], h[kSv], h[kKu + j], h[kKv + j]);
    }
    for (int s = 0; s < 2; ++s) {
      const int y = s == 0 ? u : v, y_next = s == 0 ? u_next : v_next, k = s == 0 ? kKu : kKv;
      check(starpu_task_insert(&update_codelet, STARPU_R, h[y], STARPU_R, h[k], STARPU_R, h[k + 1],
                               STARPU_R, h[k + 2], STARPU_R, h[k + 3], STARPU_W, h[y_next],
                               STARPU_VALUE, &p.h, sizeof(double), 0));
    }
    check(starpu_task_insert(&maxdiff_codelet, STARPU_R, h[u_next], STARPU_R, h[u], STARPU_RW,
                             h_change, 0));
    check(starpu_task_insert(&maxdiff_codelet, STARPU_R, h[v_next], STARPU_R, h[v], STARPU_RW,
                             h_change, 0));
    std::swap(u, u_next);
    std::swap(v, v_next);
  }
  for (int i = 0; i < kCount; ++i) starpu_data_unregister(h[i]);  // waits, brings data home
  starpu_data_unregister(h_change);
  const double seconds = app::now() - t0;
  const std::uint64_t sum = ode::checksum(data[u], data[v], change, n);
  const long wrong = ode::count_wrong(data[u], data[v], change, ode::reference(p, steps));
  for (int i = 0; i < kCount; ++i) peppher::detail::starpu_free_sized(data[i], n * sizeof(double));
  for (int i = 0; i < 4; ++i) direct::unload_program(&programs[i]);
  starpu_shutdown();
  char what[64];
  std::snprintf(what, sizeof what, "%d points, %d steps, %d calls", n, steps, 22 * steps);
  return app::verdict("ode", what, wrong, sum, seconds);
}
