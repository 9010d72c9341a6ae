// The cfd application (Rodinia's CFD solver, euler3d): an unstructured-grid finite-volume Euler
// solver on a generated mesh; per iteration the state is copied, then three Runge-Kutta stages
// of step factors, fluxes and a time step, 10 asynchronous calls on peppher::Vector operands;
// checked against a host reference.   ./cfd [rows] [cols] [iterations]
#include "cfd_common.h"
#include "components/cfd_copy.h"
#include "components/cfd_flux.h"
#include "components/cfd_step_factor.h"
#include "components/cfd_time_step.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int rows = app::arg(argc, argv, 1, 256, cfd::kUsage);
  const int cols = app::arg(argc, argv, 2, 256, cfd::kUsage);
  const int iterations = app::arg(argc, argv, 3, 20, cfd::kUsage);
  const cfd::Mesh m = cfd::generate(rows, cols);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  {
    const double t0 = app::now();
    peppher::Vector<int> neighbours(m.neighbours);
    peppher::Vector<float> normals(m.normals), areas(m.areas), ff_variables(m.ff_variables),
        variables(m.variables), old_variables(m.variables.size()), step_factors(m.elements),
        fluxes(m.variables.size());
    for (int it = 0; it < iterations; ++it) {
      cfd_copy(variables, old_variables);
      for (int stage = 0; stage < cfd::kStages; ++stage) {
        cfd_step_factor(variables, areas, step_factors);
        cfd_flux(neighbours, normals, variables, ff_variables, fluxes);
        cfd_time_step(old_variables, step_factors, fluxes, variables, stage);
      }
    }
    const float* got = variables.host_read();  // waits for the last iteration
    seconds = app::now() - t0;
    sum = app::checksum(got, variables.size());
    wrong = cfd::count_wrong(got, cfd::reference(m, iterations));
  }
  PEPPHER_SHUTDOWN();
  char what[80];
  std::snprintf(what, sizeof what, "%d elements, %d iterations, %d calls", m.elements, iterations,
                10 * iterations);
  return app::verdict("cfd", what, wrong, sum, seconds);
}
