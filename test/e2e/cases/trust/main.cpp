// The run-time trust boundary, seen from the application: every failure is a C++
// exception in the caller, never a crash, a hang or a silently wrong result.
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "peppher.h"

int main() {
  PEPPHER_INITIALIZE();
  std::vector<float> buf(16, 0.0f);
  int failures = 0;
  auto expect_throw = [&](const char* what, auto&& call) {
    try {
      call();
      std::printf("%s: no exception\n", what);
      ++failures;
    } catch (const std::exception& e) {
      std::printf("%s: %s\n", what, e.what());
    }
  };
  // Lengths: negative, and above StarPU's 32-bit vector extent (nothing is registered).
  expect_throw("negative", [&] { fill(buf.data(), -1); });
  expect_throw("too large", [&] { fill(buf.data(), 1LL << 33); });
  fill(buf.data(), 16);
  if (buf[15] != 1.0f) ++failures;
  // A synchronous (raw-pointer) call: the variant's exception reaches the call.
  expect_throw("synchronous", [&] { boom_raw(buf.data(), 16, 1); });
  boom_raw(buf.data(), 16, 0);
  if (buf[0] != 2.0f) ++failures;
  // An asynchronous (container) call returns at once; the exception reaches the next host
  // access of the container, and the container stays usable afterwards.
  peppher::Vector<float> v(8, 1.0f);
  boom_vec(v, 1);
  expect_throw("asynchronous", [&] { (void)static_cast<float>(v[0]); });
  boom_vec(v, 0);
  if (static_cast<float>(v[0]) != 2.0f) ++failures;
  // A constraint dividing by a zero argument is false, not a division by zero.
  expect_throw("zero divisor", [&] { ratio(buf.data(), 16, 0); });
  ratio(buf.data(), 16, 2);
  std::printf("%d failures\n", failures);
  PEPPHER_SHUTDOWN();
  return failures == 0 ? 0 : 1;
}
