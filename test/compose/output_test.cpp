// OutputContext and its atomic writer: files land where asked, unchanged files are not
// rewritten, and a failing write leaves existing files and no temporaries behind.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "compose/output/output_context.h"
#include "test_util.h"

using namespace peppher;
namespace fs = std::filesystem;

TEST_CASE("writes every file, creating folders", "[output]") {
  test::TempDir dir;
  output::OutputContext out;
  out.write("peppher.h", "#pragma once\n");
  out.write("vs/vs_wrapper.h", "a");
  out.append("vs/vs_wrapper.h", "b");
  std::ostringstream err;
  diag::Diagnostics diag(err);
  REQUIRE(output::write_atomically(out, dir.path(), diag));
  CHECK(err.str().empty());
  CHECK(test::read_file(dir / "peppher.h") == "#pragma once\n");
  CHECK(test::read_file(dir / "vs/vs_wrapper.h") == "ab");
  size_t count = 0;
  for (auto& e : fs::recursive_directory_iterator(dir.path())) count += e.is_regular_file();
  CHECK(count == 2);  // no temporaries left
}

TEST_CASE("unchanged files keep their timestamp", "[output]") {
  test::TempDir dir;
  dir.write("same.txt", "x");
  auto before = fs::last_write_time(dir / "same.txt");
  output::OutputContext out;
  out.write("same.txt", "x");
  std::ostringstream err;
  diag::Diagnostics diag(err);
  REQUIRE(output::write_atomically(out, dir.path(), diag));
  CHECK(fs::last_write_time(dir / "same.txt") == before);
}

TEST_CASE("a failure leaves previous output intact", "[output]") {
  test::TempDir dir;
  dir.write("a.txt", "old");
  dir.write("blocker", "a file where a folder is needed");
  output::OutputContext out;
  out.write("a.txt", "new");
  out.write("blocker/b.txt", "cannot be written");
  std::ostringstream err;
  diag::Diagnostics diag(err);
  CHECK_FALSE(output::write_atomically(out, dir.path(), diag));
  CHECK(diag.error_count() == 1);
  CHECK(test::read_file(dir / "a.txt") == "old");
  size_t count = 0;
  for (auto& e : fs::recursive_directory_iterator(dir.path())) count += e.is_regular_file();
  CHECK(count == 2);
}
