// End to end, inline raw-pointer calls (issue 17): a call whose operands are all raw
// pointers runs on the calling thread when the selection picks a sequential CPU variant
// (the report says "CPU inline (calling thread)"), and still becomes a task on the device
// when the training table says the device is faster; forcing holds; a raw pointer that
// aliases a container, or a freed address reused with other sizes, gives right results.
// Calls of an interface with a history model, on containers or raw arrays, run the model's
// host choice on the calling thread too, and their times reach the model.
#include <cstdio>
#include <string>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::kCpuAndOpenCl;
using e2e::kCpuOnly;
using e2e::run_program;

namespace {

const fs::path& inline_program() {
  static const fs::path kExe = compose_and_build("inline", cases() / "inline/main.xml") / "inline";
  return kExe;
}

long inline_count(const std::string& report, const std::string& variant) {
  return e2e::report_count(report, variant, "inline");
}

// The measurements StarPU keeps in the history model files of @p symbol under @p home.
long model_samples(const fs::path& home, const std::string& symbol) {
  long total = 0;
  for (const e2e::HistoryEntry& e : e2e::history_entries(home, symbol)) total += e.samples;
  return total;
}

}  // namespace

TEST_CASE("e2e inline: small calls run on the calling thread, large ones on the faster device") {
  // The table (peppher_perf.offload-node.xml): the CPU variant costs 20 us per element, the
  // OpenCL kernel 700 us: n = 10 and 20 stay on the CPU, n = 3000 goes to the device.
  e2e::Run r = run_program(inline_program(), "sizes 10 3000 20", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("inline: 0 wrong"));
  CHECK(inline_count(r.output, "offload_cpu") == 2);
  CHECK(e2e::report_count(r.output, "offload_opencl", "OpenCL") == 1);
  CHECK(e2e::report_count(r.output, "offload_cpu", "CPU") == 2);  // no CPU task besides

  // Only CPU workers: everything inline.
  e2e::Run cpu = run_program(inline_program(), "sizes 10 3000", kCpuOnly);
  INFO(cpu.output);
  CHECK(inline_count(cpu.output, "offload_cpu") == 2);

  // Forcing holds both ways.
  e2e::Run to_device =
      run_program(inline_program(), "sizes 10 20",
                  std::string(kCpuAndOpenCl) + " PEPPHER_VARIANT=offload=offload_opencl");
  INFO(to_device.output);
  CHECK(e2e::report_count(to_device.output, "offload_opencl", "OpenCL") == 2);
  CHECK(inline_count(to_device.output, "offload_cpu") == 0);
  e2e::Run to_cpu =
      run_program(inline_program(), "sizes 3000",
                  std::string(kCpuAndOpenCl) + " PEPPHER_VARIANT=offload=offload_cpu");
  INFO(to_cpu.output);
  CHECK(inline_count(to_cpu.output, "offload_cpu") == 1);
  CHECK(e2e::report_count(to_cpu.output, "offload_opencl", "OpenCL") == 0);
}

TEST_CASE(
    "e2e inline: a raw pointer into a container a task still writes sees the task's "
    "result") {
  e2e::Run r = run_program(inline_program(), "alias", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("inline: 0 wrong"));
  CHECK(inline_count(r.output, "twice_cpu") == 1);
}

TEST_CASE(
    "e2e inline: a raw call on the device over a container's memory waits for the "
    "container's task, and the container's next task sees what it wrote") {
  e2e::Run r = run_program(inline_program(), "alias_device", kCpuAndOpenCl);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("inline: 0 wrong"));
  CHECK(e2e::report_count(r.output, "offload_opencl", "OpenCL") == 2);  // tasks, not inline
  CHECK(e2e::report_count(r.output, "bump_cpu", "CPU") == 2);
}

TEST_CASE("e2e inline: freed addresses reused by malloc with other sizes give right results") {
  for (const char* env : {kCpuAndOpenCl, kCpuOnly}) {
    e2e::Run r = run_program(inline_program(), "reuse", env);
    INFO(env << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("inline: 0 wrong"));
    // The case this test is about was built: some address came back with another size.
    int reused = 0;
    const std::size_t at = r.output.find("reuse: ");
    REQUIRE(at != std::string::npos);
    CHECK(std::sscanf(r.output.c_str() + at, "reuse: %d of", &reused) == 1);
#if defined(__SANITIZE_ADDRESS__)
    // ASan's allocator (the composed program links it in this build) keeps freed chunks in
    // quarantine and size classes apart: no address comes back, so only results are checked.
    if (reused == 0) WARN("ASan build: malloc handed no freed address back (case not built)");
#else
    CHECK(reused > 0);
#endif
  }
  // With the device, the large calls are tasks on cached registrations: the scheduler puts
  // them on the device, or (39 and 40 elements, near the crossing at 35) maybe on the CPU.
  e2e::Run r = run_program(inline_program(), "reuse", kCpuAndOpenCl);
  INFO(r.output);
  const long inline_calls = inline_count(r.output, "offload_cpu");
  const long cpu_tasks = e2e::report_count(r.output, "offload_cpu", "CPU") - inline_calls;
  const long device_tasks = e2e::report_count(r.output, "offload_opencl", "OpenCL");
  CHECK(device_tasks + cpu_tasks == 14);  // 7 sizes, twice
  CHECK(device_tasks >= 10);              // 1500 elements and more, twice
  CHECK(inline_calls == 4);               // 12 and 20, twice
}

TEST_CASE("e2e inline: two threads alternating device and inline calls on their own arrays") {
  e2e::Run r = run_program(inline_program(), "threads_mixed", "STARPU_NCPU=2 STARPU_NOPENCL=1");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("inline: 0 wrong"));
  CHECK(e2e::report_count(r.output, "offload_opencl", "OpenCL") == 20);
  CHECK(inline_count(r.output, "offload_cpu") == 20);
}

TEST_CASE("e2e inline: two threads calling inline at once") {
  e2e::Run r = run_program(inline_program(), "threads", "STARPU_NCPU=2 STARPU_NOPENCL=0");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("inline: 0 wrong"));
  CHECK(inline_count(r.output, "twice_cpu") == 4000);
}

TEST_CASE(
    "e2e inline: a history model's host choice runs on the calling thread and the model "
    "learns from it (issue 40)") {
  // step: step_cpu 30 ms, step_openmp 5 ms, step_opencl; Vector calls, useHistoryModels.
  const fs::path out = compose_and_build("here_learning", cases() / "here_learning/main.xml");
  const fs::path exe = out / "here_learning";
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  // StarPU flushes a history entry when a measurement strays more than 50 % from its mean
  // (an OpenMP team's first region on a busy machine does): allowed here, so that the count
  // of the model's measurements below says how many calls reached it.
  const std::string two_cpus = std::string(e2e::kTwoCpus) + " STARPU_HOME=" + home.string() +
                               " STARPU_HISTORY_MAX_ERROR=100000";
  // Nothing measured: the OpenMP variant (the data stays at home), then the sequential one
  // once to measure it, then the measured best: all on the calling thread, none a task.
  for (int run = 0; run < 2; ++run) {
    e2e::Run r = run_program(exe, "20", two_cpus);
    INFO("run " << run << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("here_learning: ok"));
    CHECK(inline_count(r.output, "step_openmp") + inline_count(r.output, "step_cpu") == 20);
    CHECK(inline_count(r.output, "step_openmp") >= 18);
    CHECK_THAT(r.output, !Catch::Contains("combined("));
  }
  // The calls' times are in the model, as tasks' would be (no task ran: without the calls'
  // own records it would hold none; StarPU drops the first of each entry).
  CHECK(model_samples(home, "peppher_step") >= 30);
  // The same on a raw array (each call waits for its data, so nothing is in flight between
  // calls): the model's host choice runs on the calling thread, never a task.
  const fs::path home_raw = out / "starpu-home-raw";
  fs::remove_all(home_raw);
  const std::string raw_env = std::string(e2e::kTwoCpus) + " STARPU_HOME=" + home_raw.string() +
                              " STARPU_HISTORY_MAX_ERROR=100000";
  for (int run = 0; run < 2; ++run) {
    e2e::Run r = run_program(exe, "20 raw", raw_env);
    INFO("raw run " << run << ":\n" << r.output);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("here_learning: ok"));
    CHECK(inline_count(r.output, "step_raw_openmp") + inline_count(r.output, "step_raw_cpu") == 20);
    CHECK(inline_count(r.output, "step_raw_openmp") >= 18);
    CHECK_THAT(r.output, !Catch::Contains("combined("));
  }
  CHECK(model_samples(home_raw, "peppher_step_raw") >= 30);
  // Beside pocl's device, the device variant is measured too (a task), and every result is
  // right whatever the model then prefers.
  const fs::path home_cl = out / "starpu-home-opencl";
  fs::remove_all(home_cl);
  e2e::Run cl =
      run_program(exe, "20", std::string(kCpuAndOpenCl) + " STARPU_HOME=" + home_cl.string());
  INFO(cl.output);
  REQUIRE(cl.exit_code == 0);
  CHECK_THAT(cl.output, Catch::Contains("here_learning: ok"));
  CHECK(e2e::report_count(cl.output, "step_opencl", "OpenCL") >= 1);
}
