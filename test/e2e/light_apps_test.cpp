// Our own apps in the light form (issue 44): apps/pathfinder, hotspot and nw (CPU, OpenMP,
// OpenCL and CUDA variants, nw's OpenCL launch sizes in its kernel file), apps/kmeans
// (partitioned calls, sum reductions) and apps/particlefilter (blockFirst, Scalars, a
// one-work-item launch) compose from main.cpp alone, with no descriptor, build, and
// run with a CPU worker plus pocl and on the CPU alone with checked results; their XML form
// (the descriptors compose --emit-xml writes for them) composes to the same code, file for
// file (so it is the same program: it is composed, not built and run again).
// apps/spmv, apps/sgemm and apps/sgemm_tiles use the project's components/ (a light header
// beside each XML interface descriptor: CSR operands, a history model, a further CUDA variant,
// constraints in the variant files); their light form also gives the checksums of their own
// main.xml, which composes those components from the XML descriptors the other tests use (on
// the CPU alone: their OpenCL kernels give other bits, within the programs' checked
// tolerance).
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
  // Also compose apps/<name>/main.xml (the XML descriptors of components/) and run it: its
  // executable, named by main.xml; nullptr for the apps whose main.xml requires the headers.
  const char* xml_form_exe = nullptr;
  const char* mode_args = nullptr;  // a second problem in another mode, checked the same way
  // Whether every device gives the same bits (the Rodinia-style apps: no contraction, sums in
  // one order). spmv's and sgemm's OpenCL kernels sum in another order than their CPU
  // variants, so their checksums depend on where each call ran: equal on the CPU alone only.
  bool same_bits_anywhere = true;
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
  const fs::path composed = e2e::fresh_work_dir(std::string("light_app_as_xml_") + a.name);
  e2e::Run from_emitted = e2e::compose(xml / "main.xml", composed);
  INFO(from_emitted.output);
  REQUIRE(from_emitted.exit_code == 0);

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
  // Checked results, on a CPU worker with pocl's device and on the CPU alone.
  std::vector<fs::path> programs = {light / "main"};
  if (a.xml_form_exe != nullptr) {
    const fs::path xml_form = e2e::compose_and_build(std::string("light_app_xml_form_") + a.name,
                                                     main.parent_path() / "main.xml");
    programs.push_back(xml_form / a.xml_form_exe);
  }
  for (const char* args : {a.args, a.mode_args}) {
    if (args == nullptr) continue;
    std::vector<std::string> sums, cpu_sums;
    for (const char* workers : {e2e::kCpuAndOpenCl, e2e::kCpuOnly}) {
      for (const fs::path& exe : programs) {
        e2e::Run r = e2e::run_program(exe, args, workers);
        INFO(exe.string() << " " << args << " with " << workers << "\n" << r.output);
        CHECK(r.exit_code == 0);
        CHECK_THAT(r.output, Catch::Contains("all results correct"));
        sums.push_back(checksum(r.output));
        CHECK(!sums.back().empty());
        if (std::string(workers) == e2e::kCpuOnly) cpu_sums.push_back(sums.back());
      }
    }
    INFO(args);
    for (const std::string& sum : a.same_bits_anywhere ? sums : cpu_sums)
      CHECK(sum == (a.same_bits_anywhere ? sums : cpu_sums).front());
  }
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

TEST_CASE("e2e: apps/spmv in the light form (CSR operands, a history model) equals its XML forms") {
  check_light_app({"spmv", "3000 8 3", "spmv", "3000 8 3 hybrid", false});
}

TEST_CASE(
    "e2e: apps/sgemm in the light form (constraints, a cuBLAS variant) equals its XML forms") {
  check_light_app({"sgemm", "48 2", "sgemm", nullptr, false});
}

TEST_CASE("e2e: apps/sgemm_tiles in the light form (2-D tiles) equals its XML forms") {
  check_light_app({"sgemm_tiles", "48 2", "sgemm_tiles", nullptr, false});
}
