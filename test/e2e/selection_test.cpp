// End to end, selectability constraints and tunable expansion (issue 6): compose -> build
// (-Werror) -> run on StarPU. Each call runs on the variant its constraints allow; a call
// no variant accepts fails with a message naming the values; tunable copies all run.
#include <fstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::kCpuAndOpenCl;
using e2e::kCpuOnly;
using e2e::run_program;

namespace {

const fs::path& selection_program() {
  static const fs::path kExe =
      compose_and_build("selection", cases() / "selection/main.xml") / "selection";
  return kExe;
}

}  // namespace

TEST_CASE("e2e selection: each size runs on the variant its constraints allow") {
  e2e::Run r = run_program(selection_program(), "sel 100 5000 999 1000", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("selection: 0 wrong"));
  CHECK(e2e::report_count(r.output, "sel_cpu", "CPU") == 2);        // 100, 999
  CHECK(e2e::report_count(r.output, "sel_opencl", "OpenCL") == 2);  // 5000, 1000
  CHECK(e2e::report_count(r.output, "sel_cpu", "OpenCL") == 0);
}

TEST_CASE("e2e selection: a call no variant accepts fails with the values and the reasons") {
  e2e::Run r = run_program(selection_program(), "sel 0 100", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains(
                           "selection: caught: peppher: sel: no variant accepts this call (n = 0): "
                           "sel_cpu (CPU): constraint 'positive': n > 0 is false; "
                           "sel_opencl (OPENCL): constraint 'large': n >= 1000 is false"));
  CHECK(e2e::report_count(r.output, "sel_cpu", "CPU") == 1);  // the next call still runs

  // The accepting variant's backend has no worker in this run: said so, no hang.
  e2e::Run cpu = run_program(selection_program(), "sel 5000", kCpuOnly);
  INFO(cpu.output);
  CHECK_THAT(cpu.output, Catch::Contains("sel: no variant accepts this call (n = 5000): "
                                         "sel_cpu (CPU): constraint 'small': n < 1000 is false; "
                                         "sel_opencl (OPENCL): no OPENCL worker in this run"));
}

TEST_CASE("e2e selection: constraints on matrix extents pick the variant and refuse a mismatch") {
  // shape_cpu takes a.cols < 64, shape_opencl a.cols >= 64; both need a and b of one shape.
  e2e::Run narrow = run_program(selection_program(), "shape 10 8 10 8", kCpuAndOpenCl);
  INFO(narrow.output);
  CHECK_THAT(narrow.output, Catch::Contains("selection: 0 wrong"));
  CHECK(e2e::report_count(narrow.output, "shape_cpu", "CPU") == 1);
  e2e::Run wide = run_program(selection_program(), "shape 10 100 10 100", kCpuAndOpenCl);
  INFO(wide.output);
  CHECK_THAT(wide.output, Catch::Contains("selection: 0 wrong"));
  CHECK(e2e::report_count(wide.output, "shape_opencl", "OpenCL") == 1);

  // A mismatch is refused in the caller's thread, before any task exists.
  e2e::Run bad = run_program(selection_program(), "shape 10 8 9 8", kCpuAndOpenCl);
  INFO(bad.output);
  CHECK(bad.exit_code == 0);
  CHECK_THAT(bad.output,
             Catch::Contains("selection: caught: peppher: shape: no variant accepts this call "
                             "(a.rows = 10, b.rows = 9, a.cols = 8, b.cols = 8): shape_cpu (CPU): "
                             "constraint 'same': a.rows == b.rows && a.cols == b.cols is false; "
                             "shape_opencl (OPENCL): constraint 'same': a.rows == b.rows && "
                             "a.cols == b.cols is false, constraint 'wide': a.cols >= 64 is "
                             "false"));
  CHECK(e2e::report_count(bad.output, "shape_cpu", "CPU") == 0);
}

TEST_CASE("e2e selection: a tunable variant expands into one variant per value") {
  e2e::Run r = run_program(selection_program(), "tune", kCpuOnly);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("selection: 0 wrong"));
  for (const char* v : {"tune_cpu__BLOCK_16", "tune_cpu__BLOCK_32", "tune_cpu__BLOCK_64"}) {
    INFO(v);
    CHECK(e2e::report_count(r.output, v, "CPU") == 1);
  }
}

TEST_CASE("e2e generic: sort<T> expands per type and runs on CPU and OpenCL") {
  const fs::path out = compose_and_build("generic", cases() / "generic/main.xml");
  for (const char* env : {kCpuAndOpenCl, e2e::kOpenClOnly, kCpuOnly}) {
    e2e::Run r = run_program(out / "generic", "0 1 17 1000 4097", env);
    INFO(env << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("generic: 0 wrong"));
    for (const char* type : {"int", "float", "double"}) {
      const std::string iface = std::string("sort<") + type + ">";
      INFO(iface);
      CHECK_THAT(r.output, Catch::Contains(iface));
    }
  }
  e2e::Run opencl = run_program(out / "generic", "100", e2e::kOpenClOnly);
  CHECK(e2e::report_count(opencl.output, "sort_opencl", "OpenCL") == 3);

  // A type that was not instantiated stops the build with a message saying what to do.
  e2e::Run bad = e2e::run("make -C " + out.string() +
                          " -B obj/main/main.o PEPPHER_WARNINGS=-DGENERIC_TEST_UNINSTANTIATED");
  INFO(bad.output);
  CHECK(bad.exit_code != 0);
  CHECK_THAT(bad.output, Catch::Contains("sort is not instantiated for these types"));
}

namespace {

// The training case, copied into the work folder: training writes its table next to
// main.xml. Trained once (deterministic sleeping variants, 7 sizes, 3 timed calls each).
const fs::path& trained_app() {
  static const fs::path kApp = [] {
    fs::path dir = e2e::fresh_work_dir("training_app");
    fs::copy(cases() / "training", dir, fs::copy_options::recursive);
    e2e::Run trained =
        e2e::compose(dir / "main.xml", dir / "train", "--train",
                     std::string(kCpuOnly) + " PEPPHER_TRAIN_POINTS=7 PEPPHER_TRAIN_REPS=3");
    INFO(trained.output);
    REQUIRE(trained.exit_code == 0);
    return dir;
  }();
  return kApp;
}

fs::path table_of(const fs::path& app) {
  for (const auto& entry : fs::directory_iterator(app)) {
    if (entry.path().filename().string().rfind("peppher_perf.", 0) == 0) return entry.path();
  }
  return {};
}

}  // namespace

TEST_CASE("e2e training: the table, --explain, static dispatch and the seeded cost model") {
  const fs::path app = trained_app();
  const fs::path table = table_of(app);
  REQUIRE(!table.empty());

  e2e::Run explained = e2e::compose(app / "main.xml", app / "explain", "--explain");
  INFO(explained.output);
  CHECK(explained.exit_code == 0);
  CHECK_THAT(explained.output,
             Catch::Contains("n=10 .. ") && Catch::Contains("n=1000: cross_large"));
  CHECK_THAT(explained.output, Catch::Contains(": cross_small\n"));
  CHECK(!fs::exists(app / "explain"));  // --explain writes nothing

  // Static dispatch: the entry wrapper follows the table, no run-time learning.
  const fs::path fixed = compose_and_build("training_static", app / "main.xml", "-staticDispatch");
  e2e::Run r = run_program(fixed / "training", "crossing 20 900 20", kCpuOnly);
  INFO(r.output);
  CHECK_THAT(r.output, Catch::Contains("training: 0 wrong"));
  CHECK(e2e::report_count(r.output, "cross_small", "CPU") == 2);
  CHECK(e2e::report_count(r.output, "cross_large", "CPU") == 1);

  // Without it, the table becomes dmda's cost model: the same choice from the first call.
  const fs::path seeded = compose_and_build("training_seeded", app / "main.xml");
  e2e::Run s = run_program(seeded / "training", "crossing 20 20 900", kCpuOnly);
  INFO(s.output);
  CHECK(e2e::report_count(s.output, "cross_small", "CPU") == 2);
  CHECK(e2e::report_count(s.output, "cross_large", "CPU") == 1);

  // A forced variant runs every call; an unknown one is an error.
  e2e::Run forced = run_program(seeded / "training", "crossing 20 20",
                                std::string(kCpuOnly) + " PEPPHER_VARIANT=crossing=cross_large");
  CHECK(e2e::report_count(forced.output, "cross_large", "CPU") == 2);
  e2e::Run unknown = run_program(seeded / "training", "crossing 20",
                                 std::string(kCpuOnly) + " PEPPHER_VARIANT=crossing=nope");
  CHECK(unknown.exit_code != 0);
  CHECK_THAT(unknown.output, Catch::Contains("PEPPHER_VARIANT: 'crossing=nope' names no composed"));
}

TEST_CASE("e2e prediction functions become the per-arch cost model") {
  const fs::path out = compose_and_build("predicted", cases() / "training/main.xml");
  e2e::Run r = run_program(out / "training", "predicted 20 900 20", kCpuOnly);
  INFO(r.output);
  CHECK_THAT(r.output, Catch::Contains("training: 0 wrong"));
  CHECK(e2e::report_count(r.output, "pred_small", "CPU") == 2);
  CHECK(e2e::report_count(r.output, "pred_large", "CPU") == 1);
}

TEST_CASE("e2e -staticDispatch without a table says how to make one") {
  const fs::path out = e2e::fresh_work_dir("no_table");
  e2e::Run r = e2e::compose(cases() / "selection/main.xml", out / "gen", "-staticDispatch");
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.output, Catch::Contains("cannot open performance table") &&
                           Catch::Contains("run compose --train main.xml first"));
  CHECK(!fs::exists(out / "gen"));
}

TEST_CASE("e2e training keeps the fastest tunable copies when StarPU's slots run out") {
  const fs::path app = trained_app();  // trained all six BLOCK copies (two outside the codelet)
  const fs::path out = e2e::fresh_work_dir("training_blocked");
  e2e::Run composed = e2e::compose(app / "main.xml", out / "gen");
  INFO(composed.output);
  REQUIRE(composed.exit_code == 0);
  CHECK_THAT(composed.output,
             Catch::Contains("kept the fastest in") &&
                 Catch::Contains("dropped 'blocked_cpu__BLOCK_10', 'blocked_cpu__BLOCK_20'"));
  e2e::Run built = e2e::make(out / "gen");
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  e2e::Run r = run_program(out / "gen" / "training", "blocked 150 150", kCpuOnly);
  INFO(r.output);
  CHECK_THAT(r.output, Catch::Contains("training: 0 wrong"));
  CHECK(e2e::report_count(r.output, "blocked_cpu__BLOCK_60", "CPU") == 2);  // the fastest
}

TEST_CASE("e2e OpenMP: the models choose the OpenMP variant on a combined worker, unforced") {
  // work_cpu sleeps 70 ms; work_openmp 100 ms shared by its threads: 100 ms on one core,
  // 50 ms on a team of two (margins wider than a loaded machine's team wake-up, which took
  // 14 ms at a load average of 10). The composition has history models and an OPENMP
  // variant, so peppher.h starts pheft; once calibrated, the models pick work_openmp on all
  // cores with two CPUs, and work_cpu with one: raw-pointer calls with nothing in flight, so
  // each runs on the calling thread (docs/SELECTION.md), the OpenMP one with a team of two.
  // StarPU flushes an entry whose measurement strays more than 50 % from its mean (a 30 ms
  // sleep on a loaded machine can): allowed here, so that no entry has to be measured again.
  const fs::path out = compose_and_build("openmp_choice", cases() / "openmp_choice/main.xml");
  CHECK_THAT(
      e2e::run("grep -c 'with_scheduler(\"pheft\")' '" + (out / "peppher.h").string() + "'").output,
      Catch::StartsWith("1"));
  // A STARPU_HOME of its own: models that earlier builds' runs left (other variant slots,
  // other rules) would decide otherwise.
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  const std::string keep = " STARPU_HOME=" + home.string() + " STARPU_HISTORY_MAX_ERROR=100000";
  const std::string two_cpus = std::string(e2e::kTwoCpus) + keep;
  e2e::Run calibrate = run_program(out / "openmp_choice", "40", two_cpus);
  INFO(calibrate.output);
  REQUIRE(calibrate.exit_code == 0);
  CHECK_THAT(calibrate.output, Catch::Contains("ok"));
  e2e::Run two = run_program(out / "openmp_choice", "20", two_cpus);
  INFO(two.output);
  REQUIRE(two.exit_code == 0);
  CHECK_THAT(two.output, Catch::Contains("work_openmp  OPENMP   CPU inline (calling thread)  20"));
  CHECK(e2e::report_count(two.output, "work_cpu", "CPU") == 0);
  e2e::Run one = run_program(out / "openmp_choice", "10", std::string(kCpuOnly) + keep);
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  CHECK(e2e::report_count(one.output, "work_cpu", "CPU") == 10);
}

TEST_CASE(
    "e2e history models, one call per run: the first run runs the no-model choice and records "
    "it, the second tries the unmeasured variant, the third measures the loser once more, "
    "then the measured fastest runs (issue 29)") {
  // learn_cpu 150 ms, learn_openmp 20 ms on a combined worker of two, history models, pheft.
  // A STARPU_HOME of its own: no model left by another test.
  const fs::path out = compose_and_build("history_learning", cases() / "history_learning/main.xml");
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  const std::string env = std::string(e2e::kTwoCpus) + " STARPU_HOME=" + home.string();
  const fs::path exe = out / "history_learning";
  // No model: the OpenMP variant on all cores (the data is at home), its time recorded; on
  // the calling thread (raw pointers, nothing in flight: docs/SELECTION.md).
  e2e::Run first = run_program(exe, "1", env + " STARPU_SILENT=0");  // StarPU's warnings shown
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  CHECK(e2e::report_count(first.output, "learn_openmp", "inline") == 1);
  CHECK(e2e::report_count(first.output, "learn_cpu", "CPU") == 0);
  CHECK_THAT(first.output, !Catch::Contains("forcing calibration"));
  // learn_openmp measured (else this would be the no-model choice again): learn_cpu, once.
  e2e::Run second = run_program(exe, "1", env);
  INFO(second.output);
  REQUIRE(second.exit_code == 0);
  CHECK(e2e::report_count(second.output, "learn_cpu", "CPU") == 1);
  CHECK(e2e::report_count(second.output, "learn_openmp", "OPENMP") == 0);
  // Both measured, learn_cpu once: it runs once more, so that one slow run does not rule it
  // out for good (docs/SELECTION.md, point 5).
  e2e::Run third = run_program(exe, "1", env);
  INFO(third.output);
  REQUIRE(third.exit_code == 0);
  CHECK(e2e::report_count(third.output, "learn_cpu", "CPU") == 1);
  // Then the faster, with a team of every CPU worker's core, never on one core; and again.
  for (int run = 4; run <= 5; ++run) {
    e2e::Run later = run_program(exe, "1", env);
    INFO("run " << run << ": " << later.output);
    REQUIRE(later.exit_code == 0);
    CHECK(e2e::report_count(later.output, "learn_openmp", "inline") == 1);
    CHECK(e2e::report_count(later.output, "learn_cpu", "CPU") == 0);
    CHECK_THAT(later.output, Catch::Contains("ok"));
  }
}

TEST_CASE(
    "e2e selection: XPDL queries (the published library-constraint example's shape): "
    "no GPU and no CUBLAS here, so the CPU variant runs every call") {
  const fs::path out = compose_and_build("xpdl", cases() / "xpdl/main.xml");
  e2e::Run r = run_program(out / "xpdl", "", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("xpdl: 0 wrong"));
  CHECK(e2e::report_count(r.output, "scale_cpu_func", "CPU") == 3);
  CHECK_THAT(r.output, !Catch::Contains("scale_cublas_func"));
}

TEST_CASE(
    "e2e -staticDispatch with a constrained variant: the table ranks clip_small first "
    "everywhere, its constraint (n < 500) sends the large call to clip_any (issue 29)") {
  const fs::path out = compose_and_build("static_constraint",
                                         cases() / "static_constraint/main.xml", "-staticDispatch");
  e2e::Run r = run_program(out / "static_constraint", "20 900 30", kCpuOnly);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("static_constraint: 0 wrong"));
  CHECK(e2e::report_count(r.output, "clip_small", "CPU") == 2);
  CHECK(e2e::report_count(r.output, "clip_any", "CPU") == 1);
}

TEST_CASE(
    "e2e devices the last run did not need: once every call ran best on the host, the next "
    "run starts no device; a call at another size, or STARPU_NOPENCL, starts them again") {
  const fs::path out = compose_and_build("unused_devices", cases() / "unused_devices/main.cpp");
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  // The runtime's own device count (STARPU_NOPENCL unset): pocl beside one CPU worker.
  const std::string env = "env -u STARPU_NOPENCL STARPU_NCPU=1 STARPU_HOME=" + home.string();
  const fs::path exe = out / "main";
  const std::string skipped = "no device started";
  const std::string size = "262144";  // 1 MB each way: the CPU's 0.1 ms, the device's copies
  // The models learn (each variant, each loser once more), then a run decides every call for
  // the host, and the next starts no device: a few runs. Small calls' measurements may
  // stray on a loaded machine (StarPU then learns the entry again): up to eight.
  auto until_skipped = [&] {
    e2e::Run r;
    for (int run = 0; run < 8 && r.output.find(skipped) == std::string::npos; ++run) {
      r = run_program(exe, size, env);
      INFO(r.output);
      REQUIRE(r.exit_code == 0);
      CHECK_THAT(r.output, Catch::Contains("twice: 0 wrong"));
    }
    return r;
  };
  e2e::Run r = until_skipped();
  INFO(r.output);
  REQUIRE(r.output.find(skipped) != std::string::npos);
  CHECK(e2e::report_count(r.output, "twice_cpu", "CPU") == 1);
  CHECK_THAT(r.output, !Catch::Contains("OpenCL"));
  // The user's count wins: the device starts.
  e2e::Run asked = run_program(exe, size, env + " STARPU_NOPENCL=1");
  INFO(asked.output);
  CHECK_THAT(asked.output, !Catch::Contains(skipped) && Catch::Contains("twice: 0 wrong"));
  // A damaged record is ignored with a warning naming it: the devices start.
  r = until_skipped();
  REQUIRE(r.output.find(skipped) != std::string::npos);
  const fs::path records = home / ".starpu/sampling/peppher-devices";
  REQUIRE(fs::is_directory(records));
  for (const auto& record : fs::directory_iterator(records))
    std::ofstream(record.path(), std::ios::trunc) << "garbage\n";
  e2e::Run damaged = run_program(exe, size, env);
  INFO(damaged.output);
  CHECK_THAT(damaged.output, Catch::Contains("peppher: warning: '" + records.string()) &&
                                 Catch::Contains("ignored, this run starts its devices") &&
                                 !Catch::Contains(skipped) && Catch::Contains("twice: 0 wrong"));
  // Another size (another footprint): this run has no device (the record said so) and runs
  // the call on the host, but drops the record: the next run starts the devices.
  r = until_skipped();
  REQUIRE(r.output.find(skipped) != std::string::npos);
  e2e::Run other = run_program(exe, "2000000", env);
  INFO(other.output);
  CHECK_THAT(other.output, Catch::Contains(skipped) && Catch::Contains("twice: 0 wrong"));
  e2e::Run after = run_program(exe, "2000000", env);
  INFO(after.output);
  CHECK_THAT(after.output, !Catch::Contains(skipped) && Catch::Contains("twice: 0 wrong"));
}
