// Calls whose history model is still learning (docs/SELECTION.md): CalibratingChoice runs the
// no-model choice first (data where it is; the OpenMP variant on the largest combined worker),
// as a task that keeps the model so that its time is recorded under the variant's own
// implementation index, then each unmeasured variant once, then the measured best; once
// every candidate is measured StarPU's scheduler chooses (-1). An OpenMP variant never runs
// on one core of a run that has combined workers (detail::openmp_may_run).
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>

#include "devices/devices.h"
#include "peppher/placement.h"
#include "peppher_catch.h"
#include "support.h"
#include "unsubmitted_task.h"

using namespace peppher_test;

namespace {

// The size of the (combined) worker the last "CPU" task ran on.
std::atomic<int> g_ran_on_cores{0};

void add_one(void* buffers[], void*) {
  auto* v = reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  const unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
  for (unsigned i = 0; i < n; ++i) v[i] += 1;
  g_ran_on_cores = starpu_combined_worker_get_size();
}

void never_run(void*[], void*) {}

// What a generated can_execute says for seq (CPU slot 0), omp (CPU slot 1) and ocl (OpenCL
// slot 0): seq on single workers, omp where openmp_may_run allows it.
int can_execute(unsigned workerid, starpu_task*, unsigned nimpl) {
  const bool combined = workerid >= starpu_worker_get_count();
  const starpu_worker_archtype kind =
      combined ? STARPU_CPU_WORKER : starpu_worker_get_type(static_cast<int>(workerid));
  if (kind == STARPU_OPENCL_WORKER) return nimpl == 0;
  if (nimpl == 0) return !combined;
  return nimpl == 1 && peppher::detail::openmp_may_run(workerid, true);
}

// The interface's codelet: seq and omp on the CPU, ocl on the device, with @p model.
starpu_codelet interface_codelet(starpu_perfmodel* model) {
  starpu_codelet cl;
  std::memset(&cl, 0, sizeof cl);
  starpu_codelet_init(&cl);
  cl.name = "calibrating_test";
  cl.type = STARPU_FORKJOIN;
  cl.max_parallelism = INT_MAX;
  cl.cpu_funcs[0] = add_one;
  cl.cpu_funcs[1] = add_one;
  cl.opencl_funcs[0] = never_run;
  cl.can_execute = can_execute;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  cl.model = model;
  return cl;
}

const signed char kSlots[] = {0, 1, 0};  // seq, omp (CPU slots), ocl (OpenCL slot)

// The choice for one call on @p v of the variants @p selector (all accepting).
int choose(starpu_codelet& cl, const peppher::VariantSelector& selector,
           peppher::Vector<std::uint32_t>& v) {
  return choice_for<peppher::CalibratingChoice>(cl, selector, kSlots, v);
}

starpu_perfmodel_arch* arch_of(int worker) {
  return starpu_worker_get_perf_archtype(worker, STARPU_NMAX_SCHED_CTXS);
}

// Gives the model 12 measurements of @p us for variant slot @p slot on @p worker's arch.
void measure(starpu_codelet& cl, peppher::Vector<std::uint32_t>& v, int worker, int slot,
             double us) {
  UnsubmittedTask t(cl, v);
  for (int i = 0; i < 12; ++i)
    starpu_perfmodel_update_history(cl.model, t.task, arch_of(worker),
                                    static_cast<unsigned>(worker), static_cast<unsigned>(slot), us);
}

double expected(starpu_codelet& cl, peppher::Vector<std::uint32_t>& v, int worker, int slot) {
  UnsubmittedTask t(cl, v);
  return starpu_task_expected_length(t.task, arch_of(worker), static_cast<unsigned>(slot));
}

// The bytes whose move from host memory to @p node is predicted (transfer_predict_us: latency
// plus bytes over bandwidth) to take @p us, a multiple of 4; 0 above 1 GB.
std::size_t bytes_moved_in(double us, unsigned node) {
  constexpr std::size_t kMB = 1 << 20;
  const double one = peppher::detail::transfer_predict_us(STARPU_MAIN_RAM, node, kMB);
  const double us_per_mb =
      peppher::detail::transfer_predict_us(STARPU_MAIN_RAM, node, 2 * kMB) - one;
  const double latency = one - us_per_mb;
  REQUIRE(us_per_mb > 0);
  REQUIRE(latency < us);
  const double mb = (us - latency) / us_per_mb;
  if (mb > 1024) return 0;
  return static_cast<std::size_t>(mb * kMB) / 4 * 4;
}

// What the choice expects moving @p v (read and written by the call) to @p node to take.
double move_us(peppher::Vector<std::uint32_t>& v, unsigned node) {
  peppher::PlacementChoice placement;
  placement.container(v, STARPU_RW);
  return placement.transfer_us(node);
}

peppher::Config pheft(int ncpus, int nopencl) {
  peppher::Config c = peppher::Config::with_scheduler("pheft");
  c.ncpus = ncpus;
  c.nopencl = nopencl;
  return c;
}

}  // namespace

TEST_CASE("a call still learning runs the OpenMP variant on all cores and records its time there",
          "[calibrating]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  // Outlives the runtime, which saves the model at shutdown.
  HistoryModel hm("peppher_calibrating_test_", "omp");
  peppher::Runtime runtime(pheft(2, 0));
  const int largest = peppher::detail::largest_combined_worker();
  REQUIRE(largest >= 0);
  const int cpu = starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
  // Never on one core of a run with combined workers, whatever a sequential variant says.
  CHECK(peppher::detail::openmp_may_run(static_cast<unsigned>(largest), true));
  CHECK_FALSE(peppher::detail::openmp_may_run(static_cast<unsigned>(cpu), false));

  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_omp", {"seq", "omp"}, {"CPU", "OPENMP"});
  peppher::Vector<std::uint32_t> v(1 << 12, 1u);
  // Nothing measured: the OpenMP variant (data at home).
  REQUIRE(choose(cl, selector, v) == 1);
  // Its task keeps the model: run alone, on the largest combined worker, and measured there
  // under implementation 1 (not 0, as a single-implementation codelet would record it).
  starpu_codelet omp = peppher::model_codelet(cl, STARPU_CPU, 1);
  {
    starpu_task* task = starpu_task_create();
    task->cl = &omp;
    task->handles[0] = v.handle_for_task();
    task->synchronous = 1;
    REQUIRE(starpu_task_submit(task) == 0);
  }
  CHECK(g_ran_on_cores == static_cast<int>(starpu_cpu_worker_get_count()));
  CHECK(std::isfinite(expected(cl, v, largest, 1)));
  CHECK(std::isnan(expected(cl, v, largest, 0)));
  CHECK(std::isnan(expected(cl, v, cpu, 1)));
  // Next: the unmeasured sequential variant, once (its data is at home too).
  CHECK(choose(cl, selector, v) == 0);
  CHECK(choose(cl, selector, v) == 1);  // explored in this process: the measured best
  measure(cl, v, cpu, 0, 1e6);
  CHECK(choose(cl, selector, v) == -1);  // all measured (seq 12 times): pheft chooses
  CHECK(v[0] == 2u);

  // A measured variant that is not the best, with one measurement only, runs once more in a
  // later process too, at its first call (a program may call once per run).
  peppher::Vector<std::uint32_t> w(1 << 13, 1u);
  {
    UnsubmittedTask t(cl, w);
    for (int i = 0; i < 2; ++i)  // StarPU drops an entry's first measurement: 1 kept
      starpu_perfmodel_update_history(cl.model, t.task, arch_of(largest),
                                      static_cast<unsigned>(largest), 1, 100);
  }
  measure(cl, w, cpu, 0, 80);
  CHECK(choose(cl, selector, w) == 1);   // omp once more (1 measurement)
  CHECK(choose(cl, selector, w) == -1);  // once per process: the model decides
  CHECK(choose(cl, selector, w) == -1);
}

TEST_CASE(
    "a measured loser whose measurements leave it plausibly the best keeps running now and "
    "then, less often as the best's measurements grow",
    "[calibrating]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  HistoryModel hm("peppher_calibrating_test_", "plausible");
  peppher::Runtime runtime(pheft(2, 0));
  const int largest = peppher::detail::largest_combined_worker();
  REQUIRE(largest >= 0);
  const int cpu = starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_plausible", {"seq", "omp"}, {"CPU", "OPENMP"});
  // The OpenMP variant's measurements on a data size; StarPU drops an entry's first one.
  auto omp_measured = [&](peppher::Vector<std::uint32_t>& v, std::initializer_list<double> us) {
    UnsubmittedTask t(cl, v);
    auto update = [&](double value) {
      starpu_perfmodel_update_history(cl.model, t.task, arch_of(largest),
                                      static_cast<unsigned>(largest), 1, value);
    };
    update(*us.begin());  // dropped
    for (double value : us) update(value);
  };
  // The sequential variant is the best, 90 us in 11 measurements (log2: 3.5).
  // 80 and 118 us (mean 99, deviation 19): plausibly faster than 90, 2 measurements of 3.5.
  peppher::Vector<std::uint32_t> wide(1 << 12, 1u);
  measure(cl, wide, cpu, 0, 90);
  omp_measured(wide, {80, 118});
  CHECK(choose(cl, selector, wide) == 1);   // once more
  CHECK(choose(cl, selector, wide) == -1);  // once per session: the model decides
  // 150 and 154 us: more than two deviations above 90, never run again.
  peppher::Vector<std::uint32_t> narrow(1 << 13, 1u);
  measure(cl, narrow, cpu, 0, 90);
  omp_measured(narrow, {150, 154});
  CHECK(choose(cl, selector, narrow) == -1);
  // Plausible, but already as many measurements as log2 of the best's.
  peppher::Vector<std::uint32_t> enough(1 << 14, 1u);
  measure(cl, enough, cpu, 0, 90);
  omp_measured(enough, {80, 118, 100, 100});
  CHECK(choose(cl, selector, enough) == -1);
}

TEST_CASE(
    "a call whose size changes explores a variant once per doubling of the work, not at "
    "every size where it lost clearly nearby",
    "[calibrating]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  HistoryModel hm("peppher_calibrating_test_", "sizes");
  peppher::Runtime runtime(pheft(2, 0));
  const int largest = peppher::detail::largest_combined_worker();
  REQUIRE(largest >= 0);
  const int cpu = starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_sizes", {"seq", "omp"}, {"CPU", "OPENMP"});
  // As a program with shrinking operands (LU's trailing matrix) meets them: both variants
  // measured at 4,096 elements, the sequential one 10x slower; then only the OpenMP one
  // (its first run's choice) at each smaller size. "Nearby": the OpenMP variant's time (the
  // measured best's) within a factor 2 of its time there.
  peppher::Vector<std::uint32_t> both(4096, 1u);
  measure(cl, both, largest, 1, 100);
  measure(cl, both, cpu, 0, 1000);
  // OpenMP 98 and 50 us (within a factor 2 of 100): seq lost clearly nearby, not explored.
  for (const double omp_us : {98.0, 50.0}) {
    INFO("OpenMP variant: " << omp_us << " us");
    peppher::Vector<std::uint32_t> v(static_cast<std::size_t>(omp_us * 40), 1u);
    measure(cl, v, largest, 1, omp_us);
    for (int call = 0; call < 2; ++call) CHECK(choose(cl, selector, v) == 1);
  }
  // 40 us: more than a factor 2 from every call seq was measured at: explored.
  peppher::Vector<std::uint32_t> far(1600, 1u);
  measure(cl, far, largest, 1, 40);
  CHECK(choose(cl, selector, far) == 0);
  // Where seq won nearby (2 us against 20), or lost by less than its measurements' spread
  // (80 and 118 us against 90: mean 99, deviation 19), it is explored at the next size too.
  peppher::Vector<std::uint32_t> won(800, 1u), won_near(790, 1u);
  measure(cl, won, largest, 1, 20);
  measure(cl, won, cpu, 0, 2);
  measure(cl, won_near, largest, 1, 19.8);
  CHECK(choose(cl, selector, won_near) == 0);
  peppher::Vector<std::uint32_t> wide(3600, 1u), wide_near(3590, 1u);
  measure(cl, wide, largest, 1, 90);
  {
    UnsubmittedTask t(cl, wide);
    for (const double us : {80.0, 80.0, 118.0})  // StarPU drops an entry's first
      starpu_perfmodel_update_history(cl.model, t.task, arch_of(cpu), static_cast<unsigned>(cpu), 0,
                                      us);
  }
  measure(cl, wide_near, largest, 1, 90);
  CHECK(choose(cl, selector, wide_near) == 0);
}

TEST_CASE("a variant runs until StarPU predicts it when it asks for several measurements",
          "[calibrating]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  // A user's STARPU_CALIBRATE_MINIMUM wins over the runtime's 1 (read by starpu_init).
  ScopedEnv minimum("STARPU_CALIBRATE_MINIMUM", "3");
  HistoryModel hm("peppher_calibrating_test_", "minimum");
  peppher::Runtime runtime(pheft(2, 0));
  const int largest = peppher::detail::largest_combined_worker();
  REQUIRE(largest >= 0);
  const int cpu = starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_minimum", {"seq", "omp"}, {"CPU", "OPENMP"});
  peppher::Vector<std::uint32_t> v(1 << 12, 1u);
  REQUIRE(choose(cl, selector, v) == 1);  // nothing measured: OpenMP on all cores
  measure(cl, v, largest, 1, 100);
  UnsubmittedTask t(cl, v);
  // seq runs, its measurement arrives (StarPU still predicts nothing with fewer than 3),
  // seq runs again; in between, the measured best. The third measurement is ten times the
  // mean: StarPU sets it aside (STARPU_HISTORY_MAX_ERROR), counting an error, not a sample,
  // and seq still runs again.
  for (const double us : {50.0, 50.0, 500.0, 50.0}) {
    CHECK(choose(cl, selector, v) == 0);
    CHECK(choose(cl, selector, v) == 1);  // seq's run has not been measured yet
    CHECK(std::isnan(expected(cl, v, cpu, 0)));
    starpu_perfmodel_update_history(cl.model, t.task, arch_of(cpu), static_cast<unsigned>(cpu), 0,
                                    us);
  }
  CHECK(expected(cl, v, cpu, 0) == Approx(50));
  CHECK(choose(cl, selector, v) == -1);  // both predicted: pheft chooses
}

TEST_CASE("a call still learning explores each variant once, skips one that cannot win",
          "[calibrating][opencl]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  // Outlives the runtime, which saves the model at shutdown.
  HistoryModel hm("peppher_calibrating_test_", "ocl");
  peppher::Runtime runtime(pheft(2, 1));
  load_kernels();
  const int largest = peppher::detail::largest_combined_worker();
  if (!has_opencl() || largest < 0) return;
  const int cpu = starpu_worker_get_by_type(STARPU_CPU_WORKER, 0);
  const int ocl = starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0);
  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_ocl", {"seq", "omp", "ocl"},
                                    {"CPU", "OPENMP", "OPENCL"});
  peppher::Vector<std::uint32_t> v(1 << 12, 1u);
  CHECK(choose(cl, selector, v) == 1);  // nothing measured: OpenMP, data at home
  measure(cl, v, largest, 1, 1e6);      // a slow OpenMP variant
  CHECK(choose(cl, selector, v) == 0);  // the unmeasured one whose data is already there
  CHECK(choose(cl, selector, v) == 2);  // then the device's
  CHECK(choose(cl, selector, v) == 1);  // both explored, not measured yet: the measured best
  measure(cl, v, cpu, 0, 10);
  CHECK(choose(cl, selector, v) == 0);  // the device's still unmeasured, already explored
  measure(cl, v, ocl, 0, 20);
  CHECK(choose(cl, selector, v) == -1);  // all measured: pheft chooses

  // Another data size: when moving 64 MB to the device alone costs more than the measured
  // variants' time, the device's variant is not explored at all.
  peppher::Vector<std::uint32_t> big(1 << 24, 1u);
  measure(cl, big, largest, 1, 1);
  measure(cl, big, cpu, 0, 2);
  for (int call = 0; call < 3; ++call) CHECK(choose(cl, selector, big) == 1);
}

TEST_CASE(
    "a call exploring its host variants needs no device once the device's variant cannot win "
    "(the next run may start none)",
    "[calibrating][opencl]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  HistoryModel hm("peppher_calibrating_test_", "note");
  peppher::Runtime runtime(pheft(2, 1));
  load_kernels();
  const int largest = peppher::detail::largest_combined_worker();
  if (!has_opencl() || largest < 0) return;
  const int ocl = starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0);
  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_note", {"seq", "omp", "ocl"},
                                    {"CPU", "OPENMP", "OPENCL"});
  CHECK(peppher::detail::calls_noted_best_on_host());  // nothing noted yet
  // The device's variant measured 10x slower than the OpenMP one; the sequential one runs to
  // be measured: whatever it measures, the call's best is on the host.
  peppher::Vector<std::uint32_t> v(1 << 12, 1u);
  measure(cl, v, largest, 1, 100);
  measure(cl, v, ocl, 0, 1000);
  CHECK(choose(cl, selector, v) == 0);
  CHECK(peppher::detail::calls_noted_best_on_host());
  // The device's variant not measured (its moves cheap against 1 ms): it may still win.
  peppher::Vector<std::uint32_t> w(1 << 13, 1u);
  measure(cl, w, largest, 1, 1000);
  CHECK(choose(cl, selector, w) == 0);  // no moves: first
  CHECK_FALSE(peppher::detail::calls_noted_best_on_host());
}

TEST_CASE(
    "a first call that would run a sequential variant on one core runs the device's "
    "variant when its data moves there cheaply",
    "[calibrating][opencl]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  HistoryModel hm("peppher_calibrating_test_", "first");
  peppher::Runtime runtime(pheft(1, 1));  // no combined worker: no OpenMP variant on all cores
  load_kernels();
  if (!has_opencl()) return;
  const unsigned node = starpu_worker_get_memory_node(
      static_cast<unsigned>(starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0)));
  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_first", {"seq", "omp", "ocl"},
                                    {"CPU", "OPENMP", "OPENCL"});
  peppher::Vector<std::uint32_t> small(1 << 12, 1u);  // 16 KB: moved in microseconds
  CHECK(choose(cl, selector, small) == 2);
  // Data whose move alone is expected to take 10 ms (within the 20 ms budget): the device's
  // variant; 60 ms (beyond it): the sequential variant, where the data is. Sized from the
  // prediction the choice makes, its latency paid once (not once per MB: with StarPU's
  // measured latency of 170 us and a kept bandwidth of 15 GB/s, both measured at an earlier
  // start on a loaded machine, "60 ms" was 251 MB predicted at 18 ms, and the device's
  // variant was right).
  const struct {
    double us;
    int variant;
  } moves[] = {{10000, 2}, {60000, 0}};
  for (const auto& move : moves) {
    INFO(move.us << " us");
    const std::size_t bytes = bytes_moved_in(move.us, node);
    if (bytes == 0) {
      WARN("copies to the OpenCL device are too fast here to take that long with 1 GB");
      return;
    }
    peppher::Vector<std::uint32_t> v(bytes / sizeof(std::uint32_t), 1u);
    REQUIRE(move_us(v, node) == Approx(move.us).epsilon(0.01));
    CHECK(choose(cl, selector, v) == move.variant);
  }
}

TEST_CASE("without combined workers the OpenMP variant gives way to a sequential one",
          "[calibrating]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  // Outlives the runtime, which saves the model at shutdown.
  HistoryModel hm("peppher_calibrating_test_", "one");
  peppher::Runtime runtime(pheft(1, 0));
  REQUIRE(peppher::detail::largest_combined_worker() == -1);
  const unsigned cpu = static_cast<unsigned>(starpu_worker_get_by_type(STARPU_CPU_WORKER, 0));
  CHECK_FALSE(peppher::detail::openmp_may_run(cpu, true));  // one thread: seq instead
  CHECK(peppher::detail::openmp_may_run(cpu, false));       // unless only it accepts
  starpu_codelet cl = interface_codelet(&hm.model);
  peppher::VariantSelector selector("calibrating_one", {"seq", "omp"}, {"CPU", "OPENMP"});
  peppher::Vector<std::uint32_t> v(64, 1u);
  CHECK(choose(cl, selector, v) == -1);  // one candidate (seq): nothing to learn
}
