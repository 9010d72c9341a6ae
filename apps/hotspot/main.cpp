// The hotspot application (Rodinia's HotSpot): many explicit time steps of a chip's thermal
// simulation, ping-ponging two grids held in peppher::Matrix<float>, all calls asynchronous;
// checked against a host reference.   ./hotspot [rows] [cols] [steps]
#include "components/hotspot_step.h"
#include "hotspot_common.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int rows = app::arg(argc, argv, 1, 512, hotspot::kUsage);
  const int cols = app::arg(argc, argv, 2, 512, hotspot::kUsage);
  const int steps = app::arg(argc, argv, 3, 100, hotspot::kUsage);
  std::vector<float> temp0, power0;
  hotspot::generate(rows, cols, temp0, power0);
  const hotspot::Coefficients k = hotspot::coefficients(rows, cols);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  {
    const double t0 = app::now();
    peppher::Matrix<float> power(rows, cols, power0), a(rows, cols, temp0), b(rows, cols);
    for (int s = 0; s < steps; ++s) {
      if (s % 2 == 0)
        hotspot_step(power, a, b, k.step_div_cap, k.rx_1, k.ry_1, k.rz_1, k.amb_temp);
      else
        hotspot_step(power, b, a, k.step_div_cap, k.rx_1, k.ry_1, k.rz_1, k.amb_temp);
    }
    const peppher::Matrix<float>& result = steps % 2 == 0 ? a : b;
    const float* got = result.host_read();  // waits for the last step
    seconds = app::now() - t0;
    sum = app::checksum(got, result.size());  // no padding: ld() == cols()
    wrong = hotspot::count_wrong(got, result.ld(), rows, cols,
                                 hotspot::reference(rows, cols, steps, temp0, power0, k));
  }
  PEPPHER_SHUTDOWN();
  char what[64];
  std::snprintf(what, sizeof what, "%dx%d, %d steps", rows, cols, steps);
  return app::verdict("hotspot", what, wrong, sum, seconds);
}
