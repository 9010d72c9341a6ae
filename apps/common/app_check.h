// Shared by every Rodinia-style app (composed and direct versions): a bit-exact checksum of
// the result, printed by both versions so that tests can compare them, and size parsing.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace app {

/// FNV-1a over the bytes of @p n elements of trivially copyable T (bit-exact comparison).
template <typename T>
std::uint64_t checksum(const T* data, std::size_t n, std::uint64_t h = 1469598103934665603ull) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n * sizeof(T); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

/// argv[i] as a positive int, @p fallback when absent; exits with usage text when invalid.
inline int arg(int argc, char** argv, int i, int fallback, const char* usage) {
  if (argc <= i) return fallback;
  const int v = std::atoi(argv[i]);
  if (v < 1) {
    std::fprintf(stderr, "usage: %s\n", usage);
    std::exit(2);
  }
  return v;
}

/// Seconds on a steady clock: apps time from before their data is handed to the runtime
/// until the result is back on the host (bench/apps compares these).
inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Prints the verdict line every app ends with and returns the exit code.
inline int verdict(const char* app, const char* what, long wrong, std::uint64_t sum,
                   double seconds) {
  std::printf("%s: %s: %s checksum=%016llx time=%.6f\n", app, what,
              wrong == 0 ? "all results correct" : "WRONG RESULTS",
              static_cast<unsigned long long>(sum), seconds);
  if (wrong != 0) std::printf("%s: %ld wrong elements\n", app, wrong);
  return wrong == 0 ? 0 : 1;
}

}  // namespace app
