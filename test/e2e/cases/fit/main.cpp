// Blocks that fit, end to end: calls on a million floats per operand (4 MB each), run with
// and without STARPU_LIMIT_OPENCL_MEM=1 (1 MiB of pocl's device memory). Each check prints
// "fit: <name>: ok|WRONG" and the program exits non-zero when any is wrong; "fit: checksum"
// sums every result, so that runs with and without the limit compare.
// Argument: "all" (the container calls), "device" (the partitioned ones only: an OpenCL
// device alone cannot run the unpartitioned call on 4 MB), "raw" (the raw-pointer calls
// alone; "raw-small": in blocks that fit the limited device), "forced" (the unpartitioned call
// forced to its OpenCL variant: it prints the error).
#include <peppher/partition.h>
#include <peppher/selection.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "peppher.h"

namespace {

constexpr size_t kN = 1000000;
int wrong_checks = 0;
std::uint64_t checksum = 0;

void report(const char* name, bool ok) {
  std::printf("fit: %s: %s\n", name, ok ? "ok" : "WRONG");
  wrong_checks += ok ? 0 : 1;
}

// Checks y[i] == a * i + b (exact: integers in float) and adds y to the checksum.
template <typename Array>
bool affine(const Array& y, float a, float b) {
  bool ok = true;
  for (size_t i = 0; i < kN; ++i) {
    const float want = a * static_cast<float>(i) + b;
    ok = ok && y[i] == want;
    std::uint32_t bits;
    const float got = y[i];
    std::memcpy(&bits, &got, sizeof(bits));
    checksum = checksum * 31 + bits;
  }
  return ok;
}

// Fixed blocks of half the data (two blocks of 4 MB of operands each): three calls back and
// forth, then host access; the partition counts tell how often the blocks were gathered.
void fixed_vector_blocks() {
  peppher::Vector<float> x(kN), y(kN);
  for (size_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i);
  const peppher::PartitionCounts before = peppher::partition_counts();
  pmap_vec(x, y, static_cast<int>(kN / 2), 2.0f);
  pmap_vec(y, x, static_cast<int>(kN / 2), 0.5f);
  pmap_vec(x, y, static_cast<int>(kN / 2), 2.0f);
  const peppher::PartitionCounts after = peppher::partition_counts();
  std::printf("fit: fixed blocks: %llu gathers between the calls\n",
              static_cast<unsigned long long>(after.gathers - before.gathers));
  report("fixed vector blocks", affine(y, 2.0f, 0.0f) && affine(x, 1.0f, 0.0f));
}

// Raw pointers in blocks of at most @p block elements (kN: one block of the whole), coef
// shared whole: three
// calls on the same arrays, with a host write between them (the host sees each call's
// result when it returns, and the next call the host's writes); the partition counts tell
// whether the blocks were gathered between the calls.
void fixed_raw_blocks(int block) {
  std::vector<float> x(kN), y(kN, -1.0f);
  for (size_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i);
  const float there[2] = {2.0f, 1.0f}, back[2] = {0.5f, -0.5f};
  const int n = static_cast<int>(kN);
  const peppher::PartitionCounts before = peppher::partition_counts();
  pmap_raw(x.data(), y.data(), n, block, there);  // y = 2 i + 1
  const bool first = affine(y, 2.0f, 1.0f);
  for (size_t i = 0; i < kN; ++i) x[i] = y[i];    // x = 2 i + 1, on the host only
  pmap_raw(x.data(), y.data(), n, block, back);   // y = i
  pmap_raw(y.data(), x.data(), n, block, there);  // x = 2 i + 1
  const peppher::PartitionCounts after = peppher::partition_counts();
  std::printf("fit: raw blocks: %llu partitions, %llu gathers between the calls\n",
              static_cast<unsigned long long>(after.raw_partitions - before.raw_partitions),
              static_cast<unsigned long long>(after.raw_gathers - before.raw_gathers));
  report("raw blocks", first && affine(y, 1.0f, 0.0f) && affine(x, 2.0f, 1.0f));
}

// `?` without a model (equal blocks) and with a history model (sized once calibrated).
void auto_blocks() {
  peppher::Vector<float> x(kN), y(kN);
  for (size_t i = 0; i < kN; ++i) x[i] = static_cast<float>(i);
  fit_affine(x, y, 2.0f, 1.0f);
  report("? blocks", affine(y, 2.0f, 1.0f));
  for (int round = 0; round < 6; ++round) {
    fit_learned(x, y, 2.0f, 1.0f);
    fit_learned(y, x, 0.5f, -0.5f);
  }
  report("? blocks sized from a model", affine(y, 2.0f, 1.0f) && affine(x, 1.0f, 0.0f));
}

// Not partitioned: the whole 4 MB in one task.
void whole_call() {
  peppher::Vector<float> v(kN);
  for (size_t i = 0; i < kN; ++i) v[i] = static_cast<float>(i);
  scale_vec(v, 2.0f);
  report("unpartitioned call", affine(v, 2.0f, 0.0f));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  PEPPHER_INITIALIZE();
  if (mode == "forced") {
    peppher::force_variant("scale_vec", "scale_vec_opencl");
    try {
      whole_call();
    } catch (const peppher::Error& e) {
      std::printf("fit: error: %s\n", e.what());
    }
  } else {
    if (mode == "raw" || mode == "raw-small") {
      // raw-small: 16 blocks of 62500 floats, that fit the limited device from the start.
      fixed_raw_blocks(static_cast<int>(mode == "raw" ? kN : kN / 16));
    } else {
      fixed_vector_blocks();
      auto_blocks();
      if (mode == "all") whole_call();
    }
    std::printf("fit: checksum %016llx\n", static_cast<unsigned long long>(checksum));
  }
  PEPPHER_SHUTDOWN();
  return wrong_checks == 0 ? 0 : 1;
}
