// Reductions into a peppher::Vector or Matrix in partitioned calls (PartitionedCall::reduce,
// FORMAT.md `reduction`): each block's task accumulates into a private copy of the whole
// array that starts at the operator's identity, folded element-wise in block order, bit for
// bit, whatever the number of workers.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "peppher/partitioned_call.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::Matrix;
using peppher::Reduction;
using peppher::Vector;

namespace {

// The bin of a value in a histogram of @p nbins bins (|x| modulo nbins, rounded down).
std::size_t bin_of(double x, std::size_t nbins) {
  return static_cast<std::size_t>(std::fmod(std::fabs(x), static_cast<double>(nbins)));
}

// Buffers: 0 R vector block of double, 1 RW vector of double bins: bins[bin(x)] += x, in order.
void hist_cpu(void* b[], void*) {
  const auto* x = reinterpret_cast<const double*>(STARPU_VECTOR_GET_PTR(b[0]));
  auto* bins = reinterpret_cast<double*>(STARPU_VECTOR_GET_PTR(b[1]));
  const std::size_t nbins = STARPU_VECTOR_GET_NX(b[1]);
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) bins[bin_of(x[i], nbins)] += x[i];
}

// The same into a matrix of rows x cols bins (bin k at row k / cols, column k % cols).
void hist_matrix_cpu(void* b[], void*) {
  const auto* x = reinterpret_cast<const double*>(STARPU_VECTOR_GET_PTR(b[0]));
  auto* m = reinterpret_cast<double*>(STARPU_MATRIX_GET_PTR(b[1]));
  const std::size_t cols = STARPU_MATRIX_GET_NX(b[1]);
  const std::size_t ld = STARPU_MATRIX_GET_LD(b[1]);
  const std::size_t nbins = cols * STARPU_MATRIX_GET_NY(b[1]);
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) {
    const std::size_t k = bin_of(x[i], nbins);
    m[(k / cols) * ld + k % cols] += x[i];
  }
}

// Buffers: 0 R vector block of int, 1 RW vector of int: acc[x % n] = op(acc[x % n], x + 1).
template <Reduction Op>
void combine_int_cpu(void* b[], void*) {
  const auto* x = reinterpret_cast<const int*>(STARPU_VECTOR_GET_PTR(b[0]));
  auto* acc = reinterpret_cast<int*>(STARPU_VECTOR_GET_PTR(b[1]));
  const auto n = static_cast<int>(STARPU_VECTOR_GET_NX(b[1]));
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) {
    int& a = acc[x[i] % n];
    const int v = x[i] + 1;
    a = Op == Reduction::Min ? std::min(a, v) : Op == Reduction::Max ? std::max(a, v) : a * v;
  }
}

// Values whose sum depends on the order of the additions (1e16 + 1 loses the 1).
std::vector<double> awkward(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = (i % 3 == 0 ? 1e16 : 1.0) * (i % 2 == 0 ? 1.0 : -1.0) + 0.1 * static_cast<double>(i);
  return x;
}

// What a call with @p nblocks blocks must leave in bins holding @p start: each block's
// private histogram from zero over its elements, added into start in block order.
std::vector<double> folded_hist(std::vector<double> start, const std::vector<double>& x,
                                std::size_t nblocks) {
  for (std::size_t k = 0; k < nblocks; ++k) {
    const peppher::BlockRange r = peppher::block_range(x.size(), nblocks, k);
    std::vector<double> partial(start.size(), 0.0);
    for (std::size_t i = r.offset; i < r.offset + r.size; ++i)
      partial[bin_of(x[i], start.size())] += x[i];
    for (std::size_t j = 0; j < start.size(); ++j) start[j] += partial[j];
  }
  return start;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

peppher::Config cpus(unsigned n) {
  peppher::Config c;
  c.ncpus = static_cast<int>(n);
  c.nopencl = 0;
  c.ncuda = 0;
  return c;
}

}  // namespace

TEST_CASE("PartitionedCall reducing into a Vector: private copies folded in block order",
          "[call][partition][reduction]") {
  const std::vector<double> values = awkward(23);
  const std::vector<double> start = {0.5, -0.25, 1e15, 3.0, 0.0};
  starpu_codelet hist =
      peppher_test::make_codelet("hist", hist_cpu, nullptr, {STARPU_R, STARPU_RW});
  // 23 elements in blocks of 5 (5 blocks), 3 (8 blocks: more private copies than one fold
  // task takes) and 23 (one block), on 1, 2 and 3 CPU workers: the same bits every time.
  for (long long block : {5LL, 3LL, 23LL}) {
    for (unsigned ncpus : {1U, 2U, 3U}) {
      DYNAMIC_SECTION("blocks of " << block << ", " << ncpus << " CPU workers") {
        peppher::Runtime runtime(cpus(ncpus));
        Vector<double> x(values);
        Vector<double> bins(start);
        std::vector<double> want = start;
        for (int round = 0; round < 2; ++round) {  // the second reuses the private copies
          peppher::PartitionedCall call(&hist, "hist");
          call.split(0, "x", x, block);
          call.reduce(1, "bins", bins, Reduction::Sum);
          const std::size_t nblocks = call.blocks();
          call.submit();
          want = folded_hist(want, values, nblocks);
          CHECK(same_bits(bins.to_std(), want));
        }
      }
    }
  }
}

TEST_CASE("PartitionedCall reducing into a Matrix: element-wise, in block order",
          "[call][partition][reduction]") {
  peppher_test::Session session;
  starpu_codelet hist =
      peppher_test::make_codelet("hist_matrix", hist_matrix_cpu, nullptr, {STARPU_R, STARPU_RW});
  const std::vector<double> values = awkward(31);
  Vector<double> x(values);
  Matrix<double> m(2, 3, 1.0);
  peppher::PartitionedCall call(&hist, "hist_matrix");
  call.split(0, "x", x, 4);
  call.reduce(1, "m", m, Reduction::Sum);
  const std::size_t nblocks = call.blocks();
  call.submit();
  const std::vector<double> want = folded_hist(std::vector<double>(6, 1.0), values, nblocks);
  std::vector<double> got;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j) got.push_back(m(i, j));
  CHECK(same_bits(got, want));
}

TEST_CASE("PartitionedCall reducing into a Vector with min, max and prod",
          "[call][partition][reduction]") {
  peppher_test::Session session;
  const std::vector<int> values = {7, 3, 9, 4, 8, 6, 1, 2, 5, 0, 11};
  Vector<int> x(values);
  auto run = [&](starpu_codelet* cl, Reduction op, const std::vector<int>& start) {
    Vector<int> acc(start);
    peppher::PartitionedCall call(cl, "combine");
    call.split(0, "x", x, 3);  // 4 blocks
    call.reduce(1, "acc", acc, op);
    call.submit();
    return acc.to_std();
  };
  // Sequentially (the operators are exact on these ints): acc[v % 4] = op(acc, v + 1).
  auto expect = [&](auto op, std::vector<int> acc) {
    for (int v : values) acc[static_cast<std::size_t>(v % 4)] = op(acc[v % 4], v + 1);
    return acc;
  };
  starpu_codelet mn = peppher_test::make_codelet("min", combine_int_cpu<Reduction::Min>, nullptr,
                                                 {STARPU_R, STARPU_RW});
  starpu_codelet mx = peppher_test::make_codelet("max", combine_int_cpu<Reduction::Max>, nullptr,
                                                 {STARPU_R, STARPU_RW});
  starpu_codelet pr = peppher_test::make_codelet("prod", combine_int_cpu<Reduction::Prod>, nullptr,
                                                 {STARPU_R, STARPU_RW});
  const std::vector<int> start = {5, 100, -3, 7};
  CHECK(run(&mn, Reduction::Min, start) ==
        expect([](int a, int b) { return std::min(a, b); }, start));
  CHECK(run(&mx, Reduction::Max, start) ==
        expect([](int a, int b) { return std::max(a, b); }, start));
  CHECK(run(&pr, Reduction::Prod, start) == expect([](int a, int b) { return a * b; }, start));
  // An element no block touches keeps its value: each private copy holds the identity there.
  const std::vector<int> wide = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
  const std::vector<int> got = run(&mn, Reduction::Min, wide);
  CHECK(got[12] == 13);
}

namespace {

// Element-wise fold of two arrays of three elements with ops on T, through ReductionOps.
template <typename T>
std::vector<T> fold3(Reduction op, std::vector<T> acc, const std::vector<T>& part) {
  peppher::detail::reduction_ops<T>(op).fold(acc.data(), part.data(), acc.size());
  return acc;
}

template <typename T>
T identity_of(Reduction op) {
  T v;
  std::memcpy(&v, peppher::detail::reduction_ops<T>(op).identity, sizeof v);
  return v;
}

template <typename T>
void check_identities() {
  using L = std::numeric_limits<T>;
  CHECK(identity_of<T>(Reduction::Sum) == T(0));
  CHECK(identity_of<T>(Reduction::Prod) == T(1));
  CHECK(identity_of<T>(Reduction::Min) == (L::has_infinity ? L::infinity() : L::max()));
  CHECK(identity_of<T>(Reduction::Max) == (L::has_infinity ? -L::infinity() : L::lowest()));
  // Folding the identity into any value leaves the value.
  const std::vector<T> v = {T(3), T(1), L::max()};
  for (Reduction op : {Reduction::Sum, Reduction::Prod, Reduction::Min, Reduction::Max})
    CHECK(fold3<T>(op, v, std::vector<T>(3, identity_of<T>(op))) == v);
}

}  // namespace

TEST_CASE("array reductions: identities and element-wise folds of each operator and type",
          "[reduction]") {
  check_identities<int>();
  check_identities<unsigned char>();
  check_identities<long long>();
  check_identities<float>();
  check_identities<double>();
  CHECK(fold3<int>(Reduction::Sum, {1, 2, 3}, {10, 20, 30}) == std::vector<int>{11, 22, 33});
  CHECK(fold3<float>(Reduction::Prod, {1, 2, 3}, {2, 2, -1}) == std::vector<float>{2, 4, -3});
  CHECK(fold3<double>(Reduction::Min, {1, 2, std::nan("")}, {0, std::nan(""), 5}) ==
        std::vector<double>{0, 2, 5});  // as fmin: a NaN partial is skipped, a NaN acc replaced
  CHECK(fold3<unsigned char>(Reduction::Max, {200, 7, 0}, {201, 6, 0}) ==
        std::vector<unsigned char>{201, 7, 0});
  // Only `count` elements are touched.
  std::vector<long long> acc = {1, 1, 1};
  const std::vector<long long> part = {5, 5, 5};
  peppher::detail::reduction_ops<long long>(Reduction::Sum).fold(acc.data(), part.data(), 2);
  CHECK(acc == std::vector<long long>{6, 6, 1});
}
