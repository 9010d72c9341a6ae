// Reductions into a Vector and a Matrix end to end: phist's counts, sums and maxima of x
// (split into blocks of bs) against a host computation of each block's private copies
// folded in block order. Prints one line per check, the bits of the sums (equal across
// worker sets and variants), and "reduce_array: N wrong". Arguments: elements, block size.
#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "peppher.h"

namespace {

constexpr int kBins = 16;
int wrong_checks = 0;

void report(const char* name, bool ok) {
  std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
  wrong_checks += ok ? 0 : 1;
}

// The host's arrays: counts, sums (bin-major, x then x * x) and maxima.
struct Histogram {
  std::vector<int> counts = std::vector<int>(kBins, 0);
  std::vector<double> sums = std::vector<double>(2 * kBins, 0.0);
  std::vector<float> top = std::vector<float>(kBins, -std::numeric_limits<float>::infinity());
};

// One call on the host: each block's histogram from the identities, folded into h in block
// order (what the runtime promises, whichever worker ran which block).
void host_call(Histogram& h, const std::vector<float>& x, size_t bs) {
  const size_t nblocks = (x.size() + bs - 1) / bs;
  for (size_t k = 0; k < nblocks; ++k) {
    const peppher::BlockRange r = peppher::block_range(x.size(), nblocks, k);
    Histogram p;
    for (size_t i = r.offset; i < r.offset + r.size; ++i) {
      const int b = std::min(kBins - 1, static_cast<int>(x[i] * static_cast<float>(kBins)));
      const double v = x[i];
      p.counts[b] += 1;
      p.sums[2 * b] += v;
      p.sums[2 * b + 1] += v * v;
      p.top[b] = std::max(p.top[b], x[i]);
    }
    for (int b = 0; b < kBins; ++b) {
      h.counts[b] += p.counts[b];
      h.sums[2 * b] += p.sums[2 * b];
      h.sums[2 * b + 1] += p.sums[2 * b + 1];
      h.top[b] = std::max(h.top[b], p.top[b]);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 10007;
  const size_t bs = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1000;
  std::vector<float> values(n);
  std::uint32_t seed = 12345;
  for (float& v : values) {  // in [0, 1), fixed by the seed
    seed = seed * 1664525u + 1013904223u;
    v = static_cast<float>(seed >> 8) / 16777216.0f;
  }
  PEPPHER_INITIALIZE();
  peppher::Vector<float> x(values);
  peppher::Vector<int> counts(kBins, 0);
  peppher::Matrix<double> sums(kBins, 2, 0.25);  // the operand's own values take part
  peppher::Vector<float> top(kBins, -1.0f);
  Histogram want;
  std::fill(want.sums.begin(), want.sums.end(), 0.25);
  std::fill(want.top.begin(), want.top.end(), -1.0f);
  for (int round = 0; round < 2; ++round) {  // the second call reuses the private copies
    phist(x, static_cast<int>(bs), counts, sums, top);
    host_call(want, values, bs);
  }
  bool counts_ok = true, sums_ok = true, top_ok = true;
  long total = 0;
  std::uint64_t bits = 0;
  const peppher::Vector<int>& got_counts = counts;  // const: host reads
  const peppher::Matrix<double>& got_sums = sums;
  const peppher::Vector<float>& got_top = top;  // the sums' bits, folded, printed to compare runs
  for (int b = 0; b < kBins; ++b) {
    counts_ok = counts_ok && got_counts[b] == want.counts[b];
    total += got_counts[b];
    top_ok = top_ok && got_top[b] == want.top[b];
    for (int j = 0; j < 2; ++j) {
      const double got = got_sums(b, j);
      sums_ok = sums_ok && std::memcmp(&got, &want.sums[2 * b + j], sizeof got) == 0;
      std::uint64_t u;
      std::memcpy(&u, &got, sizeof u);
      bits = bits * 1099511628211ull ^ u;
    }
  }
  report("counts", counts_ok && total == static_cast<long>(2 * n));
  report("sums, bit for bit in block order", sums_ok);
  report("maxima", top_ok);
  PEPPHER_SHUTDOWN();
  std::printf("sum bits: %016" PRIx64 "\n", bits);
  std::printf("reduce_array: %d wrong\n", wrong_checks);
  return wrong_checks == 0 ? 0 : 1;
}
