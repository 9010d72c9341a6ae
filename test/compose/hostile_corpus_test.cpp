// Runs the real compose binary over every case in test/hostile/<case>/: descriptors and
// command lines an attacker (or a careless third party) could write. Each case must exit
// with its code (exit.txt, default 1) and print exactly expected.txt on stderr (@OUT@ stands
// for the output folder, @CASE@ for the case's copy), and nothing may appear or change
// outside the output folder. When compose succeeds, `make -n` and `make -n clean` in the
// output folder must run no command (nothing appears anywhere) and every generated XML
// file must be well-formed. The case runs on a copy, from a working folder two levels
// below the temp root, so `../../X` escapes would land inside what is watched.
// args.txt (one argument per line) replaces the default `main.xml -o @OUT@`; a case with
// a file `cwd_deleted` runs from a working folder deleted before compose starts.
// special.txt makes what a repository cannot hold, in the case's copy, one a line:
// `fifo PATH`, `link PATH TARGET` (a symbolic link), `folder PATH`, `large PATH BYTES`. compose
// runs under a 60 s timeout: a hang fails the case (exit 124) instead of the suite.
// COMPOSE_UPDATE_HOSTILE=1 records each case's stderr into its expected.txt.
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;
namespace fs = std::filesystem;

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

int run(const std::string& cmd) {
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Makes the FIFOs, links and folders special.txt lists, inside `work`.
void make_special_files(const fs::path& list, const fs::path& work) {
  for (const std::string& line : test::lines_of(test::read_file(list))) {
    std::istringstream words(line);
    std::string kind, path, target;
    words >> kind >> path >> target;
    const fs::path at = work / path;
    fs::create_directories(at.parent_path());
    fs::remove(at);
    if (kind == "fifo") {
      REQUIRE(::mkfifo(at.c_str(), 0644) == 0);
    } else if (kind == "link") {
      fs::create_symlink(target, at);
    } else if (kind == "folder") {
      fs::create_directories(at);
    } else if (kind == "large") {  // `large PATH BYTES`: a file of that size (zeros, sparse)
      std::ofstream(at).close();
      fs::resize_file(at, std::stoull(target));
    } else {
      FAIL("special.txt: unknown kind '" << kind << "' in '" << line << "'");
    }
  }
}

}  // namespace

TEST_CASE("hostile-input corpus has one case per finding", "[hostile]") {
  CHECK(test::case_folders(PEPPHER_HOSTILE_DIR).size() >= 30);
}

TEST_CASE("every hostile input is refused or made inert", "[hostile]") {
  for (const std::string& name : test::case_folders(PEPPHER_HOSTILE_DIR)) {
    DYNAMIC_SECTION(name) {
      const fs::path src = fs::path(PEPPHER_HOSTILE_DIR) / name;
      const bool update = std::getenv("COMPOSE_UPDATE_HOSTILE") != nullptr;
      REQUIRE((update || fs::exists(src / "expected.txt")));
      test::TempDir tmp;
      const fs::path root = tmp.path();
      const fs::path work = root / "a" / "b" / "case";
      const fs::path out = root / "a" / "b" / "out";
      fs::create_directories(work);
      fs::copy(src, work, fs::copy_options::recursive);
      for (const char* meta :
           {"expected.txt", "args.txt", "exit.txt", "README", "cwd_deleted", "special.txt"}) {
        fs::remove(work / meta);
      }
      if (fs::exists(src / "special.txt")) make_special_files(src / "special.txt", work);
      std::vector<std::string> args = {"main.xml", "-o", "@OUT@"};
      if (fs::exists(src / "args.txt")) args = test::lines_of(test::read_file(src / "args.txt"));
      int expected_exit = 1;
      if (fs::exists(src / "exit.txt"))
        expected_exit = std::stoi(test::read_file(src / "exit.txt"));

      std::string cwd = work.string();
      if (fs::exists(src / "cwd_deleted")) {
        cwd = (root / "a" / "gone").string();
        fs::create_directories(cwd);
      }
      std::string cmd = "cd " + test::shell_quote(cwd) + " && ";
      if (fs::exists(src / "cwd_deleted")) cmd += "rmdir " + test::shell_quote(cwd) + " && ";
      cmd += "timeout 60 " + test::shell_quote(PEPPHER_COMPOSE_BIN);
      for (const std::string& a : args) {
        cmd += " " + test::shell_quote(replace_all(replace_all(a, "@OUT@", out.string()), "@CASE@",
                                                   work.string()));
      }
      cmd += " >" + test::shell_quote(root / "stdout") + " 2>" + test::shell_quote(root / "stderr");
      const auto before = test::snapshot(root, out);
      const int code = run(cmd);
      INFO("command: " << cmd);
      if (update) {  // COMPOSE_UPDATE_HOSTILE=1: record stderr (review the diff like code)
        std::ofstream(src / "expected.txt", std::ios::binary)
            << replace_all(replace_all(test::read_file(root / "stderr"), out.string(), "@OUT@"),
                           work.string(), "@CASE@");
      }
      const std::string expected =
          replace_all(replace_all(test::read_file(src / "expected.txt"), "@OUT@", out.string()),
                      "@CASE@", work.string());
      CHECK(test::read_file(root / "stderr") == expected);
      CHECK(code == expected_exit);

      // Nothing outside -o: the same files, with the same contents, as before the run.
      auto after = test::snapshot(root, out);
      after.erase("stdout");
      after.erase("stderr");
      auto before_run = before;
      before_run.erase("a/gone");
      after.erase("a/gone");
      CHECK(after == before_run);
      if (code != 0) {
        CHECK((!fs::exists(out) || fs::is_empty(out)));
        continue;
      }
      // make -n prints commands without running them: no name may smuggle one in.
      if (fs::exists(out / "Makefile")) {
        const auto built = test::snapshot(root, "");
        CHECK(run("make -n -C " + test::shell_quote(out) + " >/dev/null 2>&1") == 0);
        CHECK(run("make -n -C " + test::shell_quote(out) + " clean >/dev/null 2>&1") == 0);
        CHECK(test::snapshot(root, "") == built);
      }
      for (auto& e : fs::recursive_directory_iterator(out)) {
        if (e.path().extension() != ".xml") continue;
        INFO("generated " << e.path());
        CHECK(run("xmllint --noout " + test::shell_quote(e.path()) + " >/dev/null 2>&1") == 0);
      }
    }
  }
}

namespace {

// Composes test/hostile/flags_shell_characters (a valid application) into `out` from a copy
// in `work`, after setting the variant's flags to `flags`.
int compose_with_flags(const fs::path& work, const fs::path& out, const std::string& flags,
                       const std::string& extra = "") {
  const fs::path variant = work / "vector_scale" / "scale_cpu.xml";
  std::string xml = test::read_file(variant);
  const size_t open = xml.find("<peppher:flags>") + std::string("<peppher:flags>").size();
  const size_t close = xml.find("</peppher:flags>");
  xml.replace(open, close - open, flags);
  std::ofstream(variant, std::ios::binary) << xml;
  return run("cd " + test::shell_quote(work) + " && " + test::shell_quote(PEPPHER_COMPOSE_BIN) +
             " main.xml -o " + test::shell_quote(out) + " " + extra + " >/dev/null 2>&1");
}

std::string make_dry_run(const fs::path& out) {
  const fs::path log = out.parent_path() / "make.log";
  run("make -n -C " + test::shell_quote(out) + " >" + test::shell_quote(log) + " 2>&1");
  return test::read_file(log);
}

}  // namespace

TEST_CASE("changing a variant's flags rebuilds that variant's object only", "[hostile][makefile]") {
  test::TempDir tmp;
  const fs::path work = fs::path(tmp.path()) / "case", out = fs::path(tmp.path()) / "out";
  fs::copy(fs::path(PEPPHER_HOSTILE_DIR) / "flags_shell_characters", work,
           fs::copy_options::recursive);
  REQUIRE(compose_with_flags(work, out, "-O2") == 0);
  // make -t marks every target up to date without building anything (in existing folders).
  for (const char* owner : {"main", "scale_cpu", "peppher"})
    fs::create_directories(out / "obj" / owner);
  REQUIRE(run("make -s -t -C " + test::shell_quote(out) + " >/dev/null 2>&1") == 0);
  CHECK(make_dry_run(out).find("-c ") == std::string::npos);
  REQUIRE(compose_with_flags(work, out, "-O3 -DNEW_FLAG") == 0);
  const std::string plan = make_dry_run(out);
  INFO(plan);
  CHECK(plan.find("-O3 -DNEW_FLAG") != std::string::npos);
  CHECK(plan.find("-o obj/scale_cpu/scale_cpu.o") != std::string::npos);
  CHECK(plan.find("-o obj/main/main.o") == std::string::npos);
  CHECK(plan.find("-o obj/peppher/vector_scale_wrapper.o") == std::string::npos);
}

TEST_CASE("--force replaces files compose did not generate; stale staging is removed",
          "[hostile][output]") {
  test::TempDir tmp;
  const fs::path work = fs::path(tmp.path()) / "case", out = fs::path(tmp.path()) / "out";
  fs::copy(fs::path(PEPPHER_HOSTILE_DIR) / "flags_shell_characters", work,
           fs::copy_options::recursive);
  fs::create_directories(out);
  std::ofstream(out / "Makefile") << "# my own\n";
  fs::create_directories(out / ".compose-stage-999999999-abcdef");  // a killed run's, pid gone
  CHECK(compose_with_flags(work, out, "-O2") == 1);
  CHECK(test::read_file(out / "Makefile") == "# my own\n");
  CHECK(compose_with_flags(work, out, "-O2", "--force") == 0);
  CHECK(test::read_file(out / "Makefile").find("Generated by compose") != std::string::npos);
  for (auto& e : fs::directory_iterator(out)) {
    CHECK(e.path().filename().string().rfind(".compose-stage-", 0) == std::string::npos);
  }
}

// Generated Makefile: an object depends on a stamp of its own compile command, so changing
// a variant's flags and composing again rebuilds that object and nothing else; composing
// again unchanged rebuilds nothing.
TEST_CASE("changed compile flags rebuild exactly the objects they compile", "[hostile]") {
  test::TempDir dir;
  const auto variant = [](const std::string& flags) {
    return test::component(
        "  <peppher:implementation name=\"scale_cpu\">\n"
        "    <peppher:sourceFiles>\n"
        "      <peppher:sourceFile name=\"scale_cpu.cpp\" language=\"C++\">\n"
        "        <peppher:compilation><peppher:compiler><peppher:name>g++</peppher:name>"
        "<peppher:flags>" +
        flags +
        "</peppher:flags></peppher:compiler></peppher:compilation>\n"
        "      </peppher:sourceFile>\n"
        "    </peppher:sourceFiles>\n"
        "    <peppher:providedInterfaces><peppher:providedInterface name=\"vector_scale\"/>"
        "</peppher:providedInterfaces>\n"
        "    <peppher:targetPlatform name=\"CPU\"/>\n"
        "  </peppher:implementation>\n");
  };
  dir.write("main.xml",
            test::read_file(std::string(PEPPHER_HOSTILE_DIR) + "/flags_shell_characters/main.xml"));
  dir.write("vector_scale.xml", test::read_file(std::string(PEPPHER_HOSTILE_DIR) +
                                                "/flags_shell_characters/vector_scale.xml"));
  dir.write("main.cpp", "int main() { return 0; }\n");
  dir.write("vector_scale/scale_cpu.cpp",
            "void scale_cpu(float* arr, int size, float factor) {\n"
            "  for (int i = 0; i < size; ++i) arr[i] *= factor;\n}\n");
  dir.write("vector_scale/scale_cpu.xml", variant("-O2"));
  const std::string out = dir / "out";
  const std::string compose =
      test::shell_quote(PEPPHER_COMPOSE_BIN) + " main.xml -o out >/dev/null";
  const std::string make = "make -C " + test::shell_quote(out) + " -s ";
  const std::string variant_object = "obj/scale_cpu/scale_cpu.o";
  const std::string main_object = "obj/main/main.o";
  const std::string cd = "cd " + test::shell_quote(dir.path()) + " && ";

  REQUIRE(run(cd + compose) == 0);
  INFO(test::read_file(out + "/Makefile"));
  REQUIRE(run(make + variant_object + " " + main_object + " >/dev/null 2>&1") == 0);
  CHECK(run(make + "-q " + variant_object) == 0);  // -q: 0 when up to date

  REQUIRE(run(cd + compose) == 0);  // unchanged: still up to date
  CHECK(run(make + "-q " + variant_object) == 0);
  CHECK(run(make + "-q " + main_object) == 0);

  dir.write("vector_scale/scale_cpu.xml", variant("-O1 -DSCALE_DEBUG"));
  REQUIRE(run(cd + compose) == 0);
  CHECK(run(make + "-q " + variant_object) == 1);  // its command changed: out of date
  CHECK(run(make + "-q " + main_object) == 0);     // another object's did not
}

// A compose that runs while make compiles (a slow compiler wrapper: ccache or distcc on a busy
// machine) rewrites the stamp before the compile ends, so the object would be newer than the
// new stamp yet built with the old command, and the next make would rebuild nothing. The make
// that started first is played here by the Makefile it read, kept aside, run after the second
// compose: its rule must remove what it built and fail, and the next make builds anew.
TEST_CASE("compose during make cannot leave an object built with the old command", "[hostile]") {
  test::TempDir tmp;
  const fs::path work = fs::path(tmp.path()) / "case", out = fs::path(tmp.path()) / "out";
  fs::copy(fs::path(PEPPHER_HOSTILE_DIR) / "flags_shell_characters", work,
           fs::copy_options::recursive);
  REQUIRE(compose_with_flags(work, out, "-O2 -DFACTOR=2") == 0);
  const fs::path old_makefile = fs::path(tmp.path()) / "Makefile.read-by-the-first-make";
  fs::copy_file(out / "Makefile", old_makefile);
  REQUIRE(compose_with_flags(work, out, "-O2 -DFACTOR=3") == 0);
  const std::string object = "obj/scale_cpu/scale_cpu.o";
  const std::string in_out = "make -s -C " + test::shell_quote(out);
  const std::string first_make = in_out + " -f " + test::shell_quote(old_makefile) + " " + object;
  CHECK(run(first_make + " >/dev/null 2>&1") != 0);
  CHECK_FALSE(fs::exists(out / object));
  CHECK(run(in_out + " -q " + object) == 1);  // out of date: the next make compiles it
  REQUIRE(run(in_out + " " + object + " >/dev/null 2>&1") == 0);
  CHECK(run(in_out + " -q " + object) == 0);
}
