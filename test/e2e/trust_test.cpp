// End to end, the run-time trust boundary (test/e2e/cases/trust): checked lengths, the
// variants' exceptions reaching the caller for both call kinds, guarded divisions.
#include <catch2/catch.hpp>

#include "e2e_support.h"

namespace fs = std::filesystem;
using namespace e2e;

TEST_CASE("e2e: bad lengths, variant exceptions and zero divisors reach the caller") {
  fs::path out = compose_and_build("trust", cases() / "trust/main.xml");
  e2e::Run r = run_program(out / "guard", "", kCpuOnly);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("negative: peppher: fill: parameter 'a' has numElements "
                                       "= n = -1, a negative length"));
  CHECK_THAT(r.output, Catch::Contains("too large: peppher: fill: parameter 'a' has numElements "
                                       "= n = 8589934592, more elements than StarPU registers"));
  CHECK_THAT(r.output, Catch::Contains("synchronous: boom_raw_cpu failed on purpose"));
  CHECK_THAT(r.output, Catch::Contains("asynchronous: boom_vec_cpu failed on purpose"));
  CHECK_THAT(r.output, Catch::Contains("zero divisor: peppher: ratio: no variant accepts"));
  CHECK_THAT(r.output, Catch::Contains("0 failures"));
}
