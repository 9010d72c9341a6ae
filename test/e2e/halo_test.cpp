// End to end, halos on every device (issue 43): a HotSpot step whose temp_in has a one-row
// halo, composed with CPU, OpenCL and CUDA variants, built (-Werror; the CUDA variant by
// nvcc where it is) and run on a CPU worker with pocl's device, and on each alone: blocks
// split across both kinds give the host's bits, and steps move only halo rows over the bus.
#include <filesystem>
#include <string>
#include <utility>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;

namespace {

const fs::path& halo_dir() {
  static const fs::path kDir = e2e::compose_and_build("halo", e2e::cases() / "halo/main.xml");
  return kDir;
}

}  // namespace

TEST_CASE("e2e halo: stencils split across a CPU worker and pocl give the host's bits") {
  // Fixed blocks placed by their constraints (all on the device, half each, all on the
  // CPU), `?` blocks (one per worker) placed so and by StarPU, a Vector halo of 3.
  e2e::Run r = e2e::run_program(halo_dir() / "halo", "mixed",
                                std::string(e2e::kCpuAndOpenCl) + " STARPU_SCHED=eager");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("halo: 0 wrong"));
  // 6 steps of 4 blocks at each of three split points: 16 device blocks at 0, 8 at 49.
  CHECK(e2e::report_count(r.output, "heat_rows_opencl", "OpenCL") == 6 * (4 + 2) + 12);
  CHECK(e2e::report_count(r.output, "heat_rows_cpu", "CPU") == 6 * (2 + 4) + 12);
  // `?`: 2 blocks a step (one per worker), 6 steps with the top block on the CPU and the
  // bottom one on the device, 6 placed by StarPU.
  const long auto_cpu = e2e::report_count(r.output, "heat_auto_cpu", "CPU");
  const long auto_device = e2e::report_count(r.output, "heat_auto_opencl", "OpenCL");
  CHECK(auto_cpu >= 6);
  CHECK(auto_device >= 6);
  CHECK(auto_cpu + auto_device == 2 * 2 * 6);
  // Once the blocks stay on their workers, each step sends one row of 256 floats each way.
  CHECK_THAT(r.output, Catch::Contains("halo: heat_rows steps move only halo rows: ok "
                                       "(20480 bytes over 10 steps"));
}

TEST_CASE("e2e halo: the same bits on the OpenCL device alone and on the CPU alone") {
  for (const auto& [workers, mode] :
       {std::pair{e2e::kOpenClOnly, "opencl"}, std::pair{e2e::kCpuOnly, "cpu"}}) {
    e2e::Run r = e2e::run_program(halo_dir() / "halo", mode, workers);
    INFO(mode << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("halo: 0 wrong"));
  }
}

TEST_CASE("e2e halo: the CUDA variant of a halo interface compiles where nvcc is") {
  if (e2e::run("command -v nvcc").exit_code != 0) {
    WARN("no nvcc on this machine: the CUDA variant was not compiled");
    return;
  }
  bool compiled = false;
  for (const auto& f : fs::recursive_directory_iterator(halo_dir()))
    compiled = compiled || (f.path().filename().string().rfind("heat_rows_cuda", 0) == 0 &&
                            f.path().extension() == ".o");
  CHECK(compiled);
}
