// Components that call components (docs/SELECTION.md, "Nested calls"): apps/nested composed
// and run on one CPU worker, two, and one beside pocl's OpenCL device: cg's variant calls
// spmv, dot and axpy inside its task, merge_sort's calls merge_sort on each half; the numbers,
// the variants that ran (host ones, on the task's worker) and the trace's nested spans are
// checked. A nested call on a container the task does not hold is a clear error.
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Runs `exe args` under `env`, killed after 300 s: a call waiting on its own worker would
// hang, and shows as exit status 124.
e2e::Run run_bounded(const fs::path& exe, const std::string& args, const std::string& env) {
  return e2e::run("timeout 300 " + exe.string() + " " + args, "PEPPHER_REPORT=1 " + env);
}

// merge_sort runs of n keys with this cutoff: one per call, halves longer than the cutoff
// sorted by calls of their own.
long sort_runs(long n, long cutoff) {
  if (n <= cutoff) return 1;
  return 1 + sort_runs(n / 2, cutoff) + sort_runs(n - n / 2, cutoff);
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("e2e nested: cg over three components and a recursive merge sort, on any workers") {
  const fs::path out =
      e2e::compose_and_build("app_nested", e2e::source_dir() / "apps" / "nested" / "main.xml");
  const fs::path exe = out / "nested";
  const long n = 3000, cutoff = 40;
  const std::string args = std::to_string(n) + " " + std::to_string(cutoff);
  for (const char* workers : {e2e::kCpuOnly, e2e::kTwoCpus, e2e::kCpuAndOpenCl}) {
    INFO("workers: " << workers);
    const e2e::Run r = run_bounded(exe, args, workers);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("nested: all results correct"));
    // Every merge_sort run, the recursive ones included, on a CPU worker: none inline on the
    // application's thread (the first call is a task) and none on the device.
    CHECK(e2e::report_count(r.output, "merge_sort_cpu", "CPU") == sort_runs(n, cutoff));
    CHECK(e2e::report_count(r.output, "merge_sort_cpu", "inline") == 0);
    CHECK(e2e::report_count(r.output, "cg_cpu", "CPU") == 1);
    // cg's steps call spmv, dot and axpy inside its task: host variants on its worker.
    for (const char* callee : {"spmv_cpu", "dot_cpu", "axpy_cpu"}) {
      INFO(callee);
      CHECK(e2e::report_count(r.output, callee, "CPU") > 2);
      CHECK(e2e::report_count(r.output, callee, "inline") == 0);
    }
    for (const char* device : {"spmv_opencl", "dot_opencl", "axpy_opencl"})
      CHECK(e2e::report_count(r.output, device, "OpenCL") == 0);
  }
  {
    INFO("traced: each nested run is a span inside its task's span, on the task's worker");
    const fs::path trace = out / "nested.json";
    fs::remove(trace);
    const e2e::Run r =
        run_bounded(exe, args, std::string(e2e::kTwoCpus) + " PEPPHER_TRACE=" + trace.string());
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(slurp(trace));
    std::vector<const json*> tasks, nested;
    for (const json& e : doc["traceEvents"]) {
      if (e.value("cat", "") == "task") tasks.push_back(&e);
      if (e.value("cat", "") == "nested") nested.push_back(&e);
    }
    CHECK(tasks.size() == 2);  // cg and the first merge_sort call
    long sorts = 0, deepest = 0;
    for (const json* e : nested) {
      const json& a = (*e)["args"];
      if (a["interface"] == "merge_sort") ++sorts;
      deepest = std::max(deepest, a["depth"].get<long>());
      bool inside = false;
      for (const json* t : tasks) {
        inside = inside || ((*t)["tid"] == (*e)["tid"] &&
                            (*t)["ts"].get<double>() <= (*e)["ts"].get<double>() + 1 &&
                            (*e)["ts"].get<double>() + (*e)["dur"].get<double>() <=
                                (*t)["ts"].get<double>() + (*t)["dur"].get<double>() + 1);
      }
      CHECK(inside);
    }
    CHECK(sorts == sort_runs(n, cutoff) - 1);
    CHECK(deepest >= 2);
    for (const json* t : tasks)
      CHECK((*t)["args"]["variant"] != "spmv_cpu");  // the task keeps its own variant
    // peppher-report reads such a trace: the tasks, not the nested spans.
    const e2e::Run text = e2e::run(std::string(PEPPHER_REPORT_EXE) + " --text " + trace.string());
    INFO(text.output);
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.output, Catch::Contains("cg: 1 calls, 1 tasks"));
  }
}

TEST_CASE("e2e nested: a container the task does not hold is a clear error, not a hang") {
  const fs::path out =
      e2e::compose_and_build("nested_misuse", e2e::cases() / "nested_misuse" / "main.xml");
  for (const char* workers : {e2e::kCpuOnly, e2e::kTwoCpus}) {
    INFO("workers: " << workers);
    const e2e::Run r = run_bounded(out / "misuse", "", workers);
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains("inner called inside a task on worker") &&
                             Catch::Contains("container operand 'v' is not the task's own data"));
    CHECK_THAT(r.output, !Catch::Contains("misuse: no error"));
  }
}
