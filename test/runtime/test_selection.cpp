// Variant selection support in the runtime: forcing a variant (force_variant and
// PEPPHER_VARIANT), Merge's most specific variant (keep_most_specific), the trained-table cost
// interpolation, and the Trainer's adaptive sampling over a target whose cost is exact (an
// injected clock the call advances).
#include <cmath>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "peppher/placement.h"
#include "peppher/selection.h"
#include "peppher/training.h"
#include "peppher_catch.h"
#include "support.h"

TEST_CASE("a forced variant that cannot run says why", "[selection]") {
  peppher_test::Session session;
  peppher::VariantSelector demo("demo_why", {"demo_why_cpu", "demo_why_cuda"}, {"CPU", "CUDA"});
  CHECK_THROWS_WITH(peppher::forced_variant_rejects(demo, 0),
                    Catch::Contains("the forced variant 'demo_why_cpu' (CPU) cannot run this "
                                    "call: its constraints reject it"));
  if (starpu_cuda_worker_get_count() == 0) {
    CHECK_THROWS_WITH(peppher::forced_variant_rejects(demo, 1),
                      Catch::Contains("cannot run this call: this run has no CUDA worker"));
  }
}

TEST_CASE("force_variant pins a registered interface to one of its variants", "[selection]") {
  peppher::VariantSelector demo("demo_iface", {"demo_cpu", "demo_opencl"}, {"CPU", "OPENCL"});
  CHECK(demo.forced() == -1);
  CHECK(peppher::force_variant("demo_iface", "demo_opencl"));
  CHECK(demo.forced() == 1);
  CHECK(peppher::force_variant("demo_iface", ""));
  CHECK(demo.forced() == -1);
  CHECK_FALSE(peppher::force_variant("demo_iface", "demo_cuda"));
  CHECK_FALSE(peppher::force_variant("no_such_iface", "demo_cpu"));
  CHECK(demo.forced() == -1);

  setenv("PEPPHER_VARIANT", "demo_iface=demo_cpu", 1);
  peppher::apply_variant_environment();
  CHECK(demo.forced() == 0);
  setenv("PEPPHER_VARIANT", "demo_iface=nope", 1);
  CHECK_THROWS_WITH(peppher::apply_variant_environment(),
                    Catch::Contains("PEPPHER_VARIANT: 'demo_iface=nope' names no composed"));
  CHECK_THROWS_WITH(peppher::apply_variant_environment(),
                    Catch::Contains("demo_iface: demo_cpu, demo_opencl"));
  // A variant name alone forces the interface that has it (variant names are what users
  // see in reports and descriptors).
  setenv("PEPPHER_VARIANT", "demo_opencl", 1);
  peppher::apply_variant_environment();
  CHECK(demo.forced() == 1);
  setenv("PEPPHER_VARIANT", "demo_nope", 1);
  CHECK_THROWS_WITH(peppher::apply_variant_environment(),
                    Catch::Contains("PEPPHER_VARIANT: 'demo_nope' names no composed variant"));
  unsetenv("PEPPHER_VARIANT");
  peppher::force_variant("demo_iface", "");
}

TEST_CASE("most specific first: specializes (transitively), then priority", "[selection]") {
  // 0 general, 1 specializes 0, 2 specializes 1 (and so 0), 3 unrelated.
  const std::uint64_t specializes[] = {0x0, 0x1, 0x3, 0x0};
  int priority[] = {0, 0, 0, 0};
  const peppher::Specificity rule{specializes, priority};
  auto keep = [&](std::vector<bool> accepted) {
    bool ok[4];
    for (int k = 0; k < 4; ++k) ok[k] = accepted[static_cast<size_t>(k)];
    const bool dropped = peppher::detail::keep_most_specific(rule, 4, ok);
    std::string kept;
    for (int k = 0; k < 4; ++k) kept += ok[k] ? char('0' + k) : '-';
    return kept + (dropped ? " dropped" : "");
  };
  CHECK(keep({true, true, true, false}) == "--2- dropped");
  CHECK(keep({true, true, false, false}) == "-1-- dropped");
  CHECK(keep({true, false, true, false}) == "--2- dropped");  // through the chain
  CHECK(keep({true, false, false, true}) == "0--3");          // unrelated: both stay
  CHECK(keep({false, false, false, false}) == "----");
  priority[3] = 1;  // priority beats what specialization leaves
  CHECK(keep({true, true, false, true}) == "---3 dropped");
  priority[3] = -1;
  CHECK(keep({true, true, false, true}) == "-1-- dropped");
  CHECK(keep({false, false, false, true}) == "---3");
}

TEST_CASE("trained_cost interpolates log-log between grid points", "[selection]") {
  const double nan = std::nan("");
  // One context (10, 100, 1000); variant 0 costs n us, variant 1 is 50 us but unmeasured at 1000.
  const int sizes[] = {3};
  const long long axes[] = {10, 100, 1000};
  const double us[] = {10, 50, 100, 50, 1000, nan};
  const peppher::TrainedGrid grid{1, sizes, axes, 2, us};
  auto cost = [&](long long n, int v) { return peppher::trained_cost(grid, &n, v); };
  CHECK(cost(100, 0) == Approx(100));
  CHECK(cost(316, 0) == Approx(316).epsilon(0.01));  // t = n is a line in log-log
  CHECK(cost(5, 0) == Approx(10));                   // clamped at the edges
  CHECK(cost(5000, 0) == Approx(1000));
  CHECK(cost(500, 1) == Approx(50));  // the unmeasured corner is skipped
  CHECK(std::isnan(cost(1000, 1)));

  // Two contexts, t = x * y: bilinear in log space is exact.
  const int sizes2[] = {2, 2};
  const long long axes2[] = {1, 100, 1, 100};
  const double us2[] = {1, 100, 100, 10000};
  const peppher::TrainedGrid grid2{2, sizes2, axes2, 1, us2};
  const long long point[] = {10, 20};
  CHECK(peppher::trained_cost(grid2, point, 0) == Approx(200).epsilon(0.01));
}

TEST_CASE("training refines where the fastest variant changes", "[selection]") {
  peppher_test::Session session;
  peppher::VariantSelector sel("sleepy", {"linear", "flat"}, {"CPU", "CPU"});
  peppher::TrainingTarget target;
  target.interface_name = "sleepy";
  target.context = {{"n", 10, 1000}};
  // "linear" costs 20 us per n, "flat" 2 ms: they cross at n = 100. The trainer's clock is
  // injected and advanced by the call itself, so the times are exact and nothing sleeps.
  double now_us = 0;
  target.call = [&](const std::vector<long long>& p) {
    now_us += sel.forced() == 0 ? 20.0 * static_cast<double>(p[0]) : 2000.0;
  };
  peppher::TrainingOptions options;
  options.max_points_per_context = 8;
  options.repetitions = 3;
  options.platform = "test";
  options.clock_us = [&] { return now_us; };
  peppher::Trainer trainer(options);
  trainer.train(target);
  const std::string table = trainer.table_xml();
  INFO(table);
  CHECK(sel.forced() == -1);  // training leaves no variant forced
  CHECK_THAT(table, Catch::Contains("<peppher:interface name=\"sleepy\">") &&
                        Catch::Contains("<peppher:context name=\"n\" lo=\"10\" hi=\"1000\"/>") &&
                        Catch::Contains("platform=\"test\""));
  // Eight sizes, and the ones next to the crossing were sampled.
  std::regex point("values=\"([0-9]+)\"");
  int points = 0, near_crossing = 0;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), point);
       it != std::sregex_iterator(); ++it) {
    const long long n = std::stoll((*it)[1]);
    ++points;
    near_crossing += n >= 50 && n <= 200;
  }
  CHECK(points == 8);
  CHECK(near_crossing >= 2);
  // Every sample is the injected cost exactly (the median of identical calls).
  std::regex sample(
      "values=\"([0-9]+)\">\\s*<peppher:time variant=\"linear\" us=\"([0-9.e+]+)\"/>"
      "\\s*<peppher:time variant=\"flat\" us=\"([0-9.e+]+)\"/>");
  int samples = 0;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), sample);
       it != std::sregex_iterator(); ++it) {
    ++samples;
    CHECK(std::stod((*it)[2]) == Approx(20.0 * std::stod((*it)[1])));
    CHECK(std::stod((*it)[3]) == Approx(2000.0));
  }
  CHECK(samples == points);
}
