// operator[] index checks under PEPPHER_DEBUG, which this file turns on even in release
// builds. Only element types no other test file uses appear here, to keep the ODR intact.
#define PEPPHER_DEBUG 1
#include "peppher/runtime.h"
#include "peppher_catch.h"

TEST_CASE("operator[] checks indices under PEPPHER_DEBUG", "[containers][debug]") {
  STATIC_REQUIRE(PEPPHER_INDEX_CHECKS == 1);
  peppher::Vector<signed char> v(3);
  CHECK_NOTHROW(v[2] = 1);
  CHECK_THROWS_WITH(v[3], Catch::Contains("Vector::operator[]: index 3 out of range [0, 3)"));
  const auto& cv = v;
  CHECK_THROWS_AS(cv[7], peppher::Error);
  peppher::Matrix<signed char> m(2, 4);
  CHECK_NOTHROW(m(1, 3) = 2);
  CHECK_THROWS_WITH(m(2, 0), Catch::Contains("Matrix row: index 2 out of range [0, 2)"));
  CHECK_THROWS_WITH(m(0, 4), Catch::Contains("Matrix column: index 4 out of range [0, 4)"));
}
