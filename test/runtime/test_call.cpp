// The call-operand core (detail::Call) through its two front ends, as generated entry
// wrappers use them: TaskBuilder (one task) and PartitionedCall (one task per block),
// with containers, raw arrays, elements, by-value arguments, empty arrays and errors.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include "observe/trace.h"
#include "peppher/inline_call.h"
#include "peppher/partitioned_call.h"
#include "peppher/task.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::Vector;
using peppher_test::Session;

namespace {

struct Args {
  std::uint32_t a;
  std::uint32_t first;  // the block's first element in the whole operand
  std::uint32_t count;  // the caller's element count of the raw operand (0: empty array)
};

const Args& args_of(void* cl_arg) {
  return *static_cast<const Args*>(cl_arg);
}
std::uint32_t* vec(void* buf) {
  return reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buf));
}
std::uint32_t nx(void* buf) {
  return STARPU_VECTOR_GET_NX(buf);
}

// buffers: 0 R vector x, 1 RW vector y, 2 W variable n: y[i] += a * x[i] + first + i;
// n = the number of elements x had in this task.
void axpy_cpu(void* b[], void* cl_arg) {
  const Args& p = args_of(cl_arg);
  for (std::uint32_t i = 0; i < nx(b[1]); ++i) vec(b[1])[i] += p.a * vec(b[0])[i] + p.first + i;
  *reinterpret_cast<std::uint32_t*>(STARPU_VARIABLE_GET_PTR(b[2])) = nx(b[0]);
}

starpu_codelet axpy_codelet() {
  return peppher_test::make_codelet("axpy", axpy_cpu, nullptr, {STARPU_R, STARPU_RW, STARPU_W});
}

// buffers: 0 R vector (maybe an empty array's scratch), 1 W variable: its element count and
// the caller's count, packed as count * 1000 + nx.
void count_cpu(void* b[], void* cl_arg) {
  *reinterpret_cast<std::uint32_t*>(STARPU_VARIABLE_GET_PTR(b[1])) =
      args_of(cl_arg).count * 1000 + nx(b[0]);
}

starpu_codelet count_codelet() {
  return peppher_test::make_codelet("count", count_cpu, nullptr, {STARPU_R, STARPU_W});
}

// buffers: 0 RW vector block: v[i] = v[i] * a + first + i (first: the block's offset).
void scale_cpu(void* b[], void* cl_arg) {
  const Args& p = args_of(cl_arg);
  for (std::uint32_t i = 0; i < nx(b[0]); ++i) vec(b[0])[i] = vec(b[0])[i] * p.a + p.first + i;
}

starpu_codelet scale_codelet() {
  return peppher_test::make_codelet("scale", scale_cpu, nullptr, {STARPU_RW});
}

// One RW vector and no implementation at all: no worker can run it, so submitting fails.
starpu_codelet no_worker_codelet() {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  return cl;
}

std::vector<std::uint32_t> iota(std::size_t n, std::uint32_t from = 0) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

}  // namespace

TEST_CASE("TaskBuilder: raw arrays and elements are registered for the call and copied back",
          "[call]") {
  Session session;
  starpu_codelet cl = axpy_codelet();
  std::vector<std::uint32_t> x = iota(6, 1);
  Vector<std::uint32_t> y(iota(6));
  std::uint32_t n = 0;
  {
    peppher::TaskBuilder task(&cl, "axpy");
    task.args<Args>() = {3, 0, 6};
    task.register_vector(0, x.data(), x.size(), sizeof(std::uint32_t));
    task.use(1, y);
    task.register_variable(2, &n, sizeof n);
    task.submit(true);
  }
  CHECK(n == 6);  // the raw element came back before submit() returned
  CHECK(y.registered());
  CHECK(y.to_std() == std::vector<std::uint32_t>{3, 8, 13, 18, 23, 28});
  CHECK(x == iota(6, 1));  // read-only raw operand untouched
}

TEST_CASE("an empty raw array travels as one element of scratch in both kinds of call", "[call]") {
  Session session;
  starpu_codelet cl = count_codelet();
  std::uint32_t packed = 0;
  {
    peppher::TaskBuilder task(&cl, "count");
    task.args<Args>() = {0, 0, 0};
    task.register_vector(0, nullptr, 0, sizeof(std::uint32_t));
    task.register_variable(1, &packed, sizeof packed);
    task.submit(true);
  }
  CHECK(packed == 1);  // the variant sees its own count (0) and a 1-element buffer
  packed = 0;
  {
    peppher::PartitionedCall call(&cl, "count");
    call.register_vector(0, nullptr, 0, sizeof(std::uint32_t));
    call.register_variable(1, &packed, sizeof packed);
    call.args<Args>(0) = {0, 0, 0};
    call.submit();
  }
  CHECK(packed == 1);
  std::vector<std::uint32_t> three = iota(3);
  {
    peppher::PartitionedCall call(&cl, "count");
    call.register_vector(0, three.data(), three.size(), sizeof(std::uint32_t));
    call.register_variable(1, &packed, sizeof packed);
    call.args<Args>(0) = {0, 0, 3};
    call.submit();
  }
  CHECK(packed == 3003);
}

TEST_CASE("PartitionedCall: one task per block, block sizes and offsets, gathered after",
          "[call][partition]") {
  Session session;
  starpu_codelet cl = scale_codelet();
  Vector<std::uint32_t> v(iota(10));
  std::vector<std::uint32_t> raw = iota(10);
  for (int round = 0; round < 2; ++round) {
    peppher::PartitionedCall call(&cl, "scale");
    if (round == 0)
      call.split(0, "v", v, 4);
    else
      call.split_raw(0, "raw", raw.data(), raw.size(), sizeof(std::uint32_t), 4);
    REQUIRE(call.blocks() == 3);  // 10 in blocks of at most 4: 4, 3, 3
    CHECK(call.block_size(0, 0) == 4);
    CHECK(call.block_size(2, 0) == 3);
    CHECK(call.block_offset(2, 0) == 7);
    CHECK_THROWS_AS(call.block_size(0, 1), peppher::Error);  // no split operand there
    for (std::size_t b = 0; b < call.blocks(); ++b)
      call.args<Args>(b) = {2, static_cast<std::uint32_t>(call.block_offset(b, 0)), 0};
    call.submit();
  }
  std::vector<std::uint32_t> expected(10);
  for (std::uint32_t i = 0; i < 10; ++i) expected[i] = 3 * i;  // i * 2 + (first + local i)
  CHECK(v.to_std() == expected);
  CHECK(raw == expected);  // the raw array was gathered and copied back by submit()
}

TEST_CASE("a call's errors leave nothing registered behind", "[call]") {
  Session session;
  starpu_codelet cl = scale_codelet();
  Vector<std::uint32_t> v(iota(10));
  Vector<std::uint32_t> w(iota(9));
  std::vector<std::uint32_t> raw = iota(10);
  {
    peppher::PartitionedCall call(&cl, "scale");
    call.split(0, "v", v, 5);
    CHECK_THROWS_WITH(call.split(0, "w", w, 2),
                      Catch::Contains("'w' splits into 5 blocks but 'v' into 2"));
  }
  {
    peppher::PartitionedCall call(&cl, "scale");
    CHECK_THROWS_WITH(call.split(0, "v", v, 0), Catch::Contains("must be positive"));
    CHECK_THROWS_WITH(call.split_raw(0, "e", raw.data(), 0, 4, 2),
                      Catch::Contains("'e' is empty and cannot be split"));
    CHECK_THROWS_WITH(call.split_raw_rows(0, "m", raw.data(), 10, 3, 4, 1),
                      Catch::Contains("numElements (10) is not a multiple of descRowWidth (3)"));
  }
  {
    peppher::TaskBuilder task(&cl, "scale");
    CHECK_THROWS_WITH(task.register_vector(0, raw.data(), std::size_t(-1), 4),
                      Catch::Contains("more than StarPU's 32-bit extents hold"));
  }
  starpu_codelet none = no_worker_codelet();
  {
    peppher::TaskBuilder task(&none, "nothing");
    task.args<Args>() = {1, 0, 0};
    task.register_vector(0, raw.data(), raw.size(), sizeof(std::uint32_t));
    CHECK_THROWS_WITH(task.submit(true), Catch::Contains("nothing: no worker can run any"));
  }
  {
    peppher::PartitionedCall call(&none, "nothing");
    call.split_raw(0, "raw", raw.data(), raw.size(), sizeof(std::uint32_t), 5);
    call.args<Args>(1) = {1, 0, 0};
    CHECK_THROWS_WITH(call.submit(), Catch::Contains("nothing: no worker can run any"));
  }
  // Leaked registrations of raw memory would make StarPU complain (or assert) at shutdown;
  // the containers are still usable.
  CHECK(v.to_std() == iota(10));
}

TEST_CASE("a call outside a runtime session is refused", "[call]") {
  starpu_codelet cl = scale_codelet();
  CHECK_THROWS_WITH(peppher::TaskBuilder(&cl, "scale"),
                    Catch::Contains("scale called while the runtime is not running"));
  CHECK_THROWS_WITH(peppher::PartitionedCall(&cl, "scale"),
                    Catch::Contains("scale called while the runtime is not running"));
}

TEST_CASE("an AutoSplit leaves auto_split_of when it is destroyed", "[call][partition]") {
  {
    peppher::AutoSplit a("short_lived");
    CHECK(a.iface() == std::string("short_lived"));
    CHECK(peppher::auto_split_of("short_lived", 10).sizes.empty());  // not modelled yet
  }
  // Before, the registry kept a dangling pointer (a use after scope under ASan).
  CHECK(peppher::auto_split_of("short_lived", 10).sizes.empty());
  CHECK(peppher::auto_split_of("short_lived", 10).workers.empty());
}

// PEPPHER_TRACE: a task whose submission fails is destroyed without running; its trace
// record goes with it, and the trace holds only the calls that ran. (No leak: checked by
// hand in the ASan build with ASAN_OPTIONS=detect_leaks=1; ctest runs with leaks off.)
TEST_CASE("a task that cannot be submitted leaves nothing in the trace", "[call][trace]") {
  char path_template[] = "/tmp/peppher-trace-XXXXXX";
  const int fd = mkstemp(path_template);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string path = path_template;
  {
    peppher::Config config;
    config.trace_file = path;
    peppher::Runtime runtime(config);
    std::vector<std::uint32_t> raw = iota(10);
    starpu_codelet none = no_worker_codelet();
    {
      peppher::TaskBuilder task(&none, "nothing");
      task.args<Args>() = {1, 0, 0};
      task.register_vector(0, raw.data(), raw.size(), sizeof(std::uint32_t));
      CHECK_THROWS_WITH(task.submit(true), Catch::Contains("nothing: no worker can run any"));
    }
    starpu_codelet cl = scale_codelet();
    peppher::TaskBuilder task(&cl, "scale");
    task.args<Args>() = {2, 0, 10};
    task.register_vector(0, raw.data(), raw.size(), sizeof(std::uint32_t));
    task.submit(true);
    CHECK(raw[3] == 9);  // 3 * 2 + first 0 + index 3
  }                      // shutdown writes the trace
  std::ifstream in(path);
  const std::string trace((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  CHECK_THAT(trace, Catch::Contains("\"interface\":\"scale\""));
  CHECK_THAT(trace, !Catch::Contains("\"interface\":\"nothing\""));
}

// PEPPHER_TRACE writes each task's events once its chunk of records has ended and frees the
// records (issue 41, item 7): the records the trace holds follow the tasks in flight, not
// the tasks traced (before, every record stayed until shutdown), and the trace still has
// every task.
TEST_CASE("the trace holds the records of the tasks in flight, not of every task",
          "[call][trace]") {
  char path_template[] = "/tmp/peppher-trace-XXXXXX";
  const int fd = mkstemp(path_template);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string path = path_template;
  constexpr int kCalls = 20000;
  std::size_t most_held = 0;
  {
    peppher::Config config;
    config.trace_file = path;
    peppher::Runtime runtime(config);
    std::vector<std::uint32_t> raw = iota(10);
    starpu_codelet cl = scale_codelet();
    for (int i = 0; i < kCalls; ++i) {
      peppher::TaskBuilder task(&cl, "scale");
      task.args<Args>() = {1, 0, 10};
      task.register_vector(0, raw.data(), raw.size(), sizeof(std::uint32_t));
      task.submit(true);
      most_held = std::max(most_held, peppher::detail::trace_records_held());
    }
  }  // shutdown finishes the trace
  std::ifstream in(path);
  const std::string trace((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path.c_str());
  int tasks = 0;
  for (std::size_t at = trace.find("\"cat\":\"task\""); at != std::string::npos;
       at = trace.find("\"cat\":\"task\"", at + 1))
    ++tasks;
  CHECK(tasks == kCalls);
  CHECK_THAT(trace, Catch::EndsWith("]}}\n"));  // otherData closes the trace
  INFO("records held at most: " << most_held);
  CHECK(most_held * 10 < kCalls);
}

namespace {

// y = x[i-1] + 10 x[i] + 100 x[i+1] over a block of x with a halo of 1 (the ends of the
// whole vector stand for their missing neighbours). Buffers: x block, y block, x's halo
// before and after the block.
void halo_sum_cpu(void* buffers[], void*) {
  auto x = Vector<std::uint32_t>::view(vec(buffers[0]), STARPU_VECTOR_GET_NX(buffers[0]));
  x.set_halo(peppher::detail::vector_halo(buffers[0], buffers[2], buffers[3]));
  std::uint32_t* y = vec(buffers[1]);
  const auto n = static_cast<std::ptrdiff_t>(STARPU_VECTOR_GET_NX(buffers[1]));
  const auto before = static_cast<std::ptrdiff_t>(x.halo_before());
  const auto after = static_cast<std::ptrdiff_t>(x.halo_after());
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const std::ptrdiff_t lo = i - 1 < -before ? i : i - 1;
    const std::ptrdiff_t hi = i + 1 >= n + after ? i : i + 1;
    y[i] = x.with_halo(lo) + 10 * x.with_halo(i) + 100 * x.with_halo(hi);
  }
}

starpu_codelet halo_codelet() {
  starpu_codelet cl{};
  cl.cpu_funcs[0] = halo_sum_cpu;
  cl.nbuffers = 4;
  cl.modes[0] = STARPU_R;
  cl.modes[1] = STARPU_W;
  cl.modes[2] = STARPU_R;
  cl.modes[3] = STARPU_R;
  cl.name = "halo_sum";
  return cl;
}

}  // namespace

TEST_CASE("PartitionedCall with a halo: each block reads its neighbours' boundary",
          "[call][partition][halo]") {
  Session session;
  starpu_codelet cl = halo_codelet();
  const std::size_t n = 23;
  Vector<std::uint32_t> x(iota(n)), y(n);
  std::vector<std::uint32_t> want(n);
  for (std::size_t i = 0; i < n; ++i)
    want[i] = (i > 0 ? i - 1 : i) + 10 * i + 100 * (i + 1 < n ? i + 1 : i);
  for (long long block : {5LL, 1LL, 23LL}) {  // 5 blocks (5, 5, 5, 4, 4); 23 of 1; one
    DYNAMIC_SECTION("blocks of " << block) {
      for (int round = 0; round < 2; ++round) {  // the second reuses the halo pieces
        peppher::PartitionedCall call(&cl, "halo_sum");
        call.split(0, "x", x, block, 1, 2);
        call.split(1, "y", y, block);
        call.submit();
        CHECK(y.to_std() == want);
      }
    }
  }
  SECTION("a halo of 0 is no halo") {
    peppher::PartitionedCall call(&cl, "halo_sum");
    call.split(0, "x", x, 5, 0, 2);
    call.split(1, "y", y, 5);
    call.submit();
    std::vector<std::uint32_t> edges(n);
    for (std::size_t k = 0; k < 5; ++k) {  // every block's ends stand for their neighbours
      const peppher::BlockRange r = peppher::block_range(n, 5, k);  // 5, 5, 5, 4, 4
      for (std::size_t i = r.offset; i < r.offset + r.size; ++i)
        edges[i] =
            (i > r.offset ? i - 1 : i) + 10 * i + 100 * (i + 1 < r.offset + r.size ? i + 1 : i);
    }
    CHECK(y.to_std() == edges);
  }
  SECTION("a block smaller than the halo, or a negative halo, is an error") {
    {
      peppher::PartitionedCall call(&cl, "halo_sum");
      call.split(0, "x", x, 2, 3, 2);
      call.split(1, "y", y, 2);
      CHECK_THROWS_WITH(call.submit(), Catch::Contains("halo_sum: block 0 of 'x' has 2 elements, "
                                                       "fewer than its halo of 3"));
    }
    peppher::PartitionedCall call(&cl, "halo_sum");
    CHECK_THROWS_WITH(call.split(0, "x", x, 5, -1, 2), Catch::Contains("must not be negative"));
    peppher::PartitionedCall again(&cl, "halo_sum");  // the containers are still usable
    again.split(0, "x", x, 5, 1, 2);
    again.split(1, "y", y, 5);
    again.submit();
    CHECK(y.to_std() == want);
  }
}

// A null raw pointer with a length (issue 41, item 7): a peppher::Error naming the call and
// the buffer, before StarPU copies from it or a variant on the calling thread reads it; a
// null pointer of no elements stays fine.
TEST_CASE("a null raw pointer with a length is an error, not a crash", "[call]") {
  Session s;
  starpu_codelet cl = scale_codelet();
  {
    peppher::TaskBuilder task(&cl, "scale");
    CHECK_THROWS_WITH(task.register_vector(0, nullptr, 1000, sizeof(std::uint32_t)),
                      Catch::Contains("scale: the raw pointer of buffer 0 is null but its "
                                      "length is 4000 bytes"));
  }
  CHECK_THROWS_WITH(peppher::detail::prepare_inline_operand(nullptr, 4000, true),
                    Catch::Contains("a raw pointer operand is null but its length is 4000"));
  CHECK_NOTHROW(peppher::detail::prepare_inline_operand(nullptr, 0, true));
}
