// End to end for apps/sgemm and apps/axpy_dot: composed, built with -Werror, run with a CPU
// worker plus pocl's OpenCL device, CPU only and OpenCL only (verdict and report checked), and
// every component's OpenMP variant in builds without the sequential ones.
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

namespace {

// Tasks of `variant` on CPU workers plus on OpenCL workers: every task it ran.
long total(const std::string& report, const std::string& variant) {
  return e2e::report_count(report, variant, "CPU") + e2e::report_count(report, variant, "OpenCL");
}

fs::path app(const std::string& name) {
  return e2e::source_dir() / "apps" / name / "main.xml";
}

}  // namespace

TEST_CASE("e2e apps: sgemm on Matrix containers is right on every worker set") {
  // Built once; the three worker sets are plain blocks, not SECTIONs (which would rebuild).
  fs::path out = compose_and_build("app_sgemm", app("sgemm"));
  const fs::path exe = out / "sgemm";
  // 6 independent problems, each C = A * B then E = C * F, and one reuse: 13 calls.
  const std::string args = "48 6";
  const long calls = 13;
  {
    // Which worker takes which of 13 calls depends on timing; that both kinds take calls is
    // shown on 160 calls by e2e_test's "spread over both worker kinds" case.
    INFO("CPU worker and OpenCL device: every call runs, on either kind");
    e2e::Run r = run_program(exe, "128 6", std::string(kCpuAndOpenCl) + " STARPU_SCHED=eager");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK(total(r.output, "sgemm_cpu") + total(r.output, "sgemm_opencl") == calls);
  }
  {
    INFO(
        "CPU worker and OpenCL device, the default scheduler, StarPU not silenced: StarPU "
        "does not warn about slow asynchronous transfers (pocl copies inside the enqueue, "
        "so the runtime asks for synchronous OpenCL copies)");
    e2e::Run r = run_program(exe, "384 6", std::string(kCpuAndOpenCl) + " STARPU_SILENT=0");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK_THAT(r.output, !Catch::Contains("asynchronous transfer"));
  }
  {
    // StarPU prints nothing in the configurations a user gets without setting anything:
    // the workers it picks itself, with and without pocl's device, on a first run (bus
    // calibration) and a later one (issue: a clean stderr; binding warnings came at every
    // OpenMP call beside pocl).
    const fs::path home = out / "starpu-home-defaults";
    fs::remove_all(home);
    const std::string defaults =
        "STARPU_HOME=" + home.string() + " env -u STARPU_NCPU -u STARPU_NOPENCL -u STARPU_SILENT";
    for (const std::string devices : {"STARPU_OPENCL_ON_CPUS=1", "STARPU_OPENCL_ON_CPUS=0"}) {
      for (int run = 0; run < 2; ++run) {
        INFO(devices << ", run " << run << ": StarPU's defaults, nothing on stderr from StarPU");
        e2e::Run r = run_program(exe, "128 6", defaults + " " + devices);
        INFO(r.output);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
        CHECK_THAT(r.output, !Catch::Contains("[starpu]"));
      }
    }
  }
  {
    INFO("CPU only: the CPU-side variants run every call");
    e2e::Run r = run_program(exe, args, kCpuOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK(e2e::report_count(r.output, "sgemm_cpu", "CPU") +
              e2e::report_count(r.output, "sgemm_openmp", "CPU") ==
          calls);
  }
  {
    INFO("OpenCL only: the OpenCL variant runs every call");
    e2e::Run r = run_program(exe, args, kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK(e2e::report_count(r.output, "sgemm_opencl", "OpenCL") == calls);
  }
}

TEST_CASE("e2e apps: axpy_dot uses three interfaces and a Scalar result on every worker set") {
  fs::path out = compose_and_build("app_axpy_dot", app("axpy_dot"));
  const fs::path exe = out / "axpy_dot";
  // A length that is no multiple of any work-group size; 4 iterations: 5 dots, 4 axpys,
  // 4 vector_scales (synchronous calls: raw-pointer operands).
  const std::string args = "10007 4";
  {
    INFO("CPU worker and OpenCL device");
    e2e::Run r = run_program(exe, args, kCpuAndOpenCl);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK(total(r.output, "dot_cpu") + total(r.output, "dot_opencl") == 5);
    CHECK(total(r.output, "axpy_cpu") + total(r.output, "axpy_opencl") == 4);
    CHECK(total(r.output, "vector_scale_cpu") + total(r.output, "vector_scale_opencl") == 4);
  }
  {
    INFO("CPU only");
    e2e::Run r = run_program(exe, args, kCpuOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK(e2e::report_count(r.output, "dot_cpu", "CPU") == 5);
    CHECK(e2e::report_count(r.output, "axpy_cpu", "CPU") == 4);
    CHECK(e2e::report_count(r.output, "vector_scale_cpu", "CPU") == 4);
    CHECK_THAT(r.output, !Catch::Contains("OpenCL 0"));
  }
  {
    INFO("OpenCL only: every call on the OpenCL variants");
    e2e::Run r = run_program(exe, args, kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK(e2e::report_count(r.output, "dot_opencl", "OpenCL") == 5);
    CHECK(e2e::report_count(r.output, "axpy_opencl", "OpenCL") == 4);
    CHECK(e2e::report_count(r.output, "vector_scale_opencl", "OpenCL") == 4);
  }
}

TEST_CASE("e2e apps: the OpenMP variant of every component gives correct results") {
  // Without the sequential CPU variants (and, to build fast, without CUDA and OpenCL) the
  // OpenMP variant is the only one left for the CPU workers.
  const std::string only_openmp = " -disableCUDA -disableOpenCL";
  SECTION("sgemm_openmp") {
    fs::path out = compose_and_build("app_sgemm_openmp", app("sgemm"),
                                     "-disableImpls=sgemm_cpu" + only_openmp);
    e2e::Run r = run_program(out / "sgemm", "48 3", kTwoCpus);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("7 calls: all results correct"));
    CHECK(e2e::report_count(r.output, "sgemm_openmp", "CPU") == 7);
  }
  SECTION("sgemm_tiles_openmp") {
    fs::path out = compose_and_build("app_sgemm_tiles_openmp", app("sgemm_tiles"),
                                     "-disableImpls=sgemm_tiles_cpu" + only_openmp);
    // 48 x 37 times 37 x 51 in tiles of 13 (4 x 4), then E = C * F (4 x 2), 2 rounds.
    e2e::Run r = run_program(out / "sgemm_tiles", "48 2", kTwoCpus);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("4 calls, rank 0 of 1: all results correct"));
    CHECK(e2e::report_count(r.output, "sgemm_tiles_openmp", "CPU") == 48);
  }
  SECTION("axpy_openmp, dot_openmp, vector_scale_openmp") {
    fs::path out =
        compose_and_build("app_axpy_dot_openmp", app("axpy_dot"),
                          "-disableImpls=axpy_cpu,dot_cpu,vector_scale_cpu" + only_openmp);
    e2e::Run r = run_program(out / "axpy_dot", "10007 4", kTwoCpus);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("13 calls: all results correct"));
    CHECK(e2e::report_count(r.output, "dot_openmp", "CPU") == 5);
    CHECK(e2e::report_count(r.output, "axpy_openmp", "CPU") == 4);
    CHECK(e2e::report_count(r.output, "vector_scale_openmp", "CPU") == 4);
  }
  SECTION("spmv_openmp") {
    fs::path out =
        compose_and_build("app_spmv_openmp", app("spmv"), "-disableImpls=spmv_cpu" + only_openmp);
    e2e::Run r = run_program(out / "spmv", "3000 8 3", kTwoCpus);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("all results correct"));
    CHECK(e2e::report_count(r.output, "spmv_openmp", "CPU") == 3);
  }
}
