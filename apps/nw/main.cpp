// The nw application (Rodinia's Needleman-Wunsch): global alignment scores of two sequences,
// the score matrix held in a peppher::Matrix<int> and filled one block anti-diagonal per
// asynchronous call; checked against a host row sweep.   ./nw [length] [penalty]
#include "components/nw_diagonal.h"
#include "nw_common.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int n = nw::length(argc, argv);
  const int penalty = app::arg(argc, argv, 2, 10, "nw [length] [penalty]");
  const nw::Input in = nw::generate(n, penalty);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  {
    const double t0 = app::now();
    peppher::Matrix<int> score(n + 1, n + 1, in.score), ref(n + 1, n + 1, in.ref);
    const int nblocks = n / 16;
    for (int diag = 0; diag < 2 * nblocks - 1; ++diag) nw_diagonal(score, ref, diag, penalty);
    const int* got = score.host_read();  // waits for the last diagonal
    seconds = app::now() - t0;
    sum = app::checksum(got, score.size());  // no padding: ld() == cols()
    wrong = nw::count_wrong(got, score.ld(), nw::reference(in, penalty), n);
  }
  PEPPHER_SHUTDOWN();
  char what[64];
  std::snprintf(what, sizeof what, "length %d, penalty %d", n, penalty);
  return app::verdict("nw", what, wrong, sum, seconds);
}
