// OpenCL kernels written the way GPU codes for matrices are (PolyBench-ACC's style):
// multi-dimensional launches, __local arguments sized by the descriptor, a partitioned call
// over row blocks; and host-side variants that launch several kernels themselves.
#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::kCpuOnly;
using e2e::kOpenClOnly;
using e2e::run_program;

TEST_CASE("e2e: 2-D NDRange kernels run as written: gemm, gemm by row blocks, a __local tile") {
  // test/e2e/cases/ndrange: globalSize="nj,ni" with localSize="32,8" over 100 x 70 (rounded
  // up to whole work-groups), the same kernel on each 16-row block of a partitioned call
  // (7 blocks, the last 4 rows: ni is each block's row count), and a 3x3 convolution whose
  // work-groups copy a tile with its halo into a __local argument of (16+2) x (8+2) floats.
  fs::path out = compose_and_build("ndrange", cases() / "ndrange/main.xml");
  const std::string wrapper = e2e::run("cat " + (out / "conv2d_wrapper.cpp").string()).output;
  CHECK_THAT(wrapper, Catch::Contains("peppher_launch.local_arg(static_cast<size_t>((16 + 2) * "
                                      "(8 + 2)) * 4, \"tile\");"));
  SECTION("OpenCL only: every kernel, every block, on pocl's device") {
    e2e::Run r = run_program(out / "ndrange", "", kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("gemm: max error"));
    CHECK_THAT(r.output, Catch::Contains("gemm_rows: max error"));
    CHECK_THAT(r.output, Catch::Contains("conv2d: max error"));
    CHECK_THAT(r.output, !Catch::Contains("WRONG"));
    CHECK(e2e::report_count(r.output, "gemm_opencl", "OpenCL") == 1);
    CHECK(e2e::report_count(r.output, "gemm_rows_opencl", "OpenCL") == 7);
    CHECK(e2e::report_count(r.output, "conv2d_opencl", "OpenCL") == 1);
  }
  SECTION("CPU only: the same numbers from the sequential variants") {
    e2e::Run r = run_program(out / "ndrange", "", kCpuOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, !Catch::Contains("WRONG"));
    CHECK(e2e::report_count(r.output, "gemm_rows_cpu", "CPU") == 7);
  }
}

TEST_CASE("e2e: a host-side OpenCL variant in the original tool's format launches two kernels") {
  // test/e2e/cases/host_side: atax's OpenCL variant is a host function taking cl_mem
  // operands; its descriptor names the program, kernel and queue variables
  // (starpu_opencl_program, cl_kernel, cl_command_queue) it declares extern, and it
  // launches atax.cl's two kernels on the worker's queue. The CUDA variant launches two
  // kernels on peppher::cuda::stream() (compiled where nvcc is; this StarPU has no CUDA).
  fs::path out = compose_and_build("host_side", cases() / "host_side/main.xml");
  const std::string wrapper = e2e::run("cat " + (out / "atax_wrapper.cpp").string()).output;
  CHECK_THAT(wrapper, Catch::Contains("void atax_opencl(cl_mem A, cl_mem x, cl_mem y, cl_mem tmp, "
                                      "int nx, int ny);"));
  CHECK_THAT(wrapper, Catch::Contains("struct starpu_opencl_program atax_program;"));
  SECTION("OpenCL only: the host function's two kernels on pocl's device") {
    e2e::Run r = run_program(out / "host_side", "", kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("atax call 2: max error"));
    CHECK_THAT(r.output, !Catch::Contains("WRONG"));
    CHECK(e2e::report_count(r.output, "atax_opencl", "OpenCL") == 3);
  }
  SECTION("CPU only: the sequential variant, the same numbers") {
    e2e::Run r = run_program(out / "host_side", "", kCpuOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, !Catch::Contains("WRONG"));
    CHECK(e2e::report_count(r.output, "atax_cpu", "CPU") == 3);
  }
}
