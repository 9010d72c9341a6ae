// End to end, the StarPU a program compiles against must be the runtime library's: a
// generated Makefile compares what the library's build recorded next to it
// (peppher-starpu.mk) with the starpu_config.h of pkg-config's StarPU, and stops naming both.
#include <fstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using namespace e2e;

TEST_CASE("e2e: a program is not built against another StarPU than the runtime's") {
  const fs::path out = fresh_work_dir("starpu_match/out");
  Run composed = compose(source_dir() / "apps/vector_scale/main.xml", out);
  INFO(composed.output);
  REQUIRE(composed.exit_code == 0);

  // The runtime of this build records its StarPU, and that is the one the Makefile finds.
  std::ifstream record_file(fs::path(PEPPHER_BINARY_DIR) / "runtime/peppher-starpu.mk");
  std::string record((std::istreambuf_iterator<char>(record_file)), {});
  CHECK_THAT(record, Catch::Contains("STARPU_MAXCPUS=") && Catch::Contains("STARPU_NMAXBUFS="));
  Run same = run("make -n -C " + out.string());
  INFO(same.output);
  CHECK(same.exit_code == 0);
  CHECK(same.output.find("was built against") == std::string::npos);

  // A runtime library built against another StarPU (STARPU_MAXCPUS 64): make stops before
  // compiling anything, naming both StarPUs; `make clean` still works.
  const fs::path other = fresh_work_dir("starpu_match/other_runtime");
  std::ofstream(other / "libpeppher.a") << "";
  std::ofstream(other / "peppher-starpu.mk")
      << "PEPPHER_RUNTIME_STARPU_DIR := /opt/starpu-cuda/include/starpu/1.4\n"
         "PEPPHER_RUNTIME_STARPU_CONFIG := STARPU_MAJOR_VERSION=1 STARPU_MINOR_VERSION=4 "
         "STARPU_RELEASE_VERSION=7 STARPU_NMAXBUFS=8 STARPU_MAXCPUS=64 STARPU_USE_CUDA=1\n";
  const std::string lib = " PEPPHER_LIB_FILE=" + (other / "libpeppher.a").string();
  Run mismatch = run("make -n -C " + out.string() + lib);
  INFO(mismatch.output);
  CHECK(mismatch.exit_code != 0);
  CHECK_THAT(mismatch.output,
             Catch::Contains("was built against the StarPU in /opt/starpu-cuda/include/starpu/1.4 "
                             "(STARPU_MAJOR_VERSION=1 STARPU_MINOR_VERSION=4 "
                             "STARPU_RELEASE_VERSION=7 STARPU_NMAXBUFS=8 STARPU_MAXCPUS=64 "
                             "STARPU_USE_CUDA=1), but pkg-config's " PEPPHER_STARPU_MODULE
                             " compiles this program against the one in /"));
  CHECK_THAT(mismatch.output, Catch::Contains("STARPU_MAXCPUS="));
  CHECK(mismatch.output.find("g++") == std::string::npos);  // nothing compiled
  Run clean = run("make -n -C " + out.string() + lib + " clean");
  INFO(clean.output);
  CHECK(clean.exit_code == 0);
}
