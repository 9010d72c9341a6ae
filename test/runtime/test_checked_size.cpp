// Checked size arithmetic (peppher/detail/checked_size.h), which entry wrappers use for
// descriptor sizes: zero divisors and 64-bit overflows become peppher::Errors naming the
// interface, the parameter and the expression; exact results pass through unchanged.
#include <climits>
#include <cstdint>

#include "peppher/detail/checked_size.h"
#include "peppher_catch.h"

using peppher::detail::CheckedSize;
using peppher::detail::SizeFault;
namespace d = peppher::detail;

namespace {

// What numElements would throw for @p s, or "" when it is a valid length.
std::string length_error(const CheckedSize& s) {
  try {
    (void)peppher::checked_length("iface", "arr", "numElements = e", s, peppher::kMaxElements);
  } catch (const peppher::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("checked size arithmetic computes exact results", "[checked_size]") {
  CHECK(d::checked_add(2LL, 3LL, "a + b").value == 5);
  CHECK(d::checked_sub(2LL, 3LL, "a - b").value == -1);
  CHECK(d::checked_mul(2000LL, 2000LL, "n * n").value == 4000000);
  CHECK(d::checked_div(-7LL, 2LL, "a / b", "b").value == -3);  // truncated, as C
  CHECK(d::checked_mod(-7LL, 2LL, "a % b", "b").value == -1);
  CHECK(d::checked_neg(5LL, "-a").value == -5);
  // INT_MIN / -1 overflows int but not 64 bits.
  const CheckedSize q = d::checked_div(d::checked_operand(INT_MIN, "n"), -1LL, "n / d", "d");
  REQUIRE(q.ok());
  CHECK(q.value == 2147483648LL);
  CHECK(d::checked_mod(LLONG_MIN, -1LL, "a % b", "b").value == 0);
  CHECK(d::checked_operand(std::uint64_t{42}, "n").value == 42);
  CHECK(length_error(d::checked_mul(d::checked_operand(2000, "n"), d::checked_operand(2000, "n"),
                                    "n * n")) == "");
}

TEST_CASE("a zero divisor is a fault naming the divisor", "[checked_size]") {
  const CheckedSize q = d::checked_div(1000LL, 0LL, "n / d", "d");
  CHECK(q.fault == SizeFault::DivisionByZero);
  CHECK(length_error(q) ==
        "peppher: iface: parameter 'arr' has numElements = e: division by zero (d = 0)");
  const CheckedSize r = d::checked_mod(1000LL, 0LL, "n % (a - b)", "a - b");
  CHECK(r.fault == SizeFault::RemainderByZero);
  CHECK(length_error(r) ==
        "peppher: iface: parameter 'arr' has numElements = e: remainder by zero (a - b = 0)");
}

TEST_CASE("a 64-bit overflow is a fault naming the operation", "[checked_size]") {
  const CheckedSize n = d::checked_operand(3000000, "n");
  const CheckedSize cube = d::checked_mul(d::checked_mul(n, n, "n * n"), n, "n * n * n");
  CHECK(cube.fault == SizeFault::Overflow);
  CHECK(length_error(cube) ==
        "peppher: iface: parameter 'arr' has numElements = e: n * n * n "
        "overflows 64-bit arithmetic");
  CHECK(d::checked_add(LLONG_MAX, 1LL, "a + b").fault == SizeFault::Overflow);
  CHECK(d::checked_sub(LLONG_MIN, 1LL, "a - b").fault == SizeFault::Overflow);
  CHECK(d::checked_neg(LLONG_MIN, "-a").fault == SizeFault::Overflow);
  const CheckedSize q = d::checked_div(LLONG_MIN, -1LL, "a / b", "b");
  CHECK(q.fault == SizeFault::Overflow);
  CHECK(std::string(q.at) == "a / b");
  const CheckedSize big = d::checked_operand(std::uint64_t{1} << 63, "n");
  CHECK(big.fault == SizeFault::Operand);
  CHECK_THAT(length_error(big), Catch::Contains("n = 9223372036854775808 does not fit"));
}

TEST_CASE("the first fault is passed on", "[checked_size]") {
  const CheckedSize zero = d::checked_div(1LL, 0LL, "1 / d", "d");
  const CheckedSize sum = d::checked_add(d::checked_mul(zero, LLONG_MAX, "x"), 1LL, "y");
  CHECK(sum.fault == SizeFault::DivisionByZero);
  CHECK(std::string(sum.at) == "d");
  CHECK(d::checked_sub(5LL, zero, "5 - z").fault == SizeFault::DivisionByZero);
  CHECK_THROWS_WITH(peppher::checked_size("iface", "M", "partition = M.rows / k", zero),
                    "peppher: iface: parameter 'M' has partition = M.rows / k: division by "
                    "zero (d = 0)");
  CHECK(peppher::checked_size("iface", "M", "partition = 8", 8LL) == 8);
}

TEST_CASE("a null raw pointer needs length 0", "[checked_size]") {
  CHECK(peppher::checked_length("iface", "arr", "numElements = n", 0LL, peppher::kMaxExtent,
                                nullptr) == 0);
  CHECK_THROWS_WITH(peppher::checked_length("iface", "arr", "numElements = n", 1000LL,
                                            peppher::kMaxExtent, nullptr),
                    "peppher: iface: parameter 'arr' is a null pointer but has numElements = n "
                    "= 1000 (a null pointer needs length 0)");
  const float x = 0;
  CHECK(peppher::checked_length("iface", "arr", "numElements = n * 2",
                                d::checked_mul(500LL, 2LL, "n * 2"), peppher::kMaxExtent,
                                &x) == 1000);
}
