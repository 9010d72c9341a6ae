// StarPU's model files survive anything (issue 41, item 3): a damaged history model or bus
// file (garbage, truncated, nan, negative, absurd, empty, a folder or a dangling link) is
// restored or set aside with one warning naming it, never an abort; a kill while StarPU
// rewrites the models at shutdown leaves the next run working. Each case runs the probe
// (model_probe.cpp) in a STARPU_HOME of its own, CPU workers only.
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lifecycle/model_files.h"
#include "peppher_catch.h"
#include "probe.h"

namespace fs = std::filesystem;
using peppher_test::ProbeRun;

namespace {

std::string slurp(const fs::path& path) {
  if (!fs::is_regular_file(path)) return "";
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void spit(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A STARPU_HOME of its own where the probe ran once (its model and bus files written).
struct Home {
  fs::path root;
  fs::path model, bus;
  Home() {
    char name[] = "/tmp/peppher-models-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    root = name;
    const ProbeRun first = run();
    INFO(first.output);
    REQUIRE(WIFEXITED(first.status));
    REQUIRE(WEXITSTATUS(first.status) == 0);
    model = root / ".starpu/sampling/codelets/45/peppher_model_probe.peppher-test";
    bus = root / ".starpu/sampling/bus";
    REQUIRE(fs::is_regular_file(model));
  }
  ~Home() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  ProbeRun run(const std::string& kill_at = "", std::chrono::microseconds after = {}) const {
    return peppher_test::run_probe(PEPPHER_MODEL_PROBE,
                                   {"STARPU_HOME=" + root.string(), "STARPU_HOSTNAME=peppher-test",
                                    "STARPU_NOPENCL=0", "STARPU_NCPU=1", "STARPU_SILENT=1"},
                                   kill_at, after);
  }
  // The probe runs again and ends well, saying @p warnings times that a file was damaged.
  void runs_again(int warnings) const {
    const ProbeRun r = run();
    INFO(r.output);
    REQUIRE(WIFEXITED(r.status));
    CHECK(WEXITSTATUS(r.status) == 0);
    CHECK(count(r.output, "peppher: warning: StarPU model file '") == warnings);
    CHECK(r.output.find("Assertion") == std::string::npos);
    CHECK(peppher::detail::history_model_problem(slurp(model)) == "");
  }
  int set_aside(const fs::path& path) const {
    int n = 0;
    for (const auto& e : fs::directory_iterator(path.parent_path()))
      n += e.path().filename().string().rfind(path.filename().string() + ".damaged-", 0) == 0;
    return n;
  }
};

}  // namespace

TEST_CASE("StarPU's own model and bus files pass the checks", "[models]") {
  Home home;
  CHECK(peppher::detail::history_model_problem(slurp(home.model)) == "");
  for (const char* kind : {"config", "affinity", "latency", "bandwidth"}) {
    INFO(kind);
    CHECK(peppher::detail::bus_file_problem(
              kind, slurp(home.bus / (std::string("peppher-test.") + kind))) == "");
  }
}

TEST_CASE("a damaged history model is set aside with one warning and learned again", "[models]") {
  Home home;
  const std::string good = slurp(home.model);
  const std::size_t entry = good.find("\n", good.find("# hash")) + 1;  // the first entry
  const std::size_t mean = good.find('\t', good.find('\t', good.find('\t', entry) + 1) + 1) + 1;
  SECTION("garbage") {
    spit(home.model, "garbage 1 2 3\n");
  }
  SECTION("truncated in the middle") {
    spit(home.model, good.substr(0, good.size() / 2));
  }
  SECTION("truncated in the last entry") {
    spit(home.model, good.substr(0, good.size() - 10));
  }
  SECTION("empty") {
    spit(home.model, "");
  }
  SECTION("a nan mean") {
    spit(home.model, good.substr(0, mean) + "nan" + good.substr(good.find('\t', mean)));
  }
  SECTION("a negative mean") {
    spit(home.model, good.substr(0, mean) + "-1e308" + good.substr(good.find('\t', mean)));
  }
  SECTION("an infinite mean") {
    spit(home.model, good.substr(0, mean) + "inf" + good.substr(good.find('\t', mean)));
  }
  SECTION("a folder") {
    fs::remove(home.model);
    fs::create_directory(home.model);
  }
  SECTION("a dangling link") {
    fs::remove(home.model);
    fs::create_symlink(home.root / "nowhere", home.model);
  }
  CHECK(peppher::detail::history_model_problem(slurp(home.model)) != "");
  home.runs_again(1);
  CHECK(home.set_aside(home.model) == 1);
  home.runs_again(0);  // learned again, and written whole
}

TEST_CASE("a damaged bus file is set aside and the bus calibrated again", "[models]") {
  Home home;
  auto file = [&](const char* kind) { return home.bus / (std::string("peppher-test.") + kind); };
  auto half = [&](const char* kind) {
    return slurp(file(kind)).substr(0, slurp(file(kind)).size() / 2);
  };
  SECTION("config: garbage") {
    spit(file("config"), "garbage 1 2 3\n");
  }
  SECTION("config: truncated") {
    spit(file("config"), half("config"));
  }
  SECTION("affinity: truncated") {
    spit(file("affinity"), half("affinity"));
  }
  SECTION("affinity: a folder") {
    fs::remove(file("affinity"));
    fs::create_directory(file("affinity"));
  }
  SECTION("latency: truncated") {
    spit(file("latency"), half("latency"));
  }
  SECTION("bandwidth: empty") {
    spit(file("bandwidth"), "");
  }
  SECTION("bandwidth: garbage") {
    spit(file("bandwidth"), "garbage 1 2 3\n");
  }
  home.runs_again(1);
  for (const char* kind : {"config", "affinity", "latency", "bandwidth"}) {
    INFO(kind);
    CHECK(peppher::detail::bus_file_problem(
              kind, slurp(home.bus / (std::string("peppher-test.") + kind))) == "");
  }
  home.runs_again(0);
}

TEST_CASE("absurd bus values are damage", "[models]") {
  Home home;
  const std::string good = slurp(home.bus / "peppher-test.bandwidth");
  const std::size_t first = good.find('\n') + 1;  // the first row, after the comment
  CHECK(peppher::detail::bus_file_problem(
            "bandwidth", good.substr(0, first) + "1e-300" + good.substr(good.find('\t', first))) !=
        "");
  CHECK(peppher::detail::bus_file_problem(
            "bandwidth", good.substr(0, first) + "-5" + good.substr(good.find('\t', first))) != "");
}

TEST_CASE("a kill while StarPU writes the models leaves the next run working", "[models]") {
  Home home;
  const std::string good = slurp(home.model);
  SECTION("killed at several moments of the shutdown") {
    for (int us : {0, 200, 1000, 3000, 10000, 30000}) {
      const ProbeRun killed = home.run("probe: shutting down", std::chrono::microseconds(us));
      INFO(us << " us\n" << killed.output);
      CHECK(killed.killed);
      const ProbeRun again = home.run();
      INFO(again.output);
      REQUIRE(WIFEXITED(again.status));
      CHECK(WEXITSTATUS(again.status) == 0);
      CHECK(again.output.find("Assertion") == std::string::npos);
    }
  }
  SECTION("every cut of the write: the copy kept before it comes back") {
    for (std::size_t cut : {std::size_t{0}, good.size() / 7, good.size() / 2, good.size() - 2}) {
      INFO("cut at " << cut << " of " << good.size());
      spit(home.model.string() + ".peppher-previous", good);  // kept before the write
      spit(home.model, good.substr(0, cut));                  // the write, cut by a kill
      const ProbeRun r = home.run();
      INFO(r.output);
      REQUIRE(WIFEXITED(r.status));
      CHECK(WEXITSTATUS(r.status) == 0);
      CHECK(count(r.output, "restored from the copy kept before the last shutdown") == 1);
      CHECK(peppher::detail::history_model_problem(slurp(home.model)) == "");
      CHECK(!fs::exists(home.model.string() + ".peppher-previous"));
    }
  }
}
