// `?` splits that agree (issue 21): consecutive `?` partitioned calls of different
// interfaces on the same containers reuse one split, sized from their performance models
// together, and gather nothing between them (counted with peppher::partition_counts());
// fixed block sizes that coincide do the same; a split that must change gathers and the
// values stay right.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "call/split_sizing.h"
#include "peppher/partitioned_call.h"
#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;
using peppher::Matrix;
using peppher::Vector;

namespace {

// Gives @p cl's model 12 measurements of @p us microseconds on @p worker for a task on a
// rows x cols block of uint32_t: the footprint of an equal block of the calls below.
void calibrate(starpu_codelet& cl, std::size_t rows, std::size_t cols, int worker, double us) {
  starpu_data_handle_t block;
  starpu_matrix_data_register(&block, -1, 0, static_cast<std::uint32_t>(cols),
                              static_cast<std::uint32_t>(cols), static_cast<std::uint32_t>(rows),
                              sizeof(std::uint32_t));
  starpu_task* task = starpu_task_create();
  task->cl = &cl;
  task->handles[0] = block;
  task->destroy = 0;
  starpu_perfmodel_arch* arch = starpu_worker_get_perf_archtype(worker, STARPU_NMAX_SCHED_CTXS);
  for (int i = 0; i < 12; ++i)
    starpu_perfmodel_update_history(cl.model, task, arch, static_cast<unsigned>(worker), 0, us);
  starpu_task_destroy(task);
  starpu_data_unregister(block);
}

// One partitioned call of @p cl on container @p c, split with `?` by @p split (or, with
// @p block > 0, in fixed blocks of at most @p block): c = c * a + b. Returns its block sizes.
template <typename Container>
std::vector<std::size_t> affine_call(starpu_codelet& cl, peppher::AutoSplit& split, Container& c,
                                     std::uint32_t a, std::uint32_t b, long long block = 0) {
  peppher::PartitionedCall call(&cl, split.iface());
  if (block > 0)
    call.split(0, "c", c, block);
  else
    call.split_auto(0, "c", c, split);
  std::vector<std::size_t> sizes;
  do {  // as the generated entry wrapper: again when a first call is sized from its model
    sizes.clear();
    for (std::size_t k = 0; k < call.blocks(); ++k) {
      call.args<KernelArgs>(k) = {a, b, 0};
      sizes.push_back(call.block_size(k, 0));
    }
  } while (call.size_from_models());
  call.submit();
  return sizes;
}

std::uint64_t gathers() {
  return peppher::partition_counts().gathers;
}
std::uint64_t partitions() {
  return peppher::partition_counts().partitions;
}

std::map<int, std::size_t> by_worker(const peppher::Split& s) {
  std::map<int, std::size_t> m;
  for (std::size_t b = 0; b < s.sizes.size() && b < s.workers.size(); ++b)
    m[s.workers[b]] = s.sizes[b];
  return m;
}

}  // namespace

TEST_CASE("`?` calls of two interfaces agree on one split sized from both models",
          "[partition][opencl]") {
  // They outlive the session, which saves them. a_alone and b_alone: the same models for
  // calls of one interface each, on containers of their own.
  HistoryModel model_a("peppher_split_test_", "a"), model_b("peppher_split_test_", "b");
  HistoryModel model_a_alone("peppher_split_test_", "a_alone");
  HistoryModel model_b_alone("peppher_split_test_", "b_alone");
  Session session;
  if (!has_opencl()) {
    WARN("no OpenCL worker: nothing to split between worker kinds");
    return;
  }
  starpu_codelet cl_a = mat_affine_codelet(), cl_b = mat_affine_codelet();
  cl_a.name = "split_a";
  cl_a.model = &model_a.model;
  cl_b.name = "split_b";
  cl_b.model = &model_b.model;
  starpu_codelet cl_a_alone = mat_affine_codelet(), cl_b_alone = mat_affine_codelet();
  cl_a_alone.name = "split_a_alone";
  cl_a_alone.model = &model_a_alone.model;
  cl_b_alone.name = "split_b_alone";
  cl_b_alone.model = &model_b_alone.model;
  const int cpu = worker_for(Where::Cpu), ocl = worker_for(Where::OpenCl);
  // 1200 x 32 uint32: 150 KiB, two equal blocks of 75 KiB (at least kMinBlockBytes each).
  constexpr std::size_t kRows = 1200, kCols = 32;
  // Per equal block (600 rows): a takes 100 us on the CPU, 900 us on OpenCL (alone it
  // would split 1080 | 120 rows); b 300 us and 100 us (alone 300 | 900). Together the
  // CPU takes 400 us, OpenCL 1000 us: 857 | 343. Those are the splits without transfers; the
  // runtime adds the bus model's transfer times, which this STARPU_HOME's bus calibration
  // (done under whatever load the suite had) sets, so the test compares the split of both
  // with each model's own split under the same bus: strictly between them.
  for (starpu_codelet* cl : {&cl_a, &cl_a_alone}) {
    calibrate(*cl, kRows / 2, kCols, cpu, 100);
    calibrate(*cl, kRows / 2, kCols, ocl, 900);
  }
  for (starpu_codelet* cl : {&cl_b, &cl_b_alone}) {
    calibrate(*cl, kRows / 2, kCols, cpu, 300);
    calibrate(*cl, kRows / 2, kCols, ocl, 100);
  }
  peppher::AutoSplit split_a("split_a"), split_b("split_b");
  // The CPU's rows in the split each model gives alone (it may be one block): a first call
  // in equal blocks, then one sized from the model.
  auto cpu_rows_alone = [&](starpu_codelet& cl, const char* name) {
    peppher::AutoSplit split(name);
    Matrix<std::uint32_t> own(kRows, kCols);
    affine_call(cl, split, own, 1, 0);
    affine_call(cl, split, own, 1, 0);
    const std::map<int, std::size_t> rows = by_worker(peppher::auto_split_of(name, kRows));
    return rows.count(cpu) != 0 ? rows.at(cpu) : std::size_t{0};
  };
  const std::size_t a_alone = cpu_rows_alone(cl_a_alone, "split_a_alone");
  const std::size_t b_alone = cpu_rows_alone(cl_b_alone, "split_b_alone");

  Matrix<std::uint32_t> m(kRows, kCols);
  std::vector<std::uint32_t> want(kRows * kCols);
  for (std::size_t i = 0; i < kRows * kCols; ++i)
    m(i / kCols, i % kCols) = want[i] = std::uint32_t(i);
  auto expect = [&](std::uint32_t a, std::uint32_t b) {
    for (auto& x : want) x = x * a + b;
  };

  // Each interface's first call runs equal blocks (where its model's predictions are
  // found); the next call sizes the split from both models: one gather, legitimately.
  CHECK(affine_call(cl_a, split_a, m, 2, 1) == std::vector<std::size_t>{600, 600});
  expect(2, 1);
  CHECK(affine_call(cl_b, split_b, m, 3, 0) == std::vector<std::size_t>{600, 600});
  expect(3, 0);
  const std::vector<std::size_t> split = affine_call(cl_a, split_a, m, 1, 5);
  expect(1, 5);
  REQUIRE(split.size() == 2);
  const std::map<int, std::size_t> mine = by_worker(peppher::auto_split_of("split_a", kRows));
  REQUIRE(mine.size() == 2);
  INFO("CPU block " << mine.at(cpu) << " rows, OpenCL block " << mine.at(ocl)
                    << " rows; alone the CPU gets " << a_alone << " (a), " << b_alone << " (b)");
  CHECK(mine.at(cpu) + mine.at(ocl) == kRows);
  CHECK(mine.at(cpu) < a_alone);  // without transfers 857 rows, a alone 1080, b alone 300
  CHECK(mine.at(cpu) > b_alone);

  // From now on the two interfaces take turns on the blocks as they are.
  const std::uint64_t gathers_before = gathers(), partitions_before = partitions();
  for (std::uint32_t round = 0; round < 4; ++round) {
    CHECK(affine_call(cl_b, split_b, m, 1, round) == split);
    expect(1, round);
    CHECK(affine_call(cl_a, split_a, m, 3, 1) == split);
    expect(3, 1);
  }
  CHECK(gathers() - gathers_before == 0);
  CHECK(partitions() - partitions_before == 0);
  CHECK(by_worker(peppher::auto_split_of("split_b", kRows)) == mine);

  // A host read gathers; the next `?` call splits the same way again (the container
  // remembers its split), and the call after it finds the blocks in place.
  CHECK(m(0, 0) == want[0]);
  CHECK(gathers() - gathers_before == 1);
  CHECK(affine_call(cl_b, split_b, m, 2, 2) == split);
  expect(2, 2);
  CHECK(affine_call(cl_a, split_a, m, 1, 1) == split);
  expect(1, 1);
  CHECK(gathers() - gathers_before == 1);
  CHECK(partitions() - partitions_before == 1);

  // A fixed block size that differs must split again: a gather, and right values.
  affine_call(cl_b, split_b, m, 1, 7, 400);
  expect(1, 7);
  CHECK(gathers() - gathers_before == 2);
  for (std::size_t i = 0; i < kRows * kCols; ++i)
    if (m(i / kCols, i % kCols) != want[i]) FAIL("m[" << i << "] = " << m(i / kCols, i % kCols));
}

TEST_CASE("fixed block sizes that coincide share the blocks; a different one gathers",
          "[partition]") {
  Session session;
  starpu_codelet cl_a = affine_codelet(), cl_b = affine_codelet();
  cl_a.name = "fixed_a";
  cl_b.name = "fixed_b";
  peppher::AutoSplit split_a("fixed_a"), split_b("fixed_b");
  Vector<std::uint32_t> v(12);
  std::vector<std::uint32_t> want(12);
  for (std::uint32_t i = 0; i < 12; ++i) v[i] = want[i] = i;
  auto expect = [&](std::uint32_t a, std::uint32_t b) {
    for (auto& x : want) x = x * a + b;
  };

  CHECK(affine_call(cl_a, split_a, v, 2, 1, 4) == std::vector<std::size_t>{4, 4, 4});
  expect(2, 1);
  const std::uint64_t before = gathers();
  // Blocks of at most 4 and of at most 5 elements: both 4 + 4 + 4, the same blocks.
  CHECK(affine_call(cl_b, split_b, v, 1, 3, 4) == std::vector<std::size_t>{4, 4, 4});
  expect(1, 3);
  CHECK(affine_call(cl_a, split_a, v, 3, 0, 5) == std::vector<std::size_t>{4, 4, 4});
  expect(3, 0);
  CHECK(gathers() - before == 0);
  // Blocks of at most 6: 6 + 6, split again.
  CHECK(affine_call(cl_b, split_b, v, 1, 1, 6) == std::vector<std::size_t>{6, 6});
  expect(1, 1);
  CHECK(gathers() - before == 1);
  CHECK(v.to_std() == want);
}

TEST_CASE("a `?` call keeps a container's current split when it is valid for the call",
          "[partition]") {
  Session session;
  starpu_codelet cl = affine_codelet();
  cl.name = "keep";
  peppher::AutoSplit split("keep");
  const std::size_t workers = peppher::detail::capable_workers(&cl).size();
  // 12 x 16 Ki elements (768 KiB): every worker's equal block is far above kMinBlockBytes.
  constexpr std::uint32_t kN = 12 * 16384, kQuarter = kN / 4;
  Vector<std::uint32_t> v(kN);
  std::vector<std::uint32_t> want(kN);
  for (std::uint32_t i = 0; i < kN; ++i) v[i] = want[i] = i;

  // Two blocks of a quarter and three quarters, as the program split it: one block per
  // worker when the codelet has two, so a `?` call keeps them; otherwise it splits equally
  // per worker.
  v.partition_sizes({kQuarter, kN - kQuarter});
  const std::uint64_t before = gathers();
  const std::vector<std::size_t> sizes = affine_call(cl, split, v, 2, 1);
  for (auto& x : want) x = x * 2 + 1;
  if (workers == 2) {
    CHECK(sizes == std::vector<std::size_t>{kQuarter, kN - kQuarter});
    CHECK(gathers() - before == 0);
  } else {
    CHECK(sizes == peppher::even_sizes(kN, workers));
    CHECK(gathers() - before == 1);
  }
  CHECK(v.to_std() == want);

  // Another extent: the remembered split does not fit one more element; the call splits
  // anew.
  v.resize(kN + 1);
  v[kN] = kN;
  want.push_back(kN);
  CHECK(affine_call(cl, split, v, 1, 1) == peppher::even_sizes(kN + 1, workers));
  for (auto& x : want) x += 1;
  CHECK(v.to_std() == want);
}

TEST_CASE("a `?` call with fewer workers keeps an equal split of more blocks",
          "[partition][opencl]") {
  Session session;
  starpu_codelet both = affine_codelet();  // CPU and OpenCL: one block per worker, two
  both.name = "both";
  starpu_codelet cpu = affine_codelet();  // CPU only (as a stencil with a halo)
  cpu.name = "cpu_only";
  cpu.opencl_funcs[0] = nullptr;
  REQUIRE(peppher::detail::capable_workers(&both).size() == 2);
  REQUIRE(peppher::detail::capable_workers(&cpu).size() == 1);
  peppher::AutoSplit split_both("both"), split_cpu("cpu_only");
  constexpr std::uint32_t kN = 100000;  // 390 KiB: two blocks above kMinBlockBytes
  Vector<std::uint32_t> v(kN);
  std::vector<std::uint32_t> want(kN);
  for (std::uint32_t i = 0; i < kN; ++i) v[i] = want[i] = i;

  CHECK(affine_call(both, split_both, v, 2, 1).size() == 2);
  const std::uint64_t before = gathers();
  for (int round = 0; round < 3; ++round) {
    // The CPU-only call's two blocks both run on the CPU worker; nothing is gathered.
    CHECK(affine_call(cpu, split_cpu, v, 3, 0).size() == 2);
    CHECK(affine_call(both, split_both, v, 1, 5).size() == 2);
  }
  CHECK(gathers() - before == 0);
  for (auto& x : want) {
    x = x * 2 + 1;  // the first call
    for (int round = 0; round < 3; ++round) x = x * 3 * 1 + 5;
  }
  CHECK(v.to_std() == want);
}

TEST_CASE("a `?` call of one block in one process partitions nothing", "[partition]") {
  Session session;
  starpu_codelet cl = affine_codelet();
  cl.name = "one_block";
  for (auto& f : cl.opencl_funcs) f = nullptr;  // the CPU workers only
  cl.where = STARPU_CPU;
  peppher::AutoSplit split("one_block");
  if (peppher::detail::capable_workers(&cl).size() != 1) return;  // one block per worker
  Vector<std::uint32_t> v(1000);
  std::vector<std::uint32_t> want(1000);
  for (std::uint32_t i = 0; i < 1000; ++i) v[i] = want[i] = i;
  const std::uint64_t before = partitions();
  for (int call = 0; call < 3; ++call) {
    // The block is the whole container: its task gets the container's own handle.
    CHECK(affine_call(cl, split, v, 3, 1) == std::vector<std::size_t>{1000});
    for (auto& x : want) x = x * 3 + 1;
  }
  CHECK(partitions() - before == 0);
  CHECK(v.to_std() == want);
}

// Issue 29: apps/ode's calls are `?` (for MPI) on vectors of a few KiB. In one process such
// a call is one block (the container's own handle: nothing partitioned, nothing gathered),
// whichever interfaces follow each other on the containers and however many workers can
// run them; a call with enough data still gets one block per worker.
TEST_CASE("small `?` calls are not split; large ones get one block per worker", "[partition]") {
  Session session;
  starpu_codelet both = affine_codelet();  // every worker (CPU workers and OpenCL devices)
  both.name = "small_both";
  starpu_codelet cpu = affine_codelet();  // CPU only (as apps/ode's stencil)
  cpu.name = "small_cpu";
  for (auto& f : cpu.opencl_funcs) f = nullptr;
  cpu.where = STARPU_CPU;
  const std::size_t workers = peppher::detail::capable_workers(&both).size();
  if (workers < 2) {
    WARN("one worker: every `?` call is one block anyway");
    return;
  }
  peppher::AutoSplit split_both("small_both"), split_cpu("small_cpu");
  constexpr std::uint32_t kSmall = 1000;  // 3.9 KiB, under kMinBlockBytes
  Vector<std::uint32_t> v(kSmall);
  std::vector<std::uint32_t> want(kSmall);
  for (std::uint32_t i = 0; i < kSmall; ++i) v[i] = want[i] = i;
  const std::uint64_t gathers_before = gathers(), partitions_before = partitions();
  for (std::uint32_t round = 0; round < 10; ++round) {
    CHECK(affine_call(both, split_both, v, 2, round) == std::vector<std::size_t>{kSmall});
    CHECK(affine_call(cpu, split_cpu, v, 1, 3) == std::vector<std::size_t>{kSmall});
    for (auto& x : want) x = (x * 2 + round) + 3;
  }
  CHECK(partitions() - partitions_before == 0);
  CHECK(gathers() - gathers_before == 0);
  CHECK(v.to_std() == want);

  // 390 KiB: one equal block per worker of the interface (each far above kMinBlockBytes).
  constexpr std::uint32_t kLarge = 100000;
  Vector<std::uint32_t> w(kLarge);
  CHECK(affine_call(both, split_both, w, 1, 1) == peppher::even_sizes(kLarge, workers));
}

TEST_CASE("unmodelled `?` splits: one block per worker, none under kMinBlockBytes", "[partition]") {
  using peppher::detail::kMinBlockBytes;
  using peppher::detail::unmodelled_blocks;
  CHECK(unmodelled_blocks(1000, 48 * 1024, 2) == 1);  // apps/ode's rk_update
  CHECK(unmodelled_blocks(1000, 0, 16) == 1);
  CHECK(unmodelled_blocks(100000, 400 * 1024, 2) == 2);
  CHECK(unmodelled_blocks(100000, 5 * kMinBlockBytes + 1, 16) == 5);
  CHECK(unmodelled_blocks(1 << 22, 32 << 20, 16) == 16);
  CHECK(unmodelled_blocks(3, 32 << 20, 16) == 3);  // at most one element each
}

TEST_CASE("model-sized `?` splits count transfers and never lose to one worker alone",
          "[partition]") {
  using peppher::detail::fastest_split;
  using peppher::detail::TransferCosts;
  const std::vector<int> cpu_dev = {0, 1};  // worker 0: a CPU, worker 1: a device
  // The device computes 10x faster but its data must cross a bus (0.4 us per element):
  // 1.0 against 0.5 us per element, so the CPU takes a third; counting the kernels only it
  // would take 1/11 and wait on the device's transfers.
  const auto with_bus = fastest_split(10000, cpu_dev, {1.0, 0.1}, TransferCosts{{0, 0.4}, {0, 0}});
  CHECK(with_bus.modelled);
  CHECK(with_bus.workers == cpu_dev);
  REQUIRE(with_bus.sizes.size() == 2);
  CHECK(with_bus.sizes[0] == 3333);
  CHECK(with_bus.sizes[1] == 6667);
  const auto kernels_only =
      fastest_split(10000, cpu_dev, {1.0, 0.1}, TransferCosts{{0, 0}, {0, 0}});
  REQUIRE(kernels_only.sizes.size() == 2);
  CHECK(kernels_only.sizes[0] == 909);

  // A small call: the device alone (6 us) beats any split (each block costs kBlockCostUs).
  const auto small = fastest_split(100, cpu_dev, {1.0, 0.05}, TransferCosts{{0, 0.01}, {0, 0}});
  CHECK(small.sizes == std::vector<std::size_t>{100});
  CHECK(small.workers == std::vector<int>{1});

  // The device far ahead (64 x) on a call of 100 us: the CPUs' blocks would save 6 us and
  // cost kBlockCostUs each. On 1000 elements they save 59 us, more than their cost.
  const std::vector<int> many = {0, 1, 2, 3, 4};
  const auto far = fastest_split(100, many, {64, 64, 64, 64, 1}, TransferCosts{});
  CHECK(far.sizes == std::vector<std::size_t>{100});
  CHECK(far.workers == std::vector<int>{4});
  CHECK(fastest_split(1000, many, {64, 64, 64, 64, 1}, TransferCosts{}).sizes.size() == 5);

  // A worker that must first receive a shared operand (fixed cost) longer than the others
  // take for the whole call is left out; the others split the call evenly.
  const auto fixed =
      fastest_split(30000, {0, 1, 2}, {1, 1, 1}, TransferCosts{{0, 0, 0}, {0, 0, 1e6}});
  CHECK(fixed.workers == std::vector<int>{0, 1});
  CHECK(fixed.sizes == std::vector<std::size_t>{15000, 15000});

  // Equal workers and a call of many microseconds: one block each, as before.
  const auto equal = fastest_split(1 << 20, {0, 1}, {0.01, 0.01}, TransferCosts{});
  CHECK(equal.sizes == peppher::even_sizes(1 << 20, 2));
}

namespace {

// A per-arch cost model (as prediction functions and trained tables give): a CPU worker
// takes 1/6 us per row of the block, any other 1.5 us (mat_affine's buffer 0: ny rows).
double rows_cost(starpu_task* task, starpu_perfmodel_arch* arch, unsigned /*nimpl*/) {
  const double rows = starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 0));
  return rows * (arch->devices[0].type == STARPU_CPU_WORKER ? 1.0 / 6 : 1.5);
}

}  // namespace

// Issue 42: a simulated run cannot calibrate a history model, and a program with prediction
// functions has its model from the first call: the split is sized from the cost model at the
// first call (Call::size_from_models: block 0 and the whole asked before submitting), with
// nothing measured, and kept by the next call.
TEST_CASE("a `?` split is sized from a per-arch cost model without measurements", "[partition]") {
  Session session;
  starpu_perfmodel model = peppher::make_cost_model("peppher_split_test_cost", rows_cost);
  starpu_codelet cl = mat_affine_codelet();
  cl.name = "split_cost";
  cl.model = &model;
  const std::size_t workers = peppher::detail::capable_workers(&cl).size();
  if (workers < 2) {
    WARN("one worker: nothing to split");
    return;
  }
  peppher::AutoSplit split("split_cost");
  constexpr std::size_t kRows = 1200, kCols = 32;  // 150 KiB: two equal blocks at least
  Matrix<std::uint32_t> m(kRows, kCols);
  std::vector<std::uint32_t> want(kRows * kCols);
  for (std::size_t i = 0; i < kRows * kCols; ++i)
    m(i / kCols, i % kCols) = want[i] = std::uint32_t(i);
  const std::vector<std::size_t> first = affine_call(cl, split, m, 2, 1);
  const peppher::Split s = peppher::auto_split_of("split_cost", kRows);
  REQUIRE(!s.sizes.empty());  // sized from the model at the first call
  CHECK(first == s.sizes);
  // Read on the host (the next reader its first split took for granted), then the same split
  // again: the provisional split, confirmed by a fresh one.
  CHECK(m(0, 0) == want[0] * 2 + 1);
  CHECK(affine_call(cl, split, m, 3, 0) == first);
  CHECK(peppher::auto_split_of("split_cost", kRows).sizes == s.sizes);
  CHECK(peppher::auto_split_of("split_cost", kRows).workers == s.workers);
  for (auto& x : want) x = (x * 2 + 1) * 3;
  CHECK(s.workers.size() == s.sizes.size());
  std::size_t on_cpus = 0, total = 0;
  for (std::size_t b = 0; b < s.sizes.size(); ++b) {
    total += s.sizes[b];
    if (starpu_worker_get_type(s.workers[b]) == STARPU_CPU_WORKER) on_cpus += s.sizes[b];
  }
  CHECK(total == kRows);
  // CPUs 9 times faster per row than any other worker: they take most rows (all when
  // the others' transfers cost more than their share saves).
  if (has_opencl()) CHECK(on_cpus > kRows * 3 / 4);
  for (std::size_t i = 0; i < kRows * kCols; ++i)
    if (m(i / kCols, i % kCols) != want[i]) FAIL("m[" << i << "] = " << m(i / kCols, i % kCols));
}

namespace {

// A per-arch cost model under which the OpenCL device takes rows: 1 us per row on a CPU
// worker, 0.25 us on any other.
double device_rows_cost(starpu_task* task, starpu_perfmodel_arch* arch, unsigned /*nimpl*/) {
  const double rows = starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, 0));
  return rows * (arch->devices[0].type == STARPU_CPU_WORKER ? 1.0 : 0.25);
}

std::size_t rows_off_cpus(const peppher::Split& s) {
  std::size_t rows = 0;
  for (std::size_t b = 0; b < s.sizes.size() && b < s.workers.size(); ++b)
    if (starpu_worker_get_type(s.workers[b]) != STARPU_CPU_WORKER) rows += s.sizes[b];
  return rows;
}

}  // namespace

// The first call cannot know where a written container goes next: one no call or host
// access read yet is taken to go home (charged the device block's copy back), provisionally.
// Calls that never read it on the host (no reader seen) size it afresh at the next call
// without that copy: the device takes more rows, and the values stay right.
TEST_CASE("a first call's `?` split that took the host for the next reader is provisional",
          "[partition]") {
  Session session;
  if (!has_opencl()) {
    WARN("no OpenCL worker: nothing goes home from a device");
    return;
  }
  starpu_perfmodel model = peppher::make_cost_model("peppher_split_test_prov", device_rows_cost);
  starpu_codelet cl = mat_affine_codelet();
  cl.name = "split_provisional";
  cl.model = &model;
  peppher::AutoSplit split("split_provisional");
  constexpr std::size_t kRows = 4800, kCols = 256;  // 4.7 MiB: its copy home counts
  Matrix<std::uint32_t> m(kRows, kCols);
  std::vector<std::uint32_t> want(kRows * kCols);
  for (std::size_t i = 0; i < kRows * kCols; ++i)
    m(i / kCols, i % kCols) = want[i] = std::uint32_t(i);
  affine_call(cl, split, m, 2, 1);
  const peppher::Split first = peppher::auto_split_of("split_provisional", kRows);
  REQUIRE(!first.sizes.empty());
  affine_call(cl, split, m, 3, 0);  // no host access between: no reader seen
  const peppher::Split second = peppher::auto_split_of("split_provisional", kRows);
  REQUIRE(!second.sizes.empty());
  INFO("rows off the CPUs: first call " << rows_off_cpus(first) << ", second "
                                        << rows_off_cpus(second));
  CHECK(rows_off_cpus(second) > rows_off_cpus(first));
  // A third call keeps the second's split (not provisional).
  affine_call(cl, split, m, 1, 5);
  CHECK(peppher::auto_split_of("split_provisional", kRows).sizes == second.sizes);
  for (auto& x : want) x = (x * 2 + 1) * 3 + 5;
  for (std::size_t i = 0; i < kRows * kCols; ++i)
    if (m(i / kCols, i % kCols) != want[i]) FAIL("m[" << i << "] = " << m(i / kCols, i % kCols));
}

namespace {

// A task's 7 us plus 0.5 us per element of its vector (a model of functions: asked, never
// measured).
double fixed_and_per_element_us(starpu_task* task, unsigned /*nimpl*/) {
  return 7.0 + 0.5 * starpu_vector_get_nx(STARPU_TASK_GET_HANDLE(task, 0));
}

void never_run(void** /*buffers*/, void* /*arg*/) {}

}  // namespace

TEST_CASE("a model of functions asked on a block and on the whole tells a block's fixed cost",
          "[partition]") {
  HistoryModel model("peppher_split_test_", "fixed");  // outlives the session
  model.model.type = STARPU_COMMON;
  model.model.cost_function = fixed_and_per_element_us;
  Session session;
  starpu_codelet cl{};
  cl.cpu_funcs[0] = never_run;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  cl.model = &model.model;
  const std::vector<int> workers = peppher::detail::capable_workers(&cl);
  REQUIRE(!workers.empty());
  constexpr std::size_t kN = 4000, kBlocks = 4;
  starpu_data_handle_t block, whole;
  starpu_vector_data_register(&block, -1, 0, kN / kBlocks, sizeof(float));
  starpu_vector_data_register(&whole, -1, 0, kN, sizeof(float));
  auto task_on = [&](starpu_data_handle_t h) {
    starpu_task* task = starpu_task_create();
    task->cl = &cl;
    task->handles[0] = h;
    task->destroy = 0;
    return task;
  };
  starpu_task *block_task = task_on(block), *whole_task = task_on(whole);
  peppher::AutoSplit split("split_fixed");
  split.seen(kN, workers, &model.model);
  std::vector<double> per_element, per_block;
  // Both sizes: the line through them (StarPU scales a common model per kind of worker).
  split.remember(kN, workers, &model.model, block_task, kBlocks, whole_task);
  REQUIRE(split.predict(kN, workers, per_element, per_block) ==
          peppher::AutoSplit::Prediction::Known);
  REQUIRE(per_element.size() == workers.size());
  for (std::size_t w = 0; w < workers.size(); ++w) {
    CHECK(per_element[w] > 0);
    CHECK(per_block[w] / per_element[w] == Approx(7.0 / 0.5));
  }
  // The block alone: its time over its size, all per element.
  split.remember(kN, workers, &model.model, block_task, kBlocks);
  REQUIRE(split.predict(kN, workers, per_element, per_block) ==
          peppher::AutoSplit::Prediction::Known);
  for (std::size_t w = 0; w < workers.size(); ++w) {
    CHECK(per_block[w] == 0);
    const double block_us = starpu_task_expected_length(
        block_task, starpu_worker_get_perf_archtype(workers[w], STARPU_NMAX_SCHED_CTXS), 0);
    CHECK(per_element[w] == Approx(block_us / (kN / kBlocks)));
  }
  starpu_task_destroy(block_task);
  starpu_task_destroy(whole_task);
  starpu_data_unregister(block);
  starpu_data_unregister(whole);
}
