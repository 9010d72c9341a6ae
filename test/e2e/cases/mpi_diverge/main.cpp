// Ranks that make the same component calls, and ranks that do not (run with mpirun -np 2
// or 4; argv[1] picks the program). Each rank prints what it saw; a peppher::Error is
// printed as "rank R: error: <message>" and the program exits 1 (with NO_CATCH=1 set, the
// error is left to escape main instead).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "peppher.h"

namespace {

// A host read of element @p i (the value, for printf).
double get(const peppher::Vector<float>& v, std::size_t i) {
  return v[i];
}

// Every rank makes the same calls; host code differs between ranks: printing, plain
// memory, and element reads of containers every rank has read since the last call.
void same() {
  peppher::Vector<float> v(4, 1.0f), x(1000, 1.0f), y(1000);
  scale_vec(v, 2.0f);
  pmap_vec(x, y, 250, 3.0f);  // 4 blocks, over the ranks
  // Every rank reads: v comes home, and y's last block; then y whole.
  const float first = v[0], last = y[999];
  const float* whole = y.host_read();
  std::vector<float> mine(static_cast<std::size_t>(peppher::rank()) + 1, first);
  if (peppher::rank() == 0) std::printf("rank 0 only: v[1]=%g y[0]=%g\n", get(v, 1), get(y, 0));
  std::printf("rank %d: v[0]=%g y[999]=%g y[500]=%g (%zu)\n", peppher::rank(), first, last,
              whole[500], mine.size());
}

// The program: rank 0 scales v, then every rank scales w.
void rank0_call() {
  peppher::Vector<float> v(4, 1.0f), w(4, 1.0f);
  if (peppher::rank() == 0) scale_vec(v, 2.0f);
  scale_vec(w, 3.0f);
  std::printf("rank %d: w[0]=%g\n", peppher::rank(), get(w, 0));
}

// Rank 1 alone reads an element of a container partitioned over the ranks: it would wait
// for a block that rank 0 never sends.
void one_read() {
  peppher::Vector<float> x(1000, 1.0f), y(1000);
  pmap_vec(x, y, 250, 2.0f);
  if (peppher::rank() == 1) std::printf("rank 1: y[0]=%g\n", get(y, 0));
}

// Rank 0 alone creates a container (used on the host only) between two calls.
void create() {
  peppher::Vector<float> v(4, 1.0f);
  scale_vec(v, 2.0f);
  if (peppher::rank() == 0) {
    peppher::Vector<float> scratch(8, 0.0f);
    std::printf("rank 0: scratch[0]=%g\n", get(scratch, 0));
  }
  scale_vec(v, 2.0f);
  std::printf("rank %d: v[0]=%g\n", peppher::rank(), get(v, 0));
}

void run(const std::string& which) {
  if (which == "same") same();
  if (which == "rank0_call") rank0_call();
  if (which == "one_read") one_read();
  if (which == "create") create();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "same";
  PEPPHER_INITIALIZE();
  if (std::getenv("NO_CATCH") != nullptr) {
    run(which);
    PEPPHER_SHUTDOWN();
  } else {
    try {
      run(which);
      PEPPHER_SHUTDOWN();  // the last comparison: it throws when the ranks differ
    } catch (const peppher::Error& e) {
      const std::string line =
          "rank " + std::to_string(peppher::rank()) + ": error: " + e.what() + "\n";
      std::fputs(line.c_str(), stdout);
      std::fflush(stdout);
      return 1;
    }
  }
  std::printf("rank %d of %d done\n", peppher::rank(), peppher::nranks());
  return 0;
}
