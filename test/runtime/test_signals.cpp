// The program's signals after init (issue 41): libpocl, loaded while StarPU starts, installs
// a SIGFPE handler that skips a faulting integer division; init() puts the program's own
// disposition back, so a division by zero in user code still kills it by SIGFPE.
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "peppher_catch.h"
#include "probe.h"

namespace {

// `name=...:handle_sigfpe=0`: under a sanitizer build the probe's SIGFPE is left to the
// program (ASan and TSan otherwise report it and exit, which is not what is tested).
std::string without_sanitizer_fpe(const char* name) {
  const char* own = std::getenv(name);
  return std::string(name) + "=" + (own != nullptr ? std::string(own) + ":" : "") +
         "handle_sigfpe=0";
}

// Runs the probe (divide_after_init.cpp) with @p env added to this process's environment.
peppher_test::ProbeRun run_probe(std::vector<std::string> env) {
  env.push_back(without_sanitizer_fpe("ASAN_OPTIONS"));
  env.push_back(without_sanitizer_fpe("TSAN_OPTIONS"));
  env.push_back(without_sanitizer_fpe("UBSAN_OPTIONS"));
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
