// The program's signals after init (issue 41): libpocl, loaded while StarPU starts, installs
// a SIGFPE handler that skips a faulting integer division; init() puts the program's own
// disposition back, so a division by zero in user code still kills it by SIGFPE.
#include <csignal>
#include <string>
#include <vector>

#include "peppher_catch.h"
#include "probe.h"

namespace {

// Runs the probe (divide_after_init.cpp) with @p env added to this process's environment.
peppher_test::ProbeRun run_probe(const std::vector<std::string>& env) {
  return peppher_test::run_probe(PEPPHER_DIVIDE_PROBE, env);
}

}  // namespace

TEST_CASE("an integer division by zero after init raises SIGFPE", "[signals]") {
  SECTION("CPU workers only") {
    const peppher_test::ProbeRun o = run_probe({"STARPU_NOPENCL=0", "STARPU_NCPU=1"});
    INFO(o.output);
    REQUIRE(WIFSIGNALED(o.status));
    CHECK(WTERMSIG(o.status) == SIGFPE);
  }
  SECTION("a CPU worker beside pocl") {
    const peppher_test::ProbeRun o =
        run_probe({"STARPU_NOPENCL=1", "STARPU_OPENCL_ON_CPUS=1", "STARPU_NCPU=1"});
    INFO(o.output);
    CHECK(o.output.find("pocl loaded: yes") != std::string::npos);  // the case being tested
    REQUIRE(WIFSIGNALED(o.status));
    CHECK(WTERMSIG(o.status) == SIGFPE);
  }
}
