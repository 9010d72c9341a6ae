// A kernel file that stops building after compose (replaced, found first through
// PEPPHER_KERNEL_PATH): the run prints the platform's build log once, at the file's lines,
// and falls back to the CPU variant; a call forced to the OpenCL variant fails with that log.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;

namespace {

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("e2e: a kernel that fails to build at run time is loud and falls back") {
  const fs::path out =
      e2e::compose_and_build("broken_kernel", e2e::cases() / "broken_kernel/main.xml");
  // The kernel file as compose checked it, with one more line that does not compile.
  const fs::path replaced = out / "replaced";
  fs::create_directories(replaced);
  std::ifstream in(e2e::cases() / "components/nearest/nearest_opencl.cl");
  std::ostringstream text;
  text << in.rdbuf();
  std::string kernel = text.str();
  const size_t lines = static_cast<size_t>(std::count(kernel.begin(), kernel.end(), '\n'));
  kernel += "int broken = no_such_value;\n";  // line lines + 1, column 14
  std::ofstream(replaced / "nearest_opencl.cl") << kernel;
  const std::string file = (replaced / "nearest_opencl.cl").string();
  const std::string located =
      file + ":" + std::to_string(lines + 1) + ":14: use of undeclared identifier 'no_such_value'";
  const std::string env = "PEPPHER_KERNEL_PATH=" + replaced.string() + " ";

  SECTION("not forced: the log once, then the CPU variant, never silently") {
    const e2e::Run r = e2e::run_program(out / "broken_kernel", "", env + e2e::kCpuAndOpenCl);
    INFO(r.output);
    CHECK(occurrences(r.output, "peppher: warning: OpenCL kernel file " + file +
                                    " does not build for device") == 1);
    CHECK_THAT(r.output, Catch::Contains("(CL_BUILD_PROGRAM_FAILURE"));
    CHECK_THAT(r.output, Catch::Contains(located));
    if (r.exit_code == 0) {  // the build failed before the first call (the usual case)
      CHECK_THAT(r.output, Catch::Contains("0 wrong memberships"));
      CHECK(occurrences(r.output, "peppher: warning: nearest: no OpenCL variant's kernels built") ==
            1);
      CHECK(e2e::report_count(r.output, "nearest_cpu", "CPU") == 4);
      CHECK(e2e::report_count(r.output, "nearest_opencl", "OpenCL") == 0);
    } else {
      // The background build runs on idle cores only: on a loaded machine it may still be
      // under way at the first call, which StarPU may give to the OpenCL worker; that call
      // fails with the build's error, naming the variant (docs/FORMAT.md).
      CHECK_THAT(r.output, Catch::Contains("peppher: nearest/nearest_opencl: OpenCL kernel file " +
                                           file + " does not build for device"));
    }
  }
  SECTION("forced: the call fails with the build log") {
    const e2e::Run r = e2e::run_program(
        out / "broken_kernel", "", env + "PEPPHER_VARIANT=nearest_opencl " + e2e::kCpuAndOpenCl);
    INFO(r.output);
    CHECK(r.exit_code != 0);
    CHECK_THAT(r.output, Catch::Contains("peppher: OpenCL kernel file " + file +
                                         " does not build for device"));
    CHECK_THAT(r.output, Catch::Contains(located));
    CHECK_THAT(r.output, !Catch::Contains("0 wrong memberships"));
  }
}
