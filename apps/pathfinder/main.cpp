// The pathfinder application (Rodinia's PathFinder): row-by-row dynamic programming over a
// grid held in a peppher::Matrix<int>, two peppher::Vector<int> rows ping-ponged, one
// asynchronous call per row; checked against a host reference.   ./pathfinder [cols] [rows]
#include "components/pathfinder_row.h"
#include "pathfinder_common.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int cols = app::arg(argc, argv, 1, 100000, pathfinder::kUsage);
  const int rows = app::arg(argc, argv, 2, 100, pathfinder::kUsage);
  const std::vector<int> wall0 = pathfinder::generate(rows, cols);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  {
    const double t0 = app::now();
    peppher::Matrix<int> wall(rows, cols, wall0);
    peppher::Vector<int> a(std::vector<int>(wall0.begin(), wall0.begin() + cols)), b(cols);
    for (int r = 1; r < rows; ++r) {
      if (r % 2 == 1)
        pathfinder_row(wall, a, b, r);
      else
        pathfinder_row(wall, b, a, r);
    }
    const peppher::Vector<int>& result = rows % 2 == 0 ? b : a;
    const int* got = result.host_read();  // waits for the last row
    seconds = app::now() - t0;
    sum = app::checksum(got, result.size());
    wrong = pathfinder::count_wrong(got, pathfinder::reference(rows, cols, wall0));
  }
  PEPPHER_SHUTDOWN();
  char what[64];
  std::snprintf(what, sizeof what, "%d columns, %d rows", cols, rows);
  return app::verdict("pathfinder", what, wrong, sum, seconds);
}
