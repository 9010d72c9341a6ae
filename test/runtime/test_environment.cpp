// What init() refuses before StarPU starts (issue 41, item 7): a StarPU worker count or
// switch that is not a whole number >= 0, a STARPU_HOME where StarPU cannot keep its models
// (StarPU asserted on both), and a PEPPHER_REPORT value the runtime does not take. Each is a
// peppher::Error naming the variable, and the runtime starts once it is fixed.
#include <string>

#include "peppher/runtime.h"
#include "peppher_catch.h"
#include "support.h"

using peppher_test::ScopedEnv;

namespace {

std::string init_error() {
  try {
    peppher::Runtime runtime;
  } catch (const peppher::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("init names an environment variable StarPU would assert on", "[environment]") {
  SECTION("a negative worker count") {
    ScopedEnv ncpu("STARPU_NCPU", "-1");
    CHECK_THAT(init_error(), Catch::Contains("STARPU_NCPU='-1' is not a whole number 0 or more"));
  }
  SECTION("a worker count that is not a number") {
    ScopedEnv nopencl("STARPU_NOPENCL", "two");
    CHECK_THAT(init_error(), Catch::Contains("STARPU_NOPENCL='two'"));
  }
  SECTION("a STARPU_HOME where no folder can be made") {
    ScopedEnv home("STARPU_HOME", "/dev/null");
    CHECK_THAT(init_error(), Catch::Contains("StarPU cannot keep its performance models in "
                                             "'/dev/null/.starpu/sampling/bus'") &&
                                 Catch::Contains("STARPU_HOME"));
  }
  CHECK(!peppher::is_running());
  CHECK(init_error() == "");  // fixed: it starts
}

TEST_CASE("PEPPHER_REPORT says which values it takes", "[environment]") {
  {
    ScopedEnv report("PEPPHER_REPORT", "yes");
    CHECK(
        init_error() ==
        "peppher: init: PEPPHER_REPORT='yes' is neither 1 (print the execution report at shutdown) "
        "nor 0");
  }
  for (const char* value : {"0", "1", ""}) {
    ScopedEnv report("PEPPHER_REPORT", value);
    CHECK(init_error() == "");
  }
}
