// The lud application (Rodinia's LUD): blocked LU decomposition of a peppher::Matrix<float> in
// place, three asynchronous calls per 16-wide block step (diagonal, perimeter, trailing matrix);
// checked against an unblocked LU on the host.   ./lud [size]
#include "components/lud_components.h"
#include "lud_common.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int n = lud::size(argc, argv);
  const std::vector<float> a0 = lud::generate(n);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  {
    const double t0 = app::now();
    peppher::Matrix<float> a(n, n, a0);
    for (int offset = 0; offset < n; offset += 16) {
      lud_diagonal(a, offset);
      if (offset + 16 == n) break;
      lud_perimeter(a, offset);
      lud_internal(a, offset);
    }
    const float* got = a.host_read();  // waits for the last step
    seconds = app::now() - t0;
    sum = app::checksum(got, a.size());  // no padding: ld() == cols()
    wrong = lud::count_wrong(got, a.ld(), n, lud::reference(n, a0));
  }
  PEPPHER_SHUTDOWN();
  char what[64];
  std::snprintf(what, sizeof what, "%dx%d, %d calls", n, n, 3 * (n / 16) - 2);
  return app::verdict("lud", what, wrong, sum, seconds);
}
