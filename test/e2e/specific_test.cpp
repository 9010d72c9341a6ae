// End to end, the most specific variant first (Merge's rule, issue 43): compose -> build
// (-Werror) -> run on a StarPU CPU worker with an empty STARPU_HOME (no model yet). A variant
// that specializes another runs wherever its constraints hold, the general one elsewhere;
// priority orders variants that do not specialize one another; results checked.
#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::kCpuOnly;
using e2e::run_program;

TEST_CASE("e2e most specific first: no model, specializes and priority decide") {
  const fs::path out = compose_and_build("specific", cases() / "specific/main.xml");
  const fs::path home = out / "starpu-home";
  fs::remove_all(home);
  const std::string env = std::string(kCpuOnly) + " STARPU_HOME=" + home.string();
  // 100 and 400: multiples of 4 (scale_cpu_by4 specializes scale_cpu); 101: only the general
  // one; 8 and 7: scale_small (priority 1) beats both (8 a multiple of 4, 7 not).
  e2e::Run r = run_program(out / "specific", "scale 100 400 101 8 7", env);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("specific: 0 wrong"));
  CHECK(e2e::report_count(r.output, "scale_cpu_by4", "CPU") == 2);
  CHECK(e2e::report_count(r.output, "scale_cpu", "CPU") == 1);
  CHECK(e2e::report_count(r.output, "scale_small", "CPU") == 2);
}

TEST_CASE(
    "e2e most specific first: a history model with no measurement yet runs the "
    "specialized variant, the general one where the specialized one does not apply") {
  const fs::path out = compose_and_build("specific", cases() / "specific/main.xml");
  const fs::path home = out / "starpu-home-learn";
  fs::remove_all(home);
  const std::string env = std::string(kCpuOnly) + " STARPU_HOME=" + home.string();
  // One call per run, as a program that calls once: nothing is measured for either size.
  e2e::Run by4 = run_program(out / "specific", "learn 4096", env);
  INFO(by4.output);
  CHECK(by4.exit_code == 0);
  CHECK_THAT(by4.output, Catch::Contains("specific: 0 wrong"));
  CHECK(e2e::report_count(by4.output, "learn_cpu_by4", "CPU") == 1);
  CHECK(e2e::report_count(by4.output, "learn_cpu", "CPU") == 0);
  e2e::Run odd = run_program(out / "specific", "learn 4097", env);
  INFO(odd.output);
  CHECK(odd.exit_code == 0);
  CHECK_THAT(odd.output, Catch::Contains("specific: 0 wrong"));
  CHECK(e2e::report_count(odd.output, "learn_cpu", "CPU") == 1);
  CHECK(e2e::report_count(odd.output, "learn_cpu_by4", "CPU") == 0);
  // learn_cpu_by4 measured for 4096, learn_cpu not: the model learns the general one too
  // (its transfers cost nothing here), and from then on the model decides.
  e2e::Run again = run_program(out / "specific", "learn 4096", env);
  INFO(again.output);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.output, Catch::Contains("specific: 0 wrong"));
  CHECK(e2e::report_count(again.output, "learn_cpu", "CPU") == 1);
}
