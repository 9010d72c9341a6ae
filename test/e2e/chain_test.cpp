// End to end, placement-aware dispatch (issue 21): a chain of three interfaces on one
// Vector where the per-call best variant differs from the best for the chain (a
// hand-written training table, real transfers between the host and pocl's OpenCL device).
// Static dispatch that accounts for where the data is keeps the chain on one memory node;
// the per-call ranking (PEPPHER_PLACEMENT=off) bounces it; dmda with the table-seeded cost
// model adds the bus model's transfer times itself. And static dispatch leaves an OpenMP
// variant alone unless the run has combined workers to run it in parallel.
#include <fstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::kCpuAndOpenCl;
using e2e::report_count;
using e2e::run_program;

namespace {

constexpr const char* kArgs = "4194304 3";  // 16 MB, three rounds of the chain

// How many of the chain's 9 calls ran each variant, as "a:OPENCL b:CPU c:OPENCL" when
// every round agrees (else the counts).
std::string placement_of(const std::string& report) {
  std::string out;
  for (const char* step : {"step_a", "step_b", "step_c"}) {
    const std::string s = step;
    const long cpu = report_count(report, s + "_cpu", "CPU");
    const long opencl = report_count(report, s + "_opencl", "OpenCL");
    out += (out.empty() ? "" : " ") + s.substr(5) + ":";
    if (cpu == 3 && opencl == 0) {
      out += "CPU";
    } else if (opencl == 3 && cpu == 0) {
      out += "OPENCL";
    } else {
      out += std::to_string(cpu) + "cpu/" + std::to_string(opencl) + "ocl";
    }
  }
  return out;
}

const fs::path& static_chain() {
  static const fs::path kOut =
      compose_and_build("chain_static", cases() / "chain/main.xml", "-staticDispatch");
  return kOut;
}

}  // namespace

TEST_CASE("e2e chain: per-call static dispatch bounces the data, placement-aware does not") {
  const fs::path exe = static_chain() / "chain";
  for (const char* start : {"home", "device"}) {
    INFO(start);
    // Per call (the old ranking): step_b's CPU variant is 500 us faster, so the vector
    // goes to the host and back in every round, wherever it started.
    e2e::Run percall = run_program(exe, std::string(kArgs) + " " + start,
                                   std::string(kCpuAndOpenCl) + " PEPPHER_PLACEMENT=off");
    INFO(percall.output);
    REQUIRE(percall.exit_code == 0);
    CHECK_THAT(percall.output, Catch::Contains("chain: 0 wrong"));
    CHECK(placement_of(percall.output) == "a:OPENCL b:CPU c:OPENCL");

    // Placement-aware (the default): the chain stays where the data is.
    e2e::Run placed = run_program(exe, std::string(kArgs) + " " + start, kCpuAndOpenCl);
    INFO(placed.output);
    REQUIRE(placed.exit_code == 0);
    CHECK_THAT(placed.output, Catch::Contains("chain: 0 wrong"));
    CHECK(placement_of(placed.output) ==
          (std::string(start) == "home" ? "a:CPU b:CPU c:CPU" : "a:OPENCL b:OPENCL c:OPENCL"));
  }
  // Moving 4 KB costs less than the 500 us step_b saves on the CPU: then it does move.
  e2e::Run small = run_program(exe, "1000 3 device", kCpuAndOpenCl);
  INFO(small.output);
  CHECK_THAT(small.output, Catch::Contains("chain: 0 wrong"));
  CHECK(placement_of(small.output) == "a:OPENCL b:CPU c:OPENCL");

  // A wrong value is refused at start-up.
  e2e::Run bad =
      run_program(exe, "1000 1", std::string(kCpuAndOpenCl) + " PEPPHER_PLACEMENT=maybe");
  CHECK(bad.exit_code != 0);
  CHECK_THAT(bad.output,
             Catch::Contains("PEPPHER_PLACEMENT: 'maybe' is neither on (1) nor off (0)"));
}

TEST_CASE("e2e chain: dmda with the table-seeded cost model adds the transfers itself") {
  // No -staticDispatch: the table becomes each interface's STARPU_PER_ARCH cost model. With
  // "wait" every call is decided with both workers idle, and the model says step_b costs
  // 1500 us on the CPU against 2000 on the device: dmda still keeps the 16 MB vector on the
  // device, which only the bus model's transfer time it adds explains. (With 4 KB dmda's
  // choice also depends on its queue estimates of the earlier calls, whose real kernels
  // take microseconds where the table says milliseconds: not asserted.)
  const fs::path out = compose_and_build("chain_seeded", cases() / "chain/main.xml");
  const std::string env = std::string(kCpuAndOpenCl) + " STARPU_SCHED=dmda";
  const struct {
    const char* args;
    const char* expected;
  } runs[] = {
      {"4194304 3 device wait", "a:OPENCL b:OPENCL c:OPENCL"},
      {"4194304 3 home wait", "a:CPU b:CPU c:CPU"},
      {"4194304 3 device", "a:OPENCL b:OPENCL c:OPENCL"},  // asynchronous calls too
  };
  for (const auto& run : runs) {
    INFO(run.args);
    e2e::Run r = run_program(out / "chain", run.args, env);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("chain: 0 wrong"));
    CHECK(placement_of(r.output) == run.expected);
  }
}

TEST_CASE("e2e static dispatch runs an OpenMP variant only where it runs in parallel") {
  // work_openmp is trained faster (30 ms against 40: as on two threads), but one CPU worker
  // makes no combined worker: static dispatch then runs work_cpu; with two CPU workers and
  // peager (combined workers) it runs work_openmp, with a team of both cores: on the calling
  // thread, as its raw-pointer calls have nothing in flight (docs/SELECTION.md).
  const fs::path dir = e2e::fresh_work_dir("openmp_static_table");
  const fs::path table = dir / "peppher_perf.openmp.xml";
  std::ofstream(table) << R"(<?xml version="1.0" encoding="UTF-8"?>
<peppher:performanceTable xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1"
    platform="openmp" accuracy="0.05">
  <peppher:interface name="work">
    <peppher:context name="n" lo="1000" hi="1000"/>
    <peppher:point values="1000">
      <peppher:time variant="work_cpu" us="40000.000"/>
      <peppher:time variant="work_openmp" us="30000.000"/>
    </peppher:point>
  </peppher:interface>
</peppher:performanceTable>
)";
  const fs::path out = compose_and_build("openmp_static", cases() / "openmp_choice/main.xml",
                                         "-staticDispatch=" + table.string());
  e2e::Run one = run_program(out / "openmp_choice", "4", e2e::kCpuOnly);
  INFO(one.output);
  REQUIRE(one.exit_code == 0);
  CHECK_THAT(one.output, Catch::Contains("ok"));
  CHECK(report_count(one.output, "work_cpu", "CPU") == 4);
  CHECK(report_count(one.output, "work_openmp", "CPU") == 0);
  e2e::Run two =
      run_program(out / "openmp_choice", "4", std::string(e2e::kTwoCpus) + " STARPU_SCHED=peager");
  INFO(two.output);
  REQUIRE(two.exit_code == 0);
  CHECK_THAT(two.output, Catch::Contains("ok"));
  CHECK_THAT(two.output, Catch::Contains("work_openmp  OPENMP   CPU inline (calling thread)  4"));
  CHECK(report_count(two.output, "work_openmp", "CPU") == 4);

  // When only the OpenMP variant is left, it runs on one thread, and a warning says why.
  const fs::path only =
      compose_and_build("openmp_static_only", cases() / "openmp_choice/main.xml",
                        "-staticDispatch=" + table.string() + " -disableImpls=work_cpu");
  e2e::Run alone = run_program(only / "openmp_choice", "3", e2e::kCpuOnly);
  INFO(alone.output);
  REQUIRE(alone.exit_code == 0);
  CHECK(report_count(alone.output, "work_openmp", "CPU") == 3);
  const std::string warning =
      "peppher: warning: work: static dispatch runs the OpenMP variant 'work_openmp' on one "
      "thread: no other variant accepts the call, and this run has no combined workers";
  const auto at = alone.output.find(warning);
  CHECK(at != std::string::npos);
  CHECK(alone.output.find(warning, at + 1) == std::string::npos);  // once per interface
}
