// Regression models (docs/SELECTION.md, "Regression models"; issue 43, item 6): a component
// whose work grows with n, with sequential, OpenMP and OpenCL (pocl) variants, composed with
// -useRegressionModels and with -useNLRegressionModels, runs at several sizes to calibrate
// (a STARPU_HOME of its own), on one CPU worker beside pocl and on two CPU workers, then at
// sizes it never ran: within the measured sizes and beyond them. Each such call runs with a
// prediction (the trace's predicted_us: finite and positive) and gives the right numbers. Not the
// predictions' accuracy: the machine is shared.
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The predicted_us of every task of interface grow in the trace at @p path (NaN where a task
// has none).
std::vector<double> predictions(const fs::path& path) {
  std::vector<double> out;
  const json doc = json::parse(slurp(path));
  for (const json& e : doc["traceEvents"]) {
    if (e.value("cat", "") != "task" || e["args"].value("interface", "") != "grow") continue;
    out.push_back(e["args"].contains("predicted_us") ? e["args"]["predicted_us"].get<double>()
                                                     : std::nan(""));
  }
  return out;
}

}  // namespace

TEST_CASE(
    "e2e regression models: calibrated at some sizes, a call of a size never run is "
    "predicted and runs, within the measured sizes and beyond them") {
  for (const char* flag : {"-useRegressionModels", "-useNLRegressionModels"}) {
    const std::string name = std::string("regression") + (flag[4] == 'N' ? "_nl" : "");
    const fs::path out = e2e::compose_and_build(name, e2e::cases() / "regression/main.xml", flag);
    const fs::path exe = out / "regression_learning";
    // One CPU worker beside pocl's device: the sequential and the OpenCL variant compete;
    // two CPU workers: the sequential one and the OpenMP one on both (pheft).
    for (const char* workers : {e2e::kCpuAndOpenCl, e2e::kTwoCpus}) {
      const bool opencl = workers == e2e::kCpuAndOpenCl;
      INFO(flag << ", " << workers);
      const fs::path home = out / (std::string("starpu-home-") + (opencl ? "opencl" : "openmp"));
      fs::remove_all(home);
      const std::string env = std::string(workers) + " STARPU_HOME=" + home.string();
      // Calibration: two calls at each size, smallest first: the first call of a size
      // measures a variant the model cannot predict there, the second the other one.
      const e2e::Run calibrate = e2e::run_program(exe, "2 20000 40000 80000 160000", env);
      INFO(calibrate.output);
      REQUIRE(calibrate.exit_code == 0);
      CHECK_THAT(calibrate.output, Catch::Contains("regression_learning: ok"));
      CHECK(e2e::report_count(calibrate.output, "grow_cpu", "CPU") >= 2);
      if (opencl)
        CHECK(e2e::report_count(calibrate.output, "grow_opencl", "OpenCL") >= 2);
      else
        CHECK(e2e::report_count(calibrate.output, "grow_openmp", "combined(CPU") >= 2);

      // Sizes never run: inside the measured range (StarPU's own regression) and beyond it
      // (the fitted law extrapolated by the entry wrapper), each in a process of its own.
      for (const char* n : {"30000", "120000", "500000"}) {
        INFO("n = " << n);
        const fs::path trace = out / (std::string("held_back_") + n + ".json");
        fs::remove(trace);
        const e2e::Run held =
            e2e::run_program(exe, std::string("1 ") + n, env + " PEPPHER_TRACE=" + trace.string());
        INFO(held.output);
        REQUIRE(held.exit_code == 0);
        CHECK_THAT(held.output, Catch::Contains("regression_learning: ok"));
        const std::vector<double> predicted = predictions(trace);
        REQUIRE(predicted.size() == 1);
        CHECK(std::isfinite(predicted[0]));
        CHECK(predicted[0] > 0);
      }
    }
  }
}
