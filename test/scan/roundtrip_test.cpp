// Round trip through the whole tool: header -> utility mode skeletons -> the test fills in
// the CPU body -> compose main.xml -> make -> run on StarPU -> the right numbers.
#include "compose/utility/utility_mode.h"
#include "peppher_catch.h"
#include "scan_test_util.h"

using namespace peppher;
using namespace peppher::scan_test;

namespace {

const char* const kMainXml = R"(<?xml version="1.0" encoding="UTF-8"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
  <peppher:implementation name="main">
    <peppher:sourceFiles>
      <peppher:sourceFile name="main.cpp" language="C++">
        <peppher:compilation><peppher:compiler><peppher:name>g++</peppher:name>
          <peppher:flags>-O2</peppher:flags></peppher:compiler></peppher:compilation>
      </peppher:sourceFile>
      <peppher:sourceFile>
        <peppher:compilation><peppher:compiler type="link"><peppher:name>g++</peppher:name>
          <peppher:output>vadd_app</peppher:output></peppher:compiler></peppher:compilation>
      </peppher:sourceFile>
    </peppher:sourceFiles>
    <peppher:requiredInterfaces>
      <peppher:requiredInterface name="vadd" xmlFile="vadd.xml"/>
    </peppher:requiredInterfaces>
    <peppher:targetPlatform name="CPU"/>
  </peppher:implementation>
</peppher:component>
)";

const char* const kMainCpp = R"(#include <cstdio>
#include "peppher.h"
int main() {
  PEPPHER_INITIALIZE();
  float a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50}, c[5] = {0, 0, 0, 0, 0};
  vadd(a, b, c, 5);
  PEPPHER_SHUTDOWN();
  std::printf("%g %g %g %g %g\n", c[0], c[1], c[2], c[3], c[4]);
  return 0;
}
)";

// Replaces what lies between the skeleton's markers with `code`.
std::string fill_body(const std::string& skeleton, const std::string& code) {
  const std::string begin = "// ---- PEPPHER: your CPU code goes here";
  const std::string end = "  // ---- PEPPHER: end of your code ----";
  size_t from = skeleton.find('\n', skeleton.find(begin)) + 1;
  size_t to = skeleton.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  return skeleton.substr(0, from) + code + skeleton.substr(to);
}

// vadd.h with @p header_text, its skeletons from utility mode, the CPU body filled in.
void generate_vadd(const TempDir& dir, const std::string& header_text) {
  write_file(dir.path() / "vadd.h", header_text);
  utility::UtilityOptions o;
  o.headers = {(dir.path() / "vadd.h").string()};
  std::ostringstream messages, progress;
  diag::Diagnostics diag(messages);
  REQUIRE(utility::run_utility_mode(o, diag, progress) == 0);
  CHECK(messages.str().empty());  // everything inferred: n is the length, c written
  const fs::path cpu = dir.path() / "vadd/vadd_cpu.cpp";
  write_file(cpu, fill_body(read_file(cpu), "  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];\n"));
}

// Composes (only the filled-in variant: the others are still skeletons), builds and runs the
// program; its output.
std::string compose_build_run(const TempDir& dir) {
  CommandResult compose =
      run("'" + std::string(PEPPHER_COMPOSE_BIN) + "' '" + (dir.path() / "main.xml").string() +
          "' -disableImpls=vadd_openmp,vadd_opencl,vadd_cuda");
  INFO(compose.output);
  REQUIRE(compose.code == 0);
  CommandResult make = run("make -C '" + dir.path().string() + "'");
  INFO(make.output);
  REQUIRE(make.code == 0);
  CommandResult app = run("'" + (dir.path() / "vadd_app").string() + "'");
  INFO(app.output);
  CHECK(app.code == 0);
  return app.output;
}

}  // namespace

TEST_CASE("round trip: header -> skeletons -> CPU body -> compose -> make -> run") {
  TempDir dir;
  generate_vadd(dir, "#pragma once\nvoid vadd(const float *a, const float *b, float *c, int n);\n");
  write_file(dir.path() / "main.xml", kMainXml);
  write_file(dir.path() / "main.cpp", kMainCpp);
  CHECK(compose_build_run(dir) == "11 22 33 44 55\n");
}

TEST_CASE("round trip from C: a plain C header without extern \"C\" guards, called from C") {
  // The legacy C program's own header: no guards. The entry wrapper gets C linkage (main.c
  // is C); its C++ side must still see the header's declaration as C.
  TempDir dir;
  generate_vadd(dir,
                "#ifndef VADD_H\n#define VADD_H\nvoid vadd(const float *a, const float *b, "
                "float *c, int n);\n#endif\n");
  std::string main_xml = kMainXml;
  const std::string cxx =
      "<peppher:sourceFile name=\"main.cpp\" language=\"C++\">\n"
      "        <peppher:compilation><peppher:compiler><peppher:name>g++</peppher:name>";
  REQUIRE(main_xml.find(cxx) != std::string::npos);
  main_xml.replace(
      main_xml.find(cxx), cxx.size(),
      "<peppher:sourceFile name=\"main.c\" language=\"C\">\n"
      "        <peppher:compilation><peppher:compiler><peppher:name>gcc</peppher:name>");
  write_file(dir.path() / "main.xml", main_xml);
  const std::string program =
      "int main(void) {\n  PEPPHER_INITIALIZE();\n"
      "  float a[3] = {1, 2, 3}, b[3] = {10, 20, 30}, c[3] = {0, 0, 0};\n"
      "  vadd(a, b, c, 3);\n  PEPPHER_SHUTDOWN();\n"
      "  printf(\"%g %g %g\\n\", c[0], c[1], c[2]);\n  return 0;\n}\n";
  const std::string includes = "#include <stdio.h>\n#include \"vadd.h\"\n#include \"peppher.h\"\n";
  // The legacy kernel still defined in the program (the three lines added, nothing removed):
  // compose says where, instead of a build that fails on conflicting declarations.
  write_file(dir.path() / "main.c",
             includes +
                 "void vadd(const float *a, const float *b, float *c, int n) {\n"
                 "  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];\n}\n" +
                 program);
  CommandResult kept = run("'" + std::string(PEPPHER_COMPOSE_BIN) + "' --check '" +
                           (dir.path() / "main.xml").string() + "'");
  INFO(kept.output);
  CHECK(kept.code != 0);
  CHECK_THAT(kept.output, Catch::Contains("main.c:4:6: error: the program defines 'vadd'"));
  write_file(dir.path() / "main.c", includes + program);
  CHECK(compose_build_run(dir) == "11 22 33\n");
}
