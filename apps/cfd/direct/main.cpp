// CFD written directly against StarPU, the way an expert would: one codelet per component over
// the same variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA), the mesh and state
// vectors registered once, 10 tasks per iteration (the Runge-Kutta stage packed as a value).
//   ./cfd_direct [rows] [cols] [iterations]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include <string>

#include "../../common/direct.h"
#include "../cfd_common.h"

using Vec = peppher::Vector<float>;
using IVec = peppher::Vector<int>;
#define DECLARE_VARIANTS(name, ...) \
  void name##_cpu(__VA_ARGS__);     \
  void name##_openmp(__VA_ARGS__);  \
  void name##_cuda(__VA_ARGS__);
DECLARE_VARIANTS(cfd_copy, const Vec&, Vec&)
DECLARE_VARIANTS(cfd_step_factor, const Vec&, const Vec&, Vec&)
DECLARE_VARIANTS(cfd_flux, const IVec&, const Vec&, const Vec&, const Vec&, Vec&)
DECLARE_VARIANTS(cfd_time_step, const Vec&, const Vec&, const Vec&, Vec&, int)

namespace {

starpu_opencl_program programs[4];
enum Kernel { kCopy, kStepFactor, kFlux, kTimeStep };
const char* const kNames[4] = {"cfd_copy", "cfd_step_factor", "cfd_flux", "cfd_time_step"};

constexpr auto vec = direct::vector_view<float>;
using direct::len;
using direct::mem;

// Host functions: view the buffers, unpack the stage (time step), call the variant.
template <auto variant>
void copy_host(void* b[], void*) {
  Vec src = vec(b[0]), dst = vec(b[1]);
  variant(src, dst);
}
template <auto variant>
void step_factor_host(void* b[], void*) {
  Vec u = vec(b[0]), areas = vec(b[1]), factors = vec(b[2]);
  variant(u, areas, factors);
}
template <auto variant>
void flux_host(void* b[], void*) {
  IVec nb = direct::vector_view<int>(b[0]);
  Vec normals = vec(b[1]), u = vec(b[2]), ff = vec(b[3]), fluxes = vec(b[4]);
  variant(nb, normals, u, ff, fluxes);
}
template <auto variant>
void time_step_host(void* b[], void* arg) {
  int stage;
  starpu_codelet_unpack_args(arg, &stage);
  Vec old = vec(b[0]), factors = vec(b[1]), fluxes = vec(b[2]), u = vec(b[3]);
  variant(old, factors, fluxes, u, stage);
}

// OpenCL functions: each vector is passed as its buffer and its length, like the composed app,
// over one work-item per element of the written vector.
void copy_cl(void* b[], void*) {
  direct::launch(&programs[kCopy], "cfd_copy_opencl", len(b[1]), 0, mem(b[0]), len(b[0]), mem(b[1]),
                 len(b[1]));
}
void step_factor_cl(void* b[], void*) {
  direct::launch(&programs[kStepFactor], "cfd_step_factor_opencl", len(b[2]), 0, mem(b[0]),
                 len(b[0]), mem(b[1]), len(b[1]), mem(b[2]), len(b[2]));
}
void flux_cl(void* b[], void*) {
  direct::launch(&programs[kFlux], "cfd_flux_opencl", len(b[4]), 0, mem(b[0]), len(b[0]), mem(b[1]),
                 len(b[1]), mem(b[2]), len(b[2]), mem(b[3]), len(b[3]), mem(b[4]), len(b[4]));
}
void time_step_cl(void* b[], void* arg) {
  int stage;
  starpu_codelet_unpack_args(arg, &stage);
  direct::launch(&programs[kTimeStep], "cfd_time_step_opencl", len(b[3]), 0, mem(b[0]), len(b[0]),
                 mem(b[1]), len(b[1]), mem(b[2]), len(b[2]), mem(b[3]), len(b[3]), stage);
}

starpu_codelet copy_codelet = DIRECT_CODELET(copy_host, cfd_copy, copy_cl, STARPU_R, STARPU_W);
starpu_codelet step_factor_codelet =
    DIRECT_CODELET(step_factor_host, cfd_step_factor, step_factor_cl, STARPU_R, STARPU_R, STARPU_W);
starpu_codelet flux_codelet =
    DIRECT_CODELET(flux_host, cfd_flux, flux_cl, STARPU_R, STARPU_R, STARPU_R, STARPU_R, STARPU_W);
starpu_codelet time_step_codelet = DIRECT_CODELET(time_step_host, cfd_time_step, time_step_cl,
                                                  STARPU_R, STARPU_R, STARPU_R, STARPU_W);

void check(int ret) {
  STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
}

}  // namespace

int main(int argc, char** argv) {
  const int rows = app::arg(argc, argv, 1, 256, cfd::kUsage);
  const int cols = app::arg(argc, argv, 2, 256, cfd::kUsage);
  const int iterations = app::arg(argc, argv, 3, 20, cfd::kUsage);
  const cfd::Mesh m = cfd::generate(rows, cols);

  direct::start();
  const double t0 = app::now();
  for (int i = 0; i < 4; ++i) {
    const std::string path =
        std::string(KERNEL_DIR "/") + kNames[i] + "/" + kNames[i] + "_opencl.cl";
    direct::load_program(&programs[i], path.c_str());
  }
  int* neighbours;
  starpu_malloc(reinterpret_cast<void**>(&neighbours), m.neighbours.size() * sizeof(int));
  std::copy(m.neighbours.begin(), m.neighbours.end(), neighbours);
  starpu_data_handle_t h_neighbours;
  starpu_vector_data_register(&h_neighbours, STARPU_MAIN_RAM, uintptr_t(neighbours),
                              m.neighbours.size(), sizeof(int));
  // The float vectors: the mesh, the far field, the state, the iteration's old state, scratch.
  enum { kNormals, kAreas, kFarField, kVariables, kOld, kFactors, kFluxes, kCount };
  const std::vector<float>* init[kCount] = {&m.normals, &m.areas, &m.ff_variables, &m.variables};
  const size_t vars = m.variables.size();
  const size_t sizes[kCount] = {m.normals.size(),
                                m.areas.size(),
                                m.ff_variables.size(),
                                vars,
                                vars,
                                size_t(m.elements),
                                vars};
  float* data[kCount];
  starpu_data_handle_t h[kCount];
  for (int i = 0; i < kCount; ++i) {
    starpu_malloc(reinterpret_cast<void**>(&data[i]), sizes[i] * sizeof(float));
    if (init[i])
      std::copy(init[i]->begin(), init[i]->end(), data[i]);
    else
      std::fill(data[i], data[i] + sizes[i], 0.0f);
    starpu_vector_data_register(&h[i], STARPU_MAIN_RAM, uintptr_t(data[i]), sizes[i],
                                sizeof(float));
  }
  for (int it = 0; it < iterations; ++it) {
    check(starpu_task_insert(&copy_codelet, STARPU_R, h[kVariables], STARPU_W, h[kOld], 0));
    for (int stage = 0; stage < cfd::kStages; ++stage) {
      check(starpu_task_insert(&step_factor_codelet, STARPU_R, h[kVariables], STARPU_R, h[kAreas],
                               STARPU_W, h[kFactors], 0));
      check(starpu_task_insert(&flux_codelet, STARPU_R, h_neighbours, STARPU_R, h[kNormals],
                               STARPU_R, h[kVariables], STARPU_R, h[kFarField], STARPU_W,
                               h[kFluxes], 0));
      check(starpu_task_insert(&time_step_codelet, STARPU_R, h[kOld], STARPU_R, h[kFactors],
                               STARPU_R, h[kFluxes], STARPU_W, h[kVariables], STARPU_VALUE, &stage,
                               sizeof(int), 0));
    }
  }
  starpu_data_unregister(h_neighbours);  // waits for the tasks and brings the data home
  for (int i = 0; i < kCount; ++i) starpu_data_unregister(h[i]);
  const double seconds = app::now() - t0;
  const std::uint64_t sum = app::checksum(data[kVariables], vars);
  const long wrong = cfd::count_wrong(data[kVariables], cfd::reference(m, iterations));
  peppher::detail::starpu_free_sized(neighbours, m.neighbours.size() * sizeof(int));
  for (int i = 0; i < kCount; ++i)
    peppher::detail::starpu_free_sized(data[i], sizes[i] * sizeof(float));
  for (int i = 0; i < 4; ++i) direct::unload_program(&programs[i]);
  starpu_shutdown();
  char what[80];
  std::snprintf(what, sizeof what, "%d elements, %d iterations, %d calls", m.elements, iterations,
                10 * iterations);
  return app::verdict("cfd", what, wrong, sum, seconds);
}
