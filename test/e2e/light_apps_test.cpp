// Our own apps in the light form (issue 44): apps/pathfinder, hotspot and nw (CPU, OpenMP,
// OpenCL and CUDA variants, nw's OpenCL launch sizes in its kernel file), apps/kmeans
// (partitioned calls, sum reductions) and apps/particlefilter (blockFirst, Scalars, a
// one-work-item launch) compose from main.cpp alone, with no descriptor, build,
// run with a CPU worker plus pocl and on the CPU alone, and give the same code and the same
// checked results as their XML form (the descriptors compose --emit-xml writes for them).
#include <regex>
#include <string>
#include <vector>

#include "e2e_support.h"
#include "light_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;

namespace {

struct App {
  const char* name;  // folder under apps/
  const char* args;  // a small problem
};

// The checksum the program prints on its verdict line ("" when it printed none).
std::string checksum(const std::string& output) {
  std::smatch m;
  return std::regex_search(output, m, std::regex("checksum=([0-9a-f]+)")) ? m[1].str() : "";
}

void check_light_app(const App& a) {
  const fs::path main = e2e::source_dir() / "apps" / a.name / "main.cpp";
  const fs::path light = e2e::compose_and_build(std::string("light_app_") + a.name, main);
  const fs::path xml = e2e::fresh_work_dir(std::string("light_app_xml_") + a.name);
  e2e::Run emit = e2e::run(std::string(PEPPHER_COMPOSE_EXE) + " --emit-xml " + xml.string() + " " +
                           main.string());
  INFO(emit.output);
  REQUIRE(emit.exit_code == 0);
  const fs::path composed =
      e2e::compose_and_build(std::string("light_app_as_xml_") + a.name, xml / "main.xml");

  // The same generated code, file for file.
  const std::map<std::string, std::string> from_light = e2e::generated(light);
  const std::map<std::string, std::string> from_xml = e2e::generated(composed);
  CHECK(from_light.size() > 2);
  CHECK(from_light.size() == from_xml.size());
  for (const auto& [file, text] : from_light) {
    INFO(file);
    REQUIRE(from_xml.count(file) == 1);
    CHECK(text == from_xml.at(file));
  }
  // The same checked results, on a CPU worker with pocl's device and on the CPU alone.
  std::vector<std::string> sums;
  for (const char* workers : {e2e::kCpuAndOpenCl, e2e::kCpuOnly}) {
    for (const fs::path& exe : {light / "main", composed / "main"}) {
      e2e::Run r = e2e::run_program(exe, a.args, workers);
      INFO(exe.string() << " " << a.args << " with " << workers << "\n" << r.output);
      CHECK(r.exit_code == 0);
      CHECK_THAT(r.output, Catch::Contains("all results correct"));
      sums.push_back(checksum(r.output));
      CHECK(!sums.back().empty());
    }
  }
  for (const std::string& s : sums) CHECK(s == sums.front());
}

}  // namespace

TEST_CASE("e2e: apps/pathfinder in the light form equals its XML form") {
  check_light_app({"pathfinder", "2000 40"});
}

TEST_CASE("e2e: apps/hotspot in the light form equals its XML form") {
  check_light_app({"hotspot", "96 80 21"});
}

TEST_CASE("e2e: apps/nw in the light form (launch sizes in the kernel file) equals its XML form") {
  check_light_app({"nw", "160 10"});
}

TEST_CASE("e2e: apps/kmeans in the light form (partitions, reductions) equals its XML form") {
  check_light_app({"kmeans", "3000 3 4 500 20"});
}

TEST_CASE("e2e: apps/particlefilter in the light form (blockFirst, Scalars) equals its XML form") {
  check_light_app({"particlefilter", "48 48 6 600 200"});
}
