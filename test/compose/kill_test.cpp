// compose killed at random moments (SIGKILL, SIGTERM, SIGINT) while it rewrites the output
// of a 200-interface composition whose every wrapper changes: each time, the
// folder holds the previous composition's files or the new one's, all of them, or the
// generated Makefile refuses to build (even make -n) saying to run compose again; the
// next compose then leaves the new composition; the user's own files in the folder are
// never touched; utility mode killed while --force overwrites a user's files leaves them
// all theirs again. COMPOSE_TEST_COMMIT_DELAY_US widens compose's commit so that kills land
// inside it; half the kills wait for the commit to start, the others come at any moment.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <thread>

#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kInterfaces = 200;
constexpr const char* kDelayUs = "200";  // per rename: a commit of ~600 files takes ~0.12 s

// One composition: kInterfaces interfaces k<i>(float *a, int n, <scalar> f), each with a C
// variant; `scalar` differs between the two, so every wrapper differs, and `flags`, so do the
// variants' command stamps, the Makefile and peppher.cmake.
void write_composition(const fs::path& dir, const std::string& scalar, const std::string& flags) {
  fs::create_directories(dir);
  std::string required;
  for (int i = 0; i < kInterfaces; ++i) {
    const std::string k = "k" + std::to_string(i);
    fs::create_directories(dir / k);
    std::ofstream(dir / (k + ".xml"))
        << "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
           "  <peppher:interface name=\""
        << k << "\" impPath=\"" << k
        << "/\">\n"
           "    <peppher:parameters>\n"
           "      <peppher:parameter name=\"a\" type=\"float *\" numElements=\"n\" "
           "accessMode=\"readwrite\"/>\n"
           "      <peppher:parameter name=\"n\" type=\"int\" accessMode=\"read\"/>\n"
           "      <peppher:parameter name=\"f\" type=\""
        << scalar
        << "\" accessMode=\"read\"/>\n"
           "    </peppher:parameters>\n"
           "  </peppher:interface>\n"
           "</peppher:component>\n";
    std::ofstream(dir / k / (k + "_cpu.xml"))
        << "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
           "  <peppher:implementation name=\""
        << k
        << "_cpu\">\n"
           "    <peppher:sourceFiles>\n"
           "      <peppher:sourceFile name=\""
        << k
        << "_cpu.c\" language=\"C\">\n"
           "        <peppher:compilation><peppher:compiler><peppher:name>gcc</peppher:name>"
           "<peppher:flags>"
        << flags
        << "</peppher:flags></peppher:compiler></peppher:compilation>\n"
           "      </peppher:sourceFile>\n"
           "    </peppher:sourceFiles>\n"
           "    <peppher:providedInterfaces><peppher:providedInterface name=\""
        << k
        << "\"/></peppher:providedInterfaces>\n"
           "    <peppher:targetPlatform name=\"CPU\"/>\n"
           "  </peppher:implementation>\n"
           "</peppher:component>\n";
    std::ofstream(dir / k / (k + "_cpu.c"))
        << "void " << k << "_cpu(float *a, int n, " << scalar << " f) {\n"
        << "  for (int i = 0; i < n; ++i) a[i] = (float)(a[i] * f);\n}\n";
    required += "      <peppher:requiredInterface name=\"" + k + "\" xmlFile=\"" + k + ".xml\"/>\n";
  }
  std::ofstream(dir / "main.cpp") << "#include \"peppher.h\"\n"
                                     "int main() {\n  PEPPHER_INITIALIZE();\n"
                                     "  PEPPHER_SHUTDOWN();\n  return 0;\n}\n";
  std::ofstream(dir / "main.xml")
      << "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
         "  <peppher:implementation name=\"main\">\n"
         "    <peppher:sourceFiles>\n"
         "      <peppher:sourceFile name=\"main.cpp\" language=\"C++\">\n"
         "        <peppher:compilation><peppher:compiler><peppher:name>g++</peppher:name>"
         "<peppher:flags>-O2</peppher:flags></peppher:compiler></peppher:compilation>\n"
         "      </peppher:sourceFile>\n"
         "      <peppher:sourceFile><peppher:compilation><peppher:compiler type=\"link\">"
         "<peppher:name>g++</peppher:name><peppher:output>many</peppher:output>"
         "</peppher:compiler></peppher:compilation></peppher:sourceFile>\n"
         "    </peppher:sourceFiles>\n"
         "    <peppher:providedInterfaces><peppher:providedInterface name=\"main\"/>"
         "</peppher:providedInterfaces>\n"
         "    <peppher:requiredInterfaces>\n"
      << required
      << "    </peppher:requiredInterfaces>\n"
         "    <peppher:targetPlatform name=\"CPU\"/>\n"
         "  </peppher:implementation>\n"
         "</peppher:component>\n";
}

// Starts `argv` with stdout and stderr into `log`, with `env` added.
pid_t start(const std::vector<std::string>& argv, const std::string& log,
            const std::vector<std::string>& env = {}) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) ::_exit(126);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Every regular file under `dir` whose path (relative, '/'-separated) `keep` accepts, with
// its text. Safe while a compose is renaming files there (the kill loops poll with it): an
// entry that vanishes during the walk is left out, never an exception.
std::map<std::string, std::string> snapshot(const fs::path& dir,
                                            const std::function<bool(const std::string&)>& keep) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string rel = it->path().lexically_relative(dir).generic_string();
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && keep(rel)) {
      files[rel] = test::read_file(it->path().string());
    }
  }
  return files;
}

bool staging(const std::string& rel) {
  return rel.find(".compose-stage-") != std::string::npos;
}

// Whether anything of a staging folder is left under `out`.
bool stage_left(const fs::path& out) {
  for (auto& e : fs::recursive_directory_iterator(out)) {
    if (staging(e.path().filename().string())) return true;
  }
  return false;
}

bool journal_left(const fs::path& out) {
  for (auto& e : fs::directory_iterator(out)) {
    if (e.path().filename().string().rfind(".compose-stage-", 0) == 0 &&
        fs::exists(e.path() / "journal"))
      return true;
  }
  return false;
}

ino_t inode_of(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

}  // namespace

TEST_CASE("a compose killed at any moment leaves all old, all new, or a Makefile that refuses",
          "[output][kill]") {
  // In memory where there is /dev/shm: each compose fsyncs ~600 staged files, which on a
  // busy disk costs more than the rest of the test.
  if (!std::getenv("TMPDIR") && ::access("/dev/shm", W_OK) == 0) ::setenv("TMPDIR", "/dev/shm", 1);
  test::TempDir tmp;
  const fs::path a = fs::path(tmp.path()) / "a", b = fs::path(tmp.path()) / "b";
  const fs::path out = fs::path(tmp.path()) / "out";
  write_composition(a, "float", "-O2");
  write_composition(b, "double", "-O3");
  // The user's own files, beside and among the generated ones.
  const std::map<std::string, std::string> mine = {{"notes.txt", "my notes\n"},
                                                   {"src/mine.c", "int mine(void) { return 1; }\n"},
                                                   {"peppher_cmd/README", "mine too\n"}};
  for (const auto& [rel, text] : mine) {
    fs::create_directories((out / rel).parent_path());
    std::ofstream(out / rel) << text;
  }
  auto is_mine = [&](const std::string& rel) { return mine.count(rel) > 0; };
  auto generated = [&](const std::string& rel) { return !is_mine(rel) && !staging(rel); };
  auto compose = [&](const fs::path& from) {
    return std::vector<std::string>{PEPPHER_COMPOSE_BIN, (from / "main.xml").string(), "-o",
                                    out.string()};
  };
  const std::string log = tmp / "log";
  const std::string delay = std::string("COMPOSE_TEST_COMMIT_DELAY_US=") + kDelayUs;

  // The two compositions, as compose writes them; how long one takes.
  const auto started = Clock::now();
  REQUIRE(wait_for(start(compose(a), log)) == 0);
  const auto run_time = Clock::now() - started;
  const std::map<std::string, std::string> old_files = snapshot(out, generated);
  REQUIRE(wait_for(start(compose(b), log)) == 0);
  const std::map<std::string, std::string> new_files = snapshot(out, generated);
  REQUIRE(old_files.size() > 3 * kInterfaces);
  size_t differ = 0, wrappers = 0;
  for (const auto& [rel, text] : old_files) {
    REQUIRE(new_files.count(rel) == 1);
    differ += new_files.at(rel) != text;
    if (rel.find("_wrapper.") != std::string::npos && rel.find('/') == std::string::npos) {
      ++wrappers;
      CHECK(new_files.at(rel) != text);  // every wrapper changes
    }
  }
  CHECK(wrappers == 2 * kInterfaces);
  CHECK(differ >= 3 * kInterfaces);  // the variants' stamps too

  std::random_device seed_source;
  const unsigned seed = seed_source();
  INFO("seed " << seed);
  std::mt19937 random(seed);
  const int signals[] = {SIGKILL, SIGTERM, SIGINT};
  const std::chrono::microseconds commit_time(static_cast<long>(old_files.size()) *
                                              std::stol(kDelayUs));
  int refused = 0, restored = 0, in_commit = 0, aimed = 0;
  const int rounds = 12;
  // Round r rewrites the folder from b's files to a's (r even) or back.
  for (int r = 0; r < rounds; ++r) {
    const bool to_a = r % 2 == 0;
    const auto& before = to_a ? new_files : old_files;
    const auto& after = to_a ? old_files : new_files;
    const int sig = signals[r % 3];
    // Per signal, over 4 x 3 rounds: as the commit starts, into it, any time, into it.
    const int when = (r / 3) % 4;
    const bool at_commit = when != 2;
    INFO("round " << r << ": signal " << sig << (at_commit ? " during the commit" : " any time"));
    const ino_t makefile = inode_of(out / "Makefile");
    const pid_t pid = start(compose(to_a ? a : b), log, {delay});
    if (at_commit) {
      // The Makefile is the first file renamed: wait for that, then a moment into the commit.
      const auto give_up = Clock::now() + run_time * 4 + std::chrono::seconds(5);
      while (inode_of(out / "Makefile") == makefile && Clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      ++aimed;
      in_commit += inode_of(out / "Makefile") != makefile;
      std::uniform_int_distribution<long> into(0, commit_time.count());
      if (when != 0) std::this_thread::sleep_for(std::chrono::microseconds(into(random)));
    } else {
      std::uniform_int_distribution<long> any(
          0, std::chrono::duration_cast<std::chrono::microseconds>(run_time).count() +
                 commit_time.count());
      std::this_thread::sleep_for(std::chrono::microseconds(any(random)));
    }
    ::kill(pid, sig);
    const int status = wait_for(pid);
    INFO("compose ended with status " << status << ", saying:\n" << test::read_file(log));
    restored += test::read_file(log).find("the previous output was restored") != std::string::npos;

    for (const auto& [rel, text] : mine) CHECK(test::read_file((out / rel).string()) == text);
    const std::map<std::string, std::string> now = snapshot(out, generated);
    const bool all_before = now == before, all_after = now == after;
    const bool journal = journal_left(out);
    if (sig != SIGKILL) {
      // A signal compose can catch: rolled back or finished, never left midway.
      CHECK_FALSE(journal);
      CHECK((all_before || all_after));
    }
    if (journal || !(all_before || all_after)) {
      // Midway: a journal says so, and make refuses to build anything, even to print what
      // it would build.
      size_t from_before = 0, from_after = 0;
      for (const auto& [rel, text] : now) {
        from_before += before.count(rel) && before.at(rel) == text;
        from_after += after.count(rel) && after.at(rel) == text;
      }
      INFO(now.size() << " files: " << from_before << " as before, " << from_after
                      << " as after (some are both)");
      CHECK(journal);
      ++refused;
      const int make = wait_for(start({"make", "-n", "-C", out.string()}, tmp / "make.log"));
      INFO("make -n says:\n" << test::read_file(tmp / "make.log"));
      CHECK(WIFEXITED(make));
      CHECK(WEXITSTATUS(make) != 0);
      CHECK(test::read_file(tmp / "make.log").find("run compose again") != std::string::npos);
    }

    // The next compose finishes the job: all new, nothing of the killed run left.
    REQUIRE(wait_for(start(compose(to_a ? a : b), log)) == 0);
    CHECK(snapshot(out, generated) == after);
    CHECK_FALSE(stage_left(out));
    for (const auto& [rel, text] : mine) CHECK(test::read_file((out / rel).string()) == text);
  }
  // The kills did land inside commits: some SIGKILLs left a journal, some SIGTERM or
  // SIGINT was rolled back.
  CHECK(in_commit == aimed);
  CHECK(refused > 0);
  CHECK(restored > 0);
  const int make = wait_for(start({"make", "-n", "-C", out.string()}, tmp / "make.log"));
  CHECK(WIFEXITED(make));
  CHECK(WEXITSTATUS(make) == 0);
}

TEST_CASE("utility mode killed while --force overwrites your files never leaves them half done",
          "[output][kill]") {
  if (!std::getenv("TMPDIR") && ::access("/dev/shm", W_OK) == 0) ::setenv("TMPDIR", "/dev/shm", 1);
  test::TempDir tmp;
  const fs::path dir = fs::path(tmp.path()) / "lib";
  fs::create_directories(dir);
  {
    std::ofstream header(dir / "lib.h");
    for (int i = 0; i < 40; ++i) header << "void f" << i << "(float *x, int n);\n";
  }
  const std::vector<std::string> utility = {PEPPHER_COMPOSE_BIN, "-generateCompFiles=lib.h"};
  const std::string log = tmp / "log";
  auto run_here = [&](std::vector<std::string> argv, const std::vector<std::string>& env) {
    std::vector<std::string> shell = {"sh", "-c", "cd \"$0\" && exec \"$@\"", dir.string()};
    shell.insert(shell.end(), argv.begin(), argv.end());
    return start(shell, log, env);
  };
  REQUIRE(wait_for(run_here(utility, {})) == 0);
  auto not_header = [](const std::string& rel) { return rel != "lib.h" && !staging(rel); };
  // The user edits every skeleton: these are their files now.
  std::map<std::string, std::string> mine = snapshot(dir, not_header);
  REQUIRE(mine.size() > 100);
  for (auto& [rel, text] : mine) {
    text = "// mine: " + rel + "\n";
    std::ofstream(dir / rel, std::ios::trunc) << text;
  }
  std::vector<std::string> forced = utility;
  forced.push_back("--force");
  const std::string delay = "COMPOSE_TEST_COMMIT_DELAY_US=3000";
  for (int sig : {SIGKILL, SIGTERM, SIGINT}) {
    INFO("signal " << sig);
    const pid_t pid = run_here(forced, {delay});
    // As soon as one of the user's files is overwritten, the commit is on.
    const auto give_up = Clock::now() + std::chrono::seconds(60);
    while (snapshot(dir, not_header) == mine && Clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ::kill(pid, sig);
    wait_for(pid);
    INFO("compose said:\n" << test::read_file(log));
    if (sig != SIGKILL) {
      CHECK(snapshot(dir, not_header) == mine);  // rolled back at once
      CHECK_FALSE(journal_left(dir));
    } else {
      CHECK(journal_left(dir));
    }
    // Utility mode without --force keeps existing files: after rolling the set back.
    REQUIRE(wait_for(run_here(utility, {})) == 0);
    CHECK(snapshot(dir, not_header) == mine);
    CHECK_FALSE(stage_left(dir));
  }
}
