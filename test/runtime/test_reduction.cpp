// Reductions into a peppher::Scalar in partitioned calls (PartitionedCall::reduce, FORMAT.md
// `reduction`): each block's task accumulates into a partial that starts at the operator's
// identity, and the partials are folded into the Scalar in block order, bit for bit.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "peppher/partitioned_call.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::Scalar;
using peppher::Vector;
using peppher_test::Session;

namespace {

template <typename T>
T* variable(void* buf) {
  return reinterpret_cast<T*>(STARPU_VARIABLE_GET_PTR(buf));
}

// Buffers: 0 R vector block of double, 1 RW variable: acc = acc + x[0] + x[1] + ... (in order).
void sum_cpu(void* b[], void*) {
  const auto* x = reinterpret_cast<const double*>(STARPU_VECTOR_GET_PTR(b[0]));
  double acc = *variable<double>(b[1]);
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) acc += x[i];
  *variable<double>(b[1]) = acc;
}

// The same with acc = fmax(acc, |x[i]|), like apps/ode's rk_maxdiff.
void max_cpu(void* b[], void*) {
  const auto* x = reinterpret_cast<const double*>(STARPU_VECTOR_GET_PTR(b[0]));
  double acc = *variable<double>(b[1]);
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) acc = std::fmax(acc, x[i]);
  *variable<double>(b[1]) = acc;
}

// Buffers: 0 R vector block of int, 1 RW variable int: acc = min(acc, x[i]).
void min_int_cpu(void* b[], void*) {
  const auto* x = reinterpret_cast<const int*>(STARPU_VECTOR_GET_PTR(b[0]));
  int acc = *variable<int>(b[1]);
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) acc = std::min(acc, x[i]);
  *variable<int>(b[1]) = acc;
}

// Values whose sum depends on the order of the additions (1e16 + 1 loses the 1).
std::vector<double> awkward(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = (i % 3 == 0 ? 1e16 : 1.0) * (i % 2 == 0 ? 1.0 : -1.0) + 0.1 * static_cast<double>(i);
  return x;
}

// What a call with @p nblocks blocks must leave in a Scalar holding @p start: each block's
// partial from the identity over its elements, folded into start in block order.
template <typename T, typename Op>
T folded(T start, T identity, const std::vector<T>& x, std::size_t nblocks, Op op) {
  T s = start;
  for (std::size_t k = 0; k < nblocks; ++k) {
    const peppher::BlockRange r = peppher::block_range(x.size(), nblocks, k);
    T partial = identity;
    for (std::size_t i = r.offset; i < r.offset + r.size; ++i) partial = op(partial, x[i]);
    s = op(s, partial);
  }
  return s;
}

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST_CASE("PartitionedCall with a reduction: partials folded in block order",
          "[call][partition][reduction]") {
  Session session;
  starpu_codelet sum = peppher_test::make_codelet("sum", sum_cpu, nullptr, {STARPU_R, STARPU_RW});
  starpu_codelet max = peppher_test::make_codelet("max", max_cpu, nullptr, {STARPU_R, STARPU_RW});
  const std::vector<double> values = awkward(23);
  Vector<double> x(values);
  const auto add = [](double a, double b) { return a + b; };
  // 23 elements in blocks of 5 (5 blocks), 3 (8 blocks: more partials than one fold task
  // takes, StarPU's 8 buffers less the Scalar) and 23 (one block).
  for (long long block : {5LL, 3LL, 23LL}) {
    DYNAMIC_SECTION("sum, blocks of " << block) {
      Scalar<double> s(0.5);
      double want = 0.5;
      for (int round = 0; round < 2; ++round) {  // the second reuses the partials
        peppher::PartitionedCall call(&sum, "sum");
        call.split(0, "x", x, block);
        call.reduce(1, "s", s, peppher::Reduction::Sum);
        const std::size_t nblocks = call.blocks();
        call.submit();
        want = folded(want, 0.0, values, nblocks, add);
        INFO("round " << round << ": " << s.get() << " vs " << want);
        CHECK(same_bits(s.get(), want));
      }
      // Not merely some order: the sequential sum differs in its last bits here.
      double sequential = 0.5;
      for (int round = 0; round < 2; ++round)
        for (double v : values) sequential += v;
      CHECK(!same_bits(s.get(), sequential));
    }
    DYNAMIC_SECTION("max, blocks of " << block) {
      Scalar<double> m(-1e300);
      for (int round = 0; round < 2; ++round) {
        peppher::PartitionedCall call(&max, "max");
        call.split(0, "x", x, block);
        call.reduce(1, "m", m, peppher::Reduction::Max);
        call.submit();
        CHECK(m.get() == *std::max_element(values.begin(), values.end()));
      }
      Scalar<double> high(1e300);  // the Scalar's own value takes part in the fold
      peppher::PartitionedCall call(&max, "max");
      call.split(0, "x", x, block);
      call.reduce(1, "high", high, peppher::Reduction::Max);
      call.submit();
      CHECK(high.get() == 1e300);
    }
  }
  SECTION("each call's partials start again from the identity") {
    starpu_codelet min =
        peppher_test::make_codelet("min", min_int_cpu, nullptr, {STARPU_R, STARPU_RW});
    Vector<int> a(std::vector<int>{7, 3, 9, 4, 8, 6}), b(std::vector<int>{5, 6, 7, 8, 9, 10});
    Scalar<int> lo(100);
    for (Vector<int>* v : {&a, &b}) {
      peppher::PartitionedCall call(&min, "min");
      call.split(0, "v", *v, 2);
      call.reduce(1, "lo", lo, peppher::Reduction::Min);
      call.submit();
    }
    CHECK(lo.get() == 3);
    lo = 50;  // a host write between calls is what the next fold starts from
    peppher::PartitionedCall call(&min, "min");
    call.split(0, "v", b, 2);
    call.reduce(1, "lo", lo, peppher::Reduction::Min);
    call.submit();
    CHECK(lo.get() == 5);
  }
}

TEST_CASE("reduction identities and folds", "[reduction]") {
  using peppher::Reduction;
  using peppher::detail::reduction_ops;
  auto fold = [](const peppher::detail::ReductionOps& ops, auto acc, auto part) {
    ops.fold(&acc, &part, 1);
    return acc;
  };
  auto identity = [](const peppher::detail::ReductionOps& ops, auto like) {
    decltype(like) v;
    std::memcpy(&v, ops.identity, sizeof v);
    return v;
  };
  CHECK(identity(reduction_ops<double>(Reduction::Max), 0.0) ==
        -std::numeric_limits<double>::infinity());
  CHECK(identity(reduction_ops<int>(Reduction::Min), 0) == std::numeric_limits<int>::max());
  CHECK(identity(reduction_ops<float>(Reduction::Prod), 0.0f) == 1.0f);
  CHECK(identity(reduction_ops<long>(Reduction::Sum), 0L) == 0L);
  CHECK(fold(reduction_ops<int>(Reduction::Sum), 2, 3) == 5);
  CHECK(fold(reduction_ops<int>(Reduction::Prod), 2, 3) == 6);
  CHECK(fold(reduction_ops<double>(Reduction::Min), 2.0, -3.0) == -3.0);
  CHECK(fold(reduction_ops<double>(Reduction::Max), 2.0, std::nan("")) == 2.0);  // as fmax
  CHECK(fold(reduction_ops<unsigned char>(Reduction::Max), static_cast<unsigned char>(200),
             static_cast<unsigned char>(201)) == 201);
}

TEST_CASE("a min or max reduction of one block in one process runs no start or fold task",
          "[call][partition][reduction]") {
  Session session;
  starpu_codelet max = peppher_test::make_codelet("max", max_cpu, nullptr, {STARPU_R, STARPU_RW});
  const std::vector<double> values = awkward(23);
  Vector<double> x(values);
  Scalar<double> m(-1e300);
  starpu_task_wait_for_all();
  starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
  auto executed = [] {  // tasks run by every worker since profiling started (and reset)
    int total = 0;
    for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
      starpu_profiling_worker_info info;
      if (starpu_profiling_worker_get_info(static_cast<int>(w), &info) == 0)
        total += info.executed_tasks;
    }
    return total;
  };
  executed();  // resets the counters
  peppher::PartitionedCall call(&max, "max");
  call.split(0, "x", x, 23);  // one block
  call.reduce(1, "m", m, peppher::Reduction::Max);
  call.submit();
  starpu_task_wait_for_all();
  CHECK(executed() == 1);  // the block's task, accumulating into m itself
  starpu_profiling_status_set(STARPU_PROFILING_DISABLE);
  CHECK(m.get() == *std::max_element(values.begin(), values.end()));
}
