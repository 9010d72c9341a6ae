// The cache of precompiled runtime headers stays small: the most recently used are kept,
// older ones and the leftovers of killed runs go, and nothing else in the folder is touched.
#include "compose/facts/pch_cache.h"

#include <chrono>
#include <filesystem>
#include <string>

#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;
namespace fs = std::filesystem;

namespace {

// A file @p hours_ago old (modification time).
void write_aged(const test::TempDir& dir, const std::string& name, int hours_ago) {
  dir.write(name, "x");
  fs::last_write_time(dir / name, fs::file_time_type::clock::now() - std::chrono::hours(hours_ago));
}

}  // namespace

TEST_CASE("the precompiled header cache keeps the most recently used", "[pch_cache]") {
  test::TempDir dir;
  // runtime-<i>.pch (and its .h) used i hours ago, for i = 0..19.
  for (int i = 0; i < 20; ++i) {
    write_aged(dir, "runtime-" + std::to_string(i) + ".pch", i);
    write_aged(dir, "runtime-" + std::to_string(i) + ".h", 30);
  }
  // Using the oldest makes it the newest.
  facts::note_pch_used(dir / "runtime-19.pch");
  write_aged(dir, "runtime-5.1234.tmp", 2);     // a killed run's, 2 hours old
  write_aged(dir, "runtime-6.4321.tmp", 0);     // a run building one now
  write_aged(dir, "distro-notes.pch", 100);     // not the runtime's: left alone
  dir.write("starpu-cuda/runtime-1.pch", "x");  // another tool's folder: left alone

  facts::prune_pch_cache(dir.path(), 4);

  for (int i : {19, 0, 1, 2}) {
    INFO("runtime-" << i);
    CHECK(fs::exists(dir / ("runtime-" + std::to_string(i) + ".pch")));
    CHECK(fs::exists(dir / ("runtime-" + std::to_string(i) + ".h")));  // the PCH refers to it
  }
  for (int i = 3; i < 19; ++i) {
    INFO("runtime-" << i);
    CHECK_FALSE(fs::exists(dir / ("runtime-" + std::to_string(i) + ".pch")));
    CHECK_FALSE(fs::exists(dir / ("runtime-" + std::to_string(i) + ".h")));
  }
  CHECK_FALSE(fs::exists(dir / "runtime-5.1234.tmp"));
  CHECK(fs::exists(dir / "runtime-6.4321.tmp"));
  CHECK(fs::exists(dir / "distro-notes.pch"));
  CHECK(fs::exists(dir / "starpu-cuda/runtime-1.pch"));
}

TEST_CASE("pruning a missing or small cache changes nothing", "[pch_cache]") {
  test::TempDir dir;
  facts::prune_pch_cache(dir / "missing");  // no folder: nothing to do, no throw
  write_aged(dir, "runtime-a.pch", 1000);
  write_aged(dir, "runtime-a.h", 1000);
  facts::prune_pch_cache(dir.path());
  CHECK(fs::exists(dir / "runtime-a.pch"));
  CHECK(fs::exists(dir / "runtime-a.h"));
}
