// Outputs written whole and never through a link (issue 41, item 2): files::write_file, which
// writes the trace (PEPPHER_TRACE), the training table and the bus measurements, goes through
// a fresh temporary next to the target and renames it only onto a regular file or nothing;
// anything else at the path is an error naming it, and a failed write leaves no temporary.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "common/files.h"
#include "peppher/runtime.h"
#include "peppher_catch.h"
#include "support.h"

namespace fs = std::filesystem;

namespace {

// A fresh folder under /tmp, removed with everything in it at the end of the scope.
struct TempDir {
  fs::path path;
  TempDir() {
    char name[] = "/tmp/peppher-outputs-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The entries of @p dir other than @p keep (a temporary left behind shows up here).
int others_in(const fs::path& dir, const std::string& keep) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) n += entry.path().filename() != keep;
  return n;
}

}  // namespace

TEST_CASE("write_file replaces a regular file or makes a new one, whole", "[outputs]") {
  TempDir dir;
  const fs::path target = dir.path / "out.json";
  CHECK(peppher::files::write_file(target, "first") == "");
  CHECK(slurp(target) == "first");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  CHECK(peppher::files::write_file(target, "second") == "");
  CHECK(slurp(target) == "second");
  CHECK(fs::status(target).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(others_in(dir.path, "out.json") == 0);
}

TEST_CASE("write_file never writes through a link nor over a special file", "[outputs]") {
  TempDir dir;
  const fs::path target = dir.path / "trace.json";
  SECTION("a link to a regular file: an error naming it, the file it names untouched") {
    spit(dir.path / "victim", "keep me");
    fs::create_symlink(dir.path / "victim", target);
    const std::string problem = peppher::files::write_file(target, "new");
    CHECK_THAT(problem, Catch::StartsWith("is a link to '" + (dir.path / "victim").string()));
    CHECK(slurp(dir.path / "victim") == "keep me");
    CHECK(fs::is_symlink(fs::symlink_status(target)));
  }
  SECTION("a dangling link") {
    fs::create_symlink(dir.path / "nowhere", target);
    CHECK_THAT(peppher::files::write_file(target, "new"), Catch::StartsWith("is a link to"));
    CHECK(!fs::exists(dir.path / "nowhere"));
  }
  SECTION("a FIFO") {
    REQUIRE(mkfifo(target.c_str(), 0600) == 0);
    CHECK(peppher::files::write_file(target, "new") == "is not a regular file (a FIFO)");
    CHECK(fs::is_fifo(fs::symlink_status(target)));
  }
  SECTION("a folder") {
    fs::create_directory(target);
    CHECK(peppher::files::write_file(target, "new") == "is a folder");
    CHECK(fs::is_directory(fs::symlink_status(target)));
  }
  SECTION("a device: /dev/null stays a device") {
    CHECK(peppher::files::write_file("/dev/null", "new") ==
          "is not a regular file (a character device)");
    CHECK(fs::is_character_file(fs::symlink_status("/dev/null")));
  }
  SECTION("a link planted at the old fixed temporary name is not followed") {
    spit(dir.path / "victim", "keep me");
    fs::create_symlink(dir.path / "victim", target.string() + ".tmp");
    CHECK(peppher::files::write_file(target, "new") == "");
    CHECK(slurp(target) == "new");
    CHECK(slurp(dir.path / "victim") == "keep me");
  }
  CHECK(others_in(dir.path, "trace.json") <= 2);  // the victim, a planted link; no temporary
}

TEST_CASE("a write that fails leaves the old file and no temporary", "[outputs]") {
  TempDir dir;
  const fs::path target = dir.path / "table.xml";
  spit(target, "old");
  // Files of this process may not grow past 16 bytes for a moment: the write fails (EFBIG).
  rlimit old_limit{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
  rlimit small = old_limit;
  small.rlim_cur = 16;
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  const std::string problem = peppher::files::write_file(target, std::string(4096, 'x'));
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(problem, Catch::StartsWith("cannot be written ("));
  CHECK(slurp(target) == "old");
  CHECK(others_in(dir.path, "table.xml") == 0);
  SECTION("a folder that does not exist") {
    CHECK_THAT(peppher::files::write_file(dir.path / "no" / "t.json", "x"),
               Catch::Contains("No such file or directory"));
  }
}

TEST_CASE("a trace path naming a FIFO is said, the program goes on", "[outputs][trace]") {
  TempDir dir;
  const fs::path fifo = dir.path / "run.json";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string said = peppher_test::stderr_of([&] {
    peppher::Config config;
    config.trace_file = fifo.string();
    peppher::Runtime runtime(config);
  });
  CHECK_THAT(said, Catch::Contains("peppher: the trace was not written: '" + fifo.string() +
                                   "' is not a regular file (a FIFO)"));
  CHECK(fs::is_fifo(fs::symlink_status(fifo)));
  CHECK(others_in(dir.path, "run.json") == 0);
}
