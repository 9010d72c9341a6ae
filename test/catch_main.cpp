// The one Catch2 main shared by every test executable. With Catch2 3, Catch2 2's defaults:
// the seed is 0 unless --rng-seed gives one (Catch2 3 draws a random seed), so a test that
// seeds from Catch::rngSeed() (test_random.cpp) runs the same way on both.
#if PEPPHER_CATCH2_MAJOR == 2
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#else
#include <catch2/catch_session.hpp>

int main(int argc, char* argv[]) {
  Catch::Session session;
  session.configData().rngSeed = 0;
  const int status = session.applyCommandLine(argc, argv);
  if (status != 0) return status;
  return session.run();
}
#endif
