// End to end, calls with more buffers than StarPU's STARPU_NMAXBUFS (issue 40): twelve
// pointer and container operands on one task, twelve split into blocks, nine and a halo in
// blocks; composed, built (-Werror) and run on each backend (CPU, OpenMP, pocl's OpenCL),
// the numbers checked by the program.
#include <string>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::kCpuAndOpenCl;
using e2e::kCpuOnly;
using e2e::kOpenClOnly;
using e2e::kTwoCpus;
using e2e::report_count;
using e2e::run_program;

namespace {

const fs::path& many_buffers_program() {
  static const fs::path kExe =
      e2e::compose_and_build("many_buffers", e2e::cases() / "many_buffers/main.xml") /
      "many_buffers";
  return kExe;
}

// PEPPHER_VARIANT forcing every interface's variant of `backend` (many_halo has no OpenCL
// variant: left to the scheduler).
std::string forced(const std::string& backend, bool halo) {
  return " PEPPHER_VARIANT=many_bufs=many_bufs_" + backend + ",many_split=many_split_" + backend +
         (halo ? ",many_halo=many_halo_" + backend : "");
}

}  // namespace

TEST_CASE("e2e many buffers: twelve operands per task on each backend") {
  struct Case {
    const char* label;
    std::string env;
    std::string args;
    const char* variant_suffix;
    const char* worker_kind;
  };
  const Case cases[] = {
      {"CPU", std::string(kCpuOnly) + forced("cpu", true), "2", "_cpu", "CPU"},
      {"OpenMP on two CPU workers", std::string(kTwoCpus) + forced("openmp", true), "2", "_openmp",
       "CPU"},
      {"OpenCL (pocl)", std::string(kOpenClOnly) + forced("opencl", false), "2 nohalo", "_opencl",
       "OpenCL"},
  };
  for (const Case& c : cases) {
    e2e::Run r = run_program(many_buffers_program(), c.args, c.env);
    INFO(c.label << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("many_buffers: 0 wrong"));
    CHECK_THAT(r.output, Catch::Contains("twelve buffers: ok"));
    CHECK_THAT(r.output, Catch::Contains("twelve buffers in blocks: ok"));
    // 2 calls of one task, 2 calls of 4 blocks, 2 calls of 4 blocks.
    const std::string s = c.variant_suffix;
    CHECK(report_count(r.output, "many_bufs" + s, c.worker_kind) == 2);
    CHECK(report_count(r.output, "many_split" + s, c.worker_kind) == 8);
    if (c.args.find("nohalo") == std::string::npos) {
      CHECK_THAT(r.output, Catch::Contains("nine buffers and a halo in blocks: ok"));
      CHECK(report_count(r.output, "many_halo" + s, c.worker_kind) == 8);
    }
  }
}

TEST_CASE("e2e many buffers: the scheduler's choice, blocks on CPU and pocl together") {
  e2e::Run r =
      run_program(many_buffers_program(), "6", std::string(kCpuAndOpenCl) + " STARPU_SCHED=eager");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("many_buffers: 0 wrong"));
  long split_tasks = 0;
  for (const char* v : {"many_split_cpu", "many_split_openmp"})
    split_tasks += report_count(r.output, v, "CPU");
  split_tasks += report_count(r.output, "many_split_opencl", "OpenCL");
  CHECK(split_tasks == 6 * 4);
}
