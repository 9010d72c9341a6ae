// Catch2 2 or 3, whichever the build found (test/CMakeLists.txt sets PEPPHER_CATCH2_MAJOR):
// every test includes this instead of Catch2's own headers and writes Catch2 2's names
// (Catch::Contains, Catch::Matches, Catch::StartsWith, Catch::EndsWith, Approx), which this
// header maps onto Catch2 3's (Catch::rngSeed() is in both).
#pragma once

#if PEPPHER_CATCH2_MAJOR == 2
#include <catch2/catch.hpp>
#elif PEPPHER_CATCH2_MAJOR == 3
#include <catch2/catch_all.hpp>
#include <string>

namespace Catch {
inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive cs = CaseSensitive::Yes) {
  return Matchers::ContainsSubstring(text, cs);
}
using Matchers::EndsWith;
using Matchers::Matches;
using Matchers::StartsWith;
}  // namespace Catch
using Catch::Approx;
#else
#error "PEPPHER_CATCH2_MAJOR must be 2 or 3 (test/CMakeLists.txt defines it)"
#endif
