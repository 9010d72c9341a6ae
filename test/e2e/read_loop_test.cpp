// Issue 41, item 5: an asynchronous loop of 8,000 calls on one small vector (CPU and OpenCL
// variants, a history model), the host reading it every 10 calls, one CPU worker beside
// pocl. Choosing a call's variant asked StarPU for a transfer estimate while the previous
// call's write had marked every copy invalid, and StarPU aborted (coherency.c:68) in about
// half of the runs: 10 runs under the default scheduler, one under each other scheduler
// the docs name, must all end with correct results.
#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;

TEST_CASE("e2e: 8,000 asynchronous calls with host reads never abort in StarPU") {
  const fs::path out = e2e::compose_and_build("read_loop", e2e::cases() / "read_loop/main.xml");
  const fs::path exe = out / "read_loop";
  auto check_run = [&](const std::string& env) {
    const e2e::Run r = e2e::run_program(exe, "8000", std::string(e2e::kCpuAndOpenCl) + env);
    INFO(env << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("all results correct"));
  };
  for (int run = 0; run < 10; ++run) check_run("");
  for (const char* scheduler : {"eager", "lws", "dmda", "pheft", "peager"})
    check_run(std::string(" STARPU_SCHED=") + scheduler);
}
