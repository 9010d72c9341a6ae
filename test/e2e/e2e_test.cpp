// End to end, for real: compose -> build with the generated Makefile (-Werror) -> run on
// StarPU with a CPU worker and pocl's OpenCL device (and other worker sets) -> check the
// program's own verdict and the execution report.
#include <fstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::kCpuAndOpenCl;
using e2e::kCpuOnly;
using e2e::kOpenClOnly;
using e2e::kTwoCpus;
using e2e::run_program;

TEST_CASE("e2e: the published vector_scale example composes, builds and runs") {
  fs::path out =
      compose_and_build("vector_scale", e2e::source_dir() / "apps/vector_scale/main.xml");
  e2e::Run r = run_program(out / "vector_scale", "", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(e2e::report_count(r.output, "scale_cpu_func", "CPU") == 1);
}

TEST_CASE("e2e: spmv gives correct results on every worker set") {
  fs::path out = compose_and_build("spmv", e2e::source_dir() / "apps/spmv/main.xml");
  const fs::path exe = out / "spmv";
  SECTION("CPU worker and OpenCL device") {
    e2e::Run r = run_program(exe, "3000 8 6", kCpuAndOpenCl);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("all results correct"));
  }
  SECTION("CPU only: the CPU-side variants run every call") {
    e2e::Run r = run_program(exe, "3000 8 6", kCpuOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(e2e::report_count(r.output, "spmv_cpu", "CPU") +
              e2e::report_count(r.output, "spmv_openmp", "CPU") ==
          6);
  }
  SECTION("OpenCL only: the OpenCL variant runs every call") {
    e2e::Run r = run_program(exe, "3000 8 6", kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(e2e::report_count(r.output, "spmv_opencl", "OpenCL") == 6);
  }
}

TEST_CASE("e2e: independent container calls are spread over both worker kinds") {
  fs::path out = compose_and_build("async", cases() / "async/main.xml");
  e2e::Run r = run_program(out / "async", "", std::string(kCpuAndOpenCl) + " STARPU_SCHED=eager");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(e2e::report_count(r.output, "scale_vec_cpu", "CPU") > 0);
  CHECK(e2e::report_count(r.output, "scale_vec_opencl", "OpenCL") > 0);
  CHECK(e2e::report_count(r.output, "scale_vec_cpu", "CPU") +
            e2e::report_count(r.output, "scale_vec_opencl", "OpenCL") ==
        160);
}

TEST_CASE("e2e: a CUDA variant's prediction function is not linked where StarPU has no CUDA") {
  // test/sim/case (sim_smoke's program): the CPU and CUDA variants of `scale` have prediction
  // functions, each in its variant's file; built against a StarPU without CUDA, the CUDA
  // variant is compiled for checking and not linked, and so must its cost function be.
  fs::path out = compose_and_build("predictions", e2e::source_dir() / "test/sim/case/main.xml");
  e2e::Run r = run_program(out / "sim_scale", "2", "STARPU_NCPU=2 STARPU_NOPENCL=0");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("sim_scale: results correct"));
}

TEST_CASE("e2e: independent calls overlap, dependent calls are ordered") {
  fs::path out = compose_and_build("overlap", cases() / "overlap/main.xml");
  e2e::Run r = run_program(out / "overlap", "", "STARPU_NCPU=2 STARPU_NOPENCL=0");
  INFO(r.output);
  CHECK(r.exit_code == 0);
}

TEST_CASE("e2e: calls of different work under one footprint print nothing from StarPU") {
  // StarPU flushes a history entry whose measurements stray far from its mean and says so at
  // every flush: a default run (STARPU_SILENT unset) shows none of it; STARPU_SILENT=0 does.
  fs::path out = compose_and_build("varying_work", cases() / "varying_work/main.xml");
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  const std::string env = "STARPU_HOME=" + home.string() + " STARPU_NCPU=2 STARPU_NOPENCL=0";
  for (int run = 0; run < 2; ++run) {
    e2e::Run r = run_program(out / "varying_work", "12", "env -u STARPU_SILENT " + env);
    INFO("run " << run << ":\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("12 calls ran"));
    CHECK_THAT(r.output, !Catch::Contains("[starpu]"));
  }
  e2e::Run shown = run_program(out / "varying_work", "12", env + " STARPU_SILENT=0");
  INFO(shown.output);
  CHECK(shown.exit_code == 0);
  CHECK_THAT(shown.output, Catch::Contains("Too big deviation"));
}

TEST_CASE(
    "e2e: a context parameter (`range`) keys the history model: calls of different work keep "
    "histories of their own (issue 40)") {
  // varying_work's component with `millis` ranged: 1 ms and 20 ms calls alternate.
  fs::path out = compose_and_build("context_work", cases() / "context_work/main.xml");
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  // StarPU flushes an entry whose measurement strays more than 50 % from its mean (a 1 ms
  // sleep on a loaded machine does): allowed here, so that the counts below are the calls'.
  // A shared entry would still show: its mean would lie between the two.
  const std::string env = "STARPU_HOME=" + home.string() +
                          " STARPU_NCPU=2 STARPU_NOPENCL=0 STARPU_HISTORY_MAX_ERROR=100000";
  for (int run = 0; run < 2; ++run) {
    e2e::Run r = run_program(out / "context_work", "12", env);
    INFO("run " << run << ":\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("12 calls ran"));
  }
  // Two histories, one per value, each with its own mean: one entry of 1 ms calls and one of
  // 20 ms calls, never an entry between them (a shared one would average).
  long short_calls = 0, long_calls = 0, between = 0;
  for (const e2e::HistoryEntry& e : e2e::history_entries(home, "peppher_nap")) {
    if (e.samples == 0) continue;
    if (e.mean_us < 5000)
      short_calls += e.samples;
    else if (e.mean_us > 15000)
      long_calls += e.samples;
    else
      between += e.samples;
  }
  CHECK(short_calls >= 5);
  CHECK(long_calls >= 5);
  CHECK(between == 0);
}

TEST_CASE("e2e: two host threads, 20,000 calls each, by-value arguments never shared") {
  fs::path out = compose_and_build("threads", cases() / "threads/main.xml");
  e2e::Run r = run_program(out / "threads", "20000", "STARPU_NCPU=2 STARPU_NOPENCL=0");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("0 wrong results"));
}

TEST_CASE("e2e: a call no worker can run fails loudly, naming the interface") {
  fs::path out = compose_and_build("no_worker", cases() / "no_worker/main.xml");
  e2e::Run r = run_program(out / "no_worker", "", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("cuda_only: no worker can run"));
}

TEST_CASE("e2e: T& parameters are copied back, const T& travel by value") {
  fs::path out = compose_and_build("references", cases() / "references/main.xml");
  for (const char* workers : {kCpuOnly, kOpenClOnly}) {
    e2e::Run r = run_program(out / "references", "", workers);
    INFO(workers << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("0 wrong"));
  }
}

TEST_CASE("e2e: a kernel with the interface's own parameter list runs unchanged") {
  // nearest_opencl.cl takes (feature, npoints, nfeatures, clusters, nclusters, membership)
  // like a kernel written outside this tool; extentArguments="false" passes no extents.
  fs::path out = compose_and_build("unchanged_kernel", cases() / "unchanged_kernel/main.xml");
  SECTION("OpenCL only") {
    e2e::Run r = run_program(out / "nearest", "", kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("0 wrong memberships"));
    CHECK(e2e::report_count(r.output, "nearest_opencl", "OpenCL") == 4);
  }
  SECTION("CPU only") {
    e2e::Run r = run_program(out / "nearest", "", kCpuOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(e2e::report_count(r.output, "nearest_cpu", "CPU") == 4);
  }
}

TEST_CASE("e2e: third-party variants run as written, with only descriptors added") {
  // test/e2e/cases/third_party/vendor: a C99 file (restrict) with no compiler named, an
  // extern "C" C++ function, a function in a namespace, an OpenCL file of several kernels
  // (an unsigned count, a reqd_work_group_size(64) kernel launched without localSize over
  // 1000 items), a kernel including a header next to it and one including a header of a
  // folder its flags name with a relative -I (the program runs in another folder); a CUDA
  // samples-style .cu with an extern "C" launcher (compiled where nvcc is, not linked).
  fs::path out = compose_and_build("third_party", cases() / "third_party/main.xml");
  // A CUDA toolkit newer than Clang 14 knows is still read (its host-side headers): the
  // samples-style launcher is declared extern "C" as written.
  if (fs::exists("/usr/local/cuda/include/cuda_runtime.h")) {
    CHECK_THAT(e2e::run("cat " + (out / "tp_axpy_wrapper.cpp").string()).output,
               Catch::Contains("extern \"C\" void tp_axpy_cuda(int n, float a, const float * x, "
                               "float * y);"));
  }
  const struct {
    const char* forced;
    const char* axpy;
    const char* inc;
  } runs[] = {
      {"tp_axpy=tp_axpy_c,tp_inc=tp_inc_wg", "tp_axpy_c", "tp_inc_wg"},
      {"tp_axpy=tp_axpy_extc,tp_inc=tp_inc_hdr", "tp_axpy_extc", "tp_inc_hdr"},
      {"tp_axpy=tp_axpy_ns,tp_inc=tp_inc_idir", "tp_axpy_ns", "tp_inc_idir"},
      {"tp_axpy=tp_axpy_ocl,tp_inc=tp_inc_cpu", "tp_axpy_ocl", "tp_inc_cpu"},
  };
  for (const auto& run : runs) {
    e2e::Run r = run_program(out / "third_party", "",
                             std::string(kCpuAndOpenCl) + " PEPPHER_VARIANT=" + run.forced);
    INFO(run.forced << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("third_party: 0 wrong"));
    CHECK(e2e::report_count(r.output, run.axpy, "") == 1);
    CHECK(e2e::report_count(r.output, run.inc, "") == 2);
  }
}

namespace {

// The value of `name ?= ...` in a generated Makefile.
std::string makefile_value(const fs::path& makefile, const std::string& name) {
  const std::string text = e2e::run("cat '" + makefile.string() + "'").output;
  const size_t at = text.find("\n" + name + " ?= ");
  if (at == std::string::npos) return "";
  const size_t start = at + name.size() + 5;
  return text.substr(start, text.find('\n', start) - start);
}

}  // namespace

TEST_CASE(
    "e2e: a peppher.h left by an in-place compose next to main.cpp does not silently shadow "
    "the one of a later -o compose; two compositions' headers in one file are an error") {
  // Issue 29: `#include "peppher.h"` found the source folder's stale header first, so the
  // program ran with the other composition's scheduler and wrote no models.
  const fs::path dir = e2e::fresh_work_dir("stale_header");
  const fs::path app = dir / "app", gen = dir / "gen";
  fs::copy(cases() / "static_constraint", app, fs::copy_options::recursive);
  e2e::Run in_place =
      e2e::run(std::string(PEPPHER_COMPOSE_EXE) + " '" + (app / "main.xml").string() + "'");
  INFO(in_place.output);
  REQUIRE(in_place.exit_code == 0);
  REQUIRE(fs::exists(app / "peppher.h"));

  e2e::Run composed = e2e::compose(app / "main.xml", gen);
  INFO(composed.output);
  REQUIRE(composed.exit_code == 0);
  CHECK_THAT(composed.output, Catch::Contains("warning: '" + (app / "peppher.h").string() + "'") &&
                                  Catch::Contains("shadow"));

  // The build stops at the stale header, naming both folders.
  e2e::Run built = e2e::make(gen);
  INFO(built.output);
  CHECK(built.exit_code != 0);
  CHECK_THAT(built.output,
             Catch::Contains("belongs to the composition generated in \"" + app.string() + "\"") &&
                 Catch::Contains("\"" + gen.string() + "\""));

  // Both compositions' headers in one C++ file, and their C wrapper headers in a C file.
  const std::string flags =
      makefile_value(gen / "Makefile", "PEPPHER_CFLAGS") + " " + e2e::starpu_include_flags();
  REQUIRE(flags.find("-I") == 0);
  std::ofstream(dir / "both.cpp") << "#include \"gen/peppher.h\"\n#include \"app/peppher.h\"\n";
  e2e::Run cxx =
      e2e::run("cd '" + dir.string() + "' && g++ -std=c++17 -fsyntax-only " + flags + " both.cpp");
  INFO(cxx.output);
  CHECK(cxx.exit_code != 0);
  CHECK_THAT(cxx.output, Catch::Contains("headers of two compositions meet in one file") &&
                             Catch::Contains(gen.string()) && Catch::Contains(app.string()));
  std::ofstream(dir / "both.c")
      << "#include \"app/clip_wrapper.h\"\n#include \"gen/clip_wrapper.h\"\n";
  e2e::Run c = e2e::run("cd '" + dir.string() + "' && gcc -std=c99 -fsyntax-only both.c");
  INFO(c.output);
  CHECK(c.exit_code != 0);
  CHECK_THAT(c.output, Catch::Contains("headers of two compositions meet in one file") &&
                           Catch::Contains(gen.string()) && Catch::Contains(app.string()));

  // Without the stale files the same composition builds and runs.
  for (const char* stale : {"peppher.h", "clip_wrapper.h"}) fs::remove(app / stale);
  e2e::Run rebuilt = e2e::make(gen);
  INFO(rebuilt.output);
  REQUIRE(rebuilt.exit_code == 0);
  e2e::Run r = run_program(gen / "static_constraint", "20", kCpuOnly);
  INFO(r.output);
  CHECK_THAT(r.output, Catch::Contains("static_constraint: 0 wrong"));
}
