// The registration cache of raw-pointer operands (detail/raw_cache.h) behind detail::Call: a
// raw vector keeps its StarPU registration across calls on the same pointer and size; an
// address reused with another size (a buffer reused, a freed pointer's address returned by
// malloc) is registered again; an address another call holds with another size is registered
// for the call only; raw memory inside a container waits for the container's tasks; threads
// sharing a read-only raw input share one registration; a raw array split into blocks keeps
// its registration and its partition plans across calls, and is whole after each call;
// threads splitting a read-only input the same way share the split.
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <thread>
#include <utility>
#include <vector>

#include "peppher/partition.h"
#include "peppher/partitioned_call.h"
#include "peppher/task.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::Vector;
using peppher::detail::OperandKind;
using peppher_test::Session;
using peppher_test::Where;

namespace {

struct Args {
  std::uint32_t a;
  std::uint32_t b;
};

std::uint32_t* vec(void* buf) {
  return reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buf));
}

// buffers: 0 RW vector: v[i] = v[i] * a + b.
void scale_cpu(void* b[], void* cl_arg) {
  const Args& p = *static_cast<const Args*>(cl_arg);
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i)
    vec(b[0])[i] = vec(b[0])[i] * p.a + p.b;
}

// buffers: 0 R vector x, 1 RW vector y: y[i] += x[i] * a + b.
void axpy_cpu(void* b[], void* cl_arg) {
  const Args& p = *static_cast<const Args*>(cl_arg);
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[1]); ++i)
    vec(b[1])[i] += vec(b[0])[i] * p.a + p.b;
}

starpu_codelet scale_codelet() {
  return peppher_test::make_codelet("raw_scale", scale_cpu, nullptr, {STARPU_RW});
}

starpu_codelet axpy_codelet() {
  return peppher_test::make_codelet("raw_axpy", axpy_cpu, nullptr, {STARPU_R, STARPU_RW});
}

// What one call's raw vector became: its kind and handle, read before submitting.
struct Seen {
  OperandKind kind;
  starpu_data_handle_t handle;
};

// One synchronous call of scale on @p count elements at @p ptr.
Seen scale(starpu_codelet* cl, std::uint32_t* ptr, std::size_t count, std::uint32_t a,
           std::uint32_t b) {
  peppher::TaskBuilder task(cl, "raw_scale");
  task.args<Args>() = {a, b};
  task.register_vector(0, ptr, count, sizeof(std::uint32_t));
  const Seen seen{task.call().operands().at(0).kind, task.call().operands().at(0).handle};
  task.submit(true);
  return seen;
}

// One call of scale on @p count elements at @p ptr split in blocks of at most @p block:
// whether the split came from the registration cache (read after the call).
bool scale_split(starpu_codelet* cl, std::uint32_t* ptr, std::size_t count, long long block,
                 std::uint32_t a, std::uint32_t b) {
  peppher::PartitionedCall call(cl, "raw_scale");
  call.split_raw(0, "v", ptr, count, sizeof(std::uint32_t), block);
  for (std::size_t k = 0; k < call.blocks(); ++k) call.args<Args>(k) = {a, b};
  call.submit();
  const peppher::detail::Operand& op = call.call().operands().at(0);
  return op.kind == OperandKind::RawSplit && op.cached;
}

// Raw partitions and gathers since @p before.
std::pair<std::uint64_t, std::uint64_t> raw_since(const peppher::PartitionCounts& before) {
  const peppher::PartitionCounts now = peppher::partition_counts();
  return {now.raw_partitions - before.raw_partitions, now.raw_gathers - before.raw_gathers};
}

std::vector<std::uint32_t> iota(std::size_t n, std::uint32_t from = 0) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

// Runs @p work(0) and @p work(1) on two threads at once; each returns how many values it
// found wrong.
template <typename Work>
void check_on_two_threads(const Work& work) {
  int wrong[2] = {-1, -1};
  std::thread a([&] { wrong[0] = work(0); }), b([&] { wrong[1] = work(1); });
  a.join();
  b.join();
  CHECK(wrong[0] == 0);
  CHECK(wrong[1] == 0);
}

// How many of @p y differ from what raw_axpy makes of a y filled with @p round:
// round + x * 2 + t.
int wrong_axpy(const std::vector<std::uint32_t>& y, const std::vector<std::uint32_t>& x, int round,
               int t) {
  int bad = 0;
  for (std::size_t i = 0; i < y.size(); ++i)
    bad += y[i] != static_cast<std::uint32_t>(round) + x[i] * 2 + static_cast<std::uint32_t>(t);
  return bad;
}

}  // namespace

TEST_CASE("a raw vector stays registered across calls on the same pointer and size",
          "[call][cache]") {
  Session session;
  starpu_codelet cl = scale_codelet();
  std::vector<std::uint32_t> v = iota(8);
  const Seen first = scale(&cl, v.data(), v.size(), 2, 1);
  CHECK(first.kind == OperandKind::RawCached);
  CHECK(v == std::vector<std::uint32_t>{1, 3, 5, 7, 9, 11, 13, 15});  // home after the call
  v[0] = 100;  // the host changes the memory between calls: the next call sees it
  const Seen second = scale(&cl, v.data(), v.size(), 1, 1);
  CHECK(second.kind == OperandKind::RawCached);
  CHECK(second.handle == first.handle);  // registered once
  CHECK(v == std::vector<std::uint32_t>{101, 4, 6, 8, 10, 12, 14, 16});
}

TEST_CASE("an address reused with another size is registered again", "[call][cache]") {
  Session session;
  starpu_codelet cl = scale_codelet();
  SECTION("the same buffer, fewer elements, then all again") {
    std::vector<std::uint32_t> v = iota(8);
    const Seen whole = scale(&cl, v.data(), 8, 1, 1);
    const Seen part = scale(&cl, v.data(), 5, 1, 10);
    CHECK(part.kind == OperandKind::RawCached);
    CHECK(v == std::vector<std::uint32_t>{11, 12, 13, 14, 15, 6, 7, 8});  // the rest untouched
    const Seen again = scale(&cl, v.data(), 8, 2, 0);
    CHECK(v == std::vector<std::uint32_t>{22, 24, 26, 28, 30, 12, 14, 16});
    CHECK(whole.kind == OperandKind::RawCached);
    CHECK(again.kind == OperandKind::RawCached);
  }
  SECTION("a freed pointer's address returned by malloc for another size") {
    // What the runtime sees when a program frees an array and malloc hands the address back
    // for a smaller one: the same address, new contents written by the host, another size.
    // Nothing tells the runtime about free(), so the case is built on one allocation:
    // relying on malloc's reuse made the test fail when a StarPU thread took the chunk.
    auto* p = static_cast<std::uint32_t*>(std::malloc(6 * sizeof(std::uint32_t)));
    REQUIRE(p != nullptr);
    for (std::uint32_t i = 0; i < 6; ++i) p[i] = i;
    scale(&cl, p, 6, 3, 0);
    CHECK(p[5] == 15u);
    auto* q = p;  // "freed and returned again" with 4 elements
    for (std::uint32_t i = 0; i < 4; ++i) q[i] = 7 * i;
    const Seen reused = scale(&cl, q, 4, 1, 1);
    CHECK(reused.kind == OperandKind::RawCached);
    for (std::uint32_t i = 0; i < 4; ++i) CHECK(q[i] == 7 * i + 1);
    std::free(p);
  }
}

TEST_CASE("an address another call holds with another size is registered for the call only",
          "[call][cache]") {
  Session session;
  starpu_codelet cl = scale_codelet();
  std::vector<std::uint32_t> v = iota(8);
  {
    peppher::TaskBuilder held(&cl, "raw_scale");  // holds the cached registration of 8
    held.args<Args>() = {2, 0};
    held.register_vector(0, v.data(), 8, sizeof(std::uint32_t));
    CHECK(held.call().operands().at(0).kind == OperandKind::RawCached);
    const Seen other = scale(&cl, v.data(), 4, 1, 100);  // meanwhile: 4 elements
    CHECK(other.kind == OperandKind::Raw);
    CHECK(v == std::vector<std::uint32_t>{100, 101, 102, 103, 4, 5, 6, 7});
    held.submit(true);
  }
  CHECK(v == std::vector<std::uint32_t>{200, 202, 204, 206, 8, 10, 12, 14});
  const Seen after = scale(&cl, v.data(), 8, 1, 1);  // the cached registration, still right
  CHECK(after.kind == OperandKind::RawCached);
  CHECK(v == std::vector<std::uint32_t>{201, 203, 205, 207, 9, 11, 13, 15});
}

TEST_CASE("raw memory inside a container waits for the container's tasks, both ways",
          "[call][cache]") {
  Session session;
  starpu_codelet cl = scale_codelet();
  Vector<std::uint32_t> c(iota(64));
  std::uint32_t* p = c.data();  // host write phase: the pointer is the container's memory
  // A task on the container that is still running (CPU, sleeping) when the raw call comes:
  // c = c * 3 + 1.
  peppher_test::slow_affine(c.handle_for_task(), 3, 1, 50);
  scale(&cl, p + 8, 16, 2, 0);  // elements 8..23 of the container, through another handle
  for (std::uint32_t i = 0; i < 64; ++i) {
    const std::uint32_t once = i * 3 + 1;
    CHECK(c[i] == (i >= 8 && i < 24 ? once * 2 : once));
  }
  // And back: the container's next task sees what the raw call wrote.
  peppher_test::affine(c.handle_for_task(), 1, 5, Where::Any);  // c = c + 5
  scale(&cl, p, 64, 2, 0);  // a whole-container raw call right after it: p = p * 2
  for (std::uint32_t i = 0; i < 64; ++i) {
    const std::uint32_t once = i * 3 + 1;
    CHECK(c[i] == ((i >= 8 && i < 24 ? once * 2 : once) + 5) * 2);
  }
}

TEST_CASE("raw memory inside a container whose data is on the device waits for it",
          "[call][cache][opencl]") {
  Session session;
  if (!peppher_test::has_opencl()) return;
  starpu_codelet cl = scale_codelet();
  Vector<std::uint32_t> c(iota(256));
  std::uint32_t* p = c.data();
  // The result stays on the device until someone asks for it on the host.
  peppher_test::affine(c.handle_for_task(), 2, 3, Where::OpenCl);
  scale(&cl, p, 256, 1, 1);
  for (std::uint32_t i = 0; i < 256; ++i) CHECK(c[i] == i * 2 + 4);
}

TEST_CASE("threads sharing a read-only raw input share its registration",
          "[call][cache][threads]") {
  Session session;
  starpu_codelet cl = axpy_codelet();
  const std::vector<std::uint32_t> x = iota(300, 1);
  check_on_two_threads([&](int t) {
    int bad = 0;
    for (int round = 0; round < 200; ++round) {
      // Thread 0 always reads all of x; thread 1 also reads prefixes of it (another size at
      // the same address, possibly while thread 0's call holds the registration).
      const std::size_t n = t == 0 || round % 3 != 0 ? x.size() : 1 + round % x.size();
      std::vector<std::uint32_t> y(n, static_cast<std::uint32_t>(round));
      peppher::TaskBuilder task(&cl, "raw_axpy");
      task.args<Args>() = {2, static_cast<std::uint32_t>(t)};
      task.register_vector(0, x.data(), n, sizeof(std::uint32_t));
      task.register_vector(1, y.data(), n, sizeof(std::uint32_t));
      task.submit(true);
      bad += wrong_axpy(y, x, round, t);
    }
    return bad;
  });
}

TEST_CASE("a raw array keeps its registration and plans across calls, whole after each",
          "[call][cache][partition]") {
  Session session;
  starpu_codelet cl = scale_codelet();
  std::vector<std::uint32_t> v = iota(10);
  const peppher::PartitionCounts start = peppher::partition_counts();
  CHECK(scale_split(&cl, v.data(), v.size(), 4, 2, 1));                       // 3 blocks: 4, 3, 3
  CHECK(v == std::vector<std::uint32_t>{1, 3, 5, 7, 9, 11, 13, 15, 17, 19});  // home after
  // Each call partitions and gathers its split array once: it returns with the array whole.
  CHECK(raw_since(start) == std::make_pair<std::uint64_t, std::uint64_t>(1, 1));
  v[0] = 100;  // the host writes between calls: the next call's block sees it
  v[9] = 200;
  CHECK(scale_split(&cl, v.data(), v.size(), 4, 1, 1));
  CHECK(v == std::vector<std::uint32_t>{101, 4, 6, 8, 10, 12, 14, 16, 18, 201});
  CHECK(raw_since(start) == std::make_pair<std::uint64_t, std::uint64_t>(2, 2));
  // Other blocks (another plan), then the array whole (the same registration).
  CHECK(scale_split(&cl, v.data(), v.size(), 5, 1, 0));
  CHECK(raw_since(start) == std::make_pair<std::uint64_t, std::uint64_t>(3, 3));
  const Seen whole = scale(&cl, v.data(), v.size(), 1, 1);
  CHECK(whole.kind == OperandKind::RawCached);
  CHECK(raw_since(start) == std::make_pair<std::uint64_t, std::uint64_t>(3, 3));
  CHECK(v == std::vector<std::uint32_t>{102, 5, 7, 9, 11, 13, 15, 17, 19, 202});
  // Back to the first blocks: their plan is reused.
  CHECK(scale_split(&cl, v.data(), v.size(), 4, 1, 0));
  CHECK(raw_since(start) == std::make_pair<std::uint64_t, std::uint64_t>(4, 4));
  CHECK(v == std::vector<std::uint32_t>{102, 5, 7, 9, 11, 13, 15, 17, 19, 202});
  // 8 of the 10 elements: another size at the address, registered again (the former
  // registration dropped with its plans).
  CHECK(scale_split(&cl, v.data(), 8, 3, 1, 1));
  CHECK(v == std::vector<std::uint32_t>{103, 6, 8, 10, 12, 14, 16, 18, 19, 202});
  CHECK(raw_since(start) == std::make_pair<std::uint64_t, std::uint64_t>(5, 5));
}

TEST_CASE("threads splitting a read-only raw input the same way share its split",
          "[call][cache][partition][threads]") {
  Session session;
  starpu_codelet cl = axpy_codelet();
  const std::vector<std::uint32_t> x = iota(300, 1);
  const peppher::PartitionCounts start = peppher::partition_counts();
  check_on_two_threads([&](int t) {
    int bad = 0;
    for (int round = 0; round < 100; ++round) {
      std::vector<std::uint32_t> y(x.size(), static_cast<std::uint32_t>(round));
      peppher::PartitionedCall call(&cl, "raw_axpy");
      call.split_raw(0, "x", x.data(), x.size(), sizeof(std::uint32_t), 64);
      call.split_raw(1, "y", y.data(), y.size(), sizeof(std::uint32_t), 64);
      for (std::size_t k = 0; k < call.blocks(); ++k)
        call.args<Args>(k) = {2, static_cast<std::uint32_t>(t)};
      call.submit();
      bad += wrong_axpy(y, x, round, t);
    }
    return bad;
  });
  // Every split is gathered again (x's by its last user when the threads shared it).
  const std::pair<std::uint64_t, std::uint64_t> counts = raw_since(start);
  CHECK(counts.first == counts.second);
}
