// VariantCheck (peppher/task.h), the entry wrapper's test of a call whose every variant has
// constraints: its error names each value as std::ostringstream writes it, although the
// formatting is out of line (call/variant_check.cpp) and the header includes no <sstream>.
#include <cstddef>
#include <ostream>
#include <sstream>
#include <string>

#include "peppher/error.h"
#include "peppher/task.h"
#include "peppher_catch.h"

namespace {

enum Mode { Fast = 2 };

struct Point {
  int x, y;
};
std::ostream& operator<<(std::ostream& out, const Point& p) {
  return out << '(' << p.x << ", " << p.y << ')';
}

template <typename T>
std::string streamed(const T& v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

std::string failure_of(const peppher::VariantCheck& check) {
  try {
    check.fail();
  } catch (const peppher::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("VariantCheck: each value as a stream writes it, then each variant's reason") {
  peppher::VariantCheck check("iface");
  check.variant("iface_cpu", "CPU", 1);
  check.predicate("n > 4", false);
  check.variant("iface_opencl", "OPENCL", 0);
  CHECK(!check.accepted());

  const float f = 0.1f;
  const double d = 1e-7;
  const long double ld = 2.5L;
  const char c = 'x';
  const signed char sc = 'y';
  const unsigned char uc = 'z';
  const bool b = true;
  const std::size_t n = 5000;
  const short s = -3;
  const long long ll = -9000000000LL;
  const unsigned long long ull = 18446744073709551615ULL;
  const Mode m = Fast;
  const Point p{1, 2};
  const std::string text = "abc";
  check.value("f", f);
  check.value("d", d);
  check.value("ld", ld);
  check.value("c", c);
  check.value("sc", sc);
  check.value("uc", uc);
  check.value("b", b);
  check.value("n", n);
  check.value("s", s);
  check.value("ll", ll);
  check.value("ull", ull);
  check.value("m", m);
  check.value("p", p);
  check.value("text", text);
  const std::string values =
      "f = " + streamed(f) + ", d = " + streamed(d) + ", ld = " + streamed(ld) +
      ", c = " + streamed(c) + ", sc = " + streamed(sc) + ", uc = " + streamed(uc) +
      ", b = " + streamed(b) + ", n = " + streamed(n) + ", s = " + streamed(s) +
      ", ll = " + streamed(ll) + ", ull = " + streamed(ull) + ", m = " + streamed(m) +
      ", p = " + streamed(p) + ", text = " + streamed(text);
  CHECK(values ==
        "f = 0.1, d = 1e-07, ld = 2.5, c = x, sc = y, uc = z, b = 1, n = 5000, s = -3, "
        "ll = -9000000000, ull = 18446744073709551615, m = 2, p = (1, 2), text = abc");
  CHECK(failure_of(check) == "peppher: iface: no variant accepts this call (" + values +
                                 "): iface_cpu (CPU): n > 4 is false; iface_opencl (OPENCL): "
                                 "no OPENCL worker in this run");
}

TEST_CASE("VariantCheck: a call some variant accepts, and a failure without values") {
  peppher::VariantCheck accepted("iface");
  accepted.variant("iface_cpu", "CPU", 1);
  accepted.predicate("n > 4", true);
  CHECK(accepted.accepted());

  peppher::VariantCheck refused("iface");
  refused.variant("iface_cpu", "CPU", 0);
  CHECK(!refused.accepted());
  CHECK(failure_of(refused) ==
        "peppher: iface: no variant accepts this call: iface_cpu (CPU): no CPU worker in this run");
}
