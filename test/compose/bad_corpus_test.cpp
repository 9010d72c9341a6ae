// Runs the real compose binary over every case in test/bad/<case>/: it must exit 1 (no
// crash), print exactly the lines of expected.txt on stderr, and leave a pre-existing
// output folder untouched. A case may give its command line in args.txt (one per line;
// default "main.xml"); "-o <tmp>" is always appended.
#include <sys/wait.h>

#include <filesystem>

#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;
namespace fs = std::filesystem;

TEST_CASE("bad-input corpus has at least 40 cases", "[bad]") {
  CHECK(test::case_folders(PEPPHER_BAD_DIR).size() >= 40);
}

TEST_CASE("every bad input fails with exactly its diagnostics", "[bad]") {
  for (const std::string& name : test::case_folders(PEPPHER_BAD_DIR)) {
    DYNAMIC_SECTION(name) {
      const std::string dir = std::string(PEPPHER_BAD_DIR) + "/" + name;
      REQUIRE(fs::exists(dir + "/expected.txt"));
      std::vector<std::string> args = {"main.xml"};
      if (fs::exists(dir + "/args.txt")) args = test::lines_of(test::read_file(dir + "/args.txt"));
      test::TempDir tmp;
      tmp.write("out/keep.txt", "previous output\n");
      std::string cmd =
          "cd " + test::shell_quote(dir) + " && " + test::shell_quote(PEPPHER_COMPOSE_BIN);
      for (const std::string& a : args) cmd += " " + test::shell_quote(a);
      cmd += " -o " + test::shell_quote(tmp / "out") + " >" + test::shell_quote(tmp / "stdout") +
             " 2>" + test::shell_quote(tmp / "stderr");
      int status = std::system(cmd.c_str());
      REQUIRE(WIFEXITED(status));
      INFO("command: " << cmd);
      std::string expected = test::read_file(dir + "/expected.txt");
      std::string actual = test::read_file(tmp / "stderr");
      CHECK(actual == expected);
      CHECK(WEXITSTATUS(status) == 1);
      size_t files = 0;
      for (auto& e : fs::recursive_directory_iterator(tmp / "out")) files += e.is_regular_file();
      CHECK(files == 1);
      CHECK(test::read_file(tmp / "out/keep.txt") == "previous output\n");
    }
  }
}
