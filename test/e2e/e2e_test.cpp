// End to end, for real: compose -> build with the generated Makefile (-Werror) -> run on
// StarPU with a CPU worker and pocl's OpenCL device (and other worker sets) -> check the
// program's own verdict and the execution report.
#include <catch2/catch.hpp>

#include "e2e_support.h"

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

TEST_CASE("e2e: independent calls overlap, dependent calls are ordered") {
  fs::path out = compose_and_build("overlap", cases() / "overlap/main.xml");
  e2e::Run r = run_program(out / "overlap", "", "STARPU_NCPU=2 STARPU_NOPENCL=0");
  INFO(r.output);
  CHECK(r.exit_code == 0);
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
