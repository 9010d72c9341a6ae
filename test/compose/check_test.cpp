// Resolution tests: parameter kinds and element types from the type as written,
// expressions resolved against parameters and tunables, and a reduction's way into the IR
// and the generated entry wrapper.
#include <filesystem>
#include <sstream>
#include <string>

#include "compose/check/types.h"
#include "compose/facts/generic_calls.h"
#include "compose/plan/wrapper_plan.h"
#include "compose/verify/skeleton_left.h"
#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;

TEST_CASE("parameter types classify into kinds", "[check]") {
  auto kind = [](const std::string& t) { return check::classify_type(t, {"T"}); };
  CHECK(kind("float *").kind == ir::ParamKind::RawPointer);
  CHECK(kind("float *").elem_type == "float");
  CHECK(kind("const double*").is_const);
  CHECK(kind("const double*").elem_type == "double");
  CHECK(kind("peppher::Vector<float> &").kind == ir::ParamKind::Vector);
  CHECK(kind("peppher::Vector<float> &").elem_type == "float");
  CHECK(kind("const peppher::Matrix<T>&").kind == ir::ParamKind::Matrix);
  CHECK(kind("const peppher::Matrix<T>&").is_const);
  CHECK(kind("Scalar<int> &").kind == ir::ParamKind::ScalarContainer);
  CHECK(kind("int").kind == ir::ParamKind::ScalarValue);
  CHECK(kind("unsigned  long").kind == ir::ParamKind::ScalarValue);
  CHECK(kind("T").kind == ir::ParamKind::ScalarValue);
  CHECK(kind("struct params").kind == ir::ParamKind::StructValue);
  CHECK(kind("Point").kind == ir::ParamKind::StructValue);
  // T&: one element copied back after the call; const T&: read, travels by value.
  CHECK(kind("int &").kind == ir::ParamKind::Reference);
  CHECK(kind("int &").elem_type == "int");
  CHECK(kind("const Point&").kind == ir::ParamKind::StructValue);
  CHECK(kind("const Point&").elem_type == "Point");
  CHECK(kind("const double &").kind == ir::ParamKind::ScalarValue);
  CHECK_FALSE(kind("float *&").problem.empty());
  CHECK_FALSE(kind("float **").problem.empty());
  CHECK_FALSE(kind("peppher::Vector<float> *").problem.empty());
}

TEST_CASE("resolved IR: kinds, expressions, instantiate, tunable in partition", "[check]") {
  test::TempDir d;
  d.write("main.xml",
          test::component(
              "  <peppher:implementation name=\"main\">\n"
              "    <peppher:requiredInterfaces><peppher:requiredInterface name=\"sort\" "
              "xmlFile=\"sort.xml\" instantiate=\"int, float\"/></peppher:requiredInterfaces>\n"
              "    <peppher:targetPlatform name=\"CPU\"/>\n"
              "  </peppher:implementation>\n"));
  d.write(
      "sort.xml",
      test::component("  <peppher:interface name=\"sort\" kind=\"generic\" templateTypes=\"T\">\n"
                      "    <peppher:parameters>\n"
                      "      <peppher:parameter name=\"v\" type=\"peppher::Vector&lt;T&gt; &amp;\" "
                      "accessMode=\"readwrite\" partition=\"BLOCK\"/>\n"
                      "      <peppher:parameter name=\"p\" type=\"const T*\" numElements=\"(n+1) * "
                      "2\" accessMode=\"read\"/>\n"
                      "      <peppher:parameter name=\"n\" type=\"int\" accessMode=\"read\"/>\n"
                      "    </peppher:parameters>\n"
                      "  </peppher:interface>\n"));
  d.write(
      "sort/s.xml",
      test::component(
          "  <peppher:implementation name=\"sort_cpu\">\n"
          "    <peppher:sourceFiles><peppher:sourceFile name=\"s.cpp\"/></peppher:sourceFiles>\n"
          "    <peppher:providedInterfaces><peppher:providedInterface "
          "name=\"sort\"/></peppher:providedInterfaces>\n"
          "    <peppher:targetPlatform name=\"OPENMP\"/>\n"
          "    <peppher:tunables><peppher:tunable name=\"BLOCK\" type=\"int\" "
          "values=\"64,128\"/></peppher:tunables>\n"
          "  </peppher:implementation>\n"));
  d.write("sort/s.cpp", "");
  test::RunResult r = test::run_in(d.path(), {"--print-ir", "main.xml"});
  CHECK(r.err == "");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"kind\": \"vector\"") != std::string::npos);
  CHECK(r.out.find("\"elemType\": \"T\"") != std::string::npos);
  CHECK(r.out.find("\"cpp\": \"(n + 1) * 2\"") != std::string::npos);
  CHECK(r.out.find("\"backend\": \"OPENMP\"") != std::string::npos);
}

TEST_CASE("reduction=\"max\": in the IR, and the partitioned entry wrapper reduces", "[check]") {
  for (const bool partitioned : {true, false}) {
    DYNAMIC_SECTION((partitioned ? "partitioned" : "unpartitioned")) {
      test::TempDir d;
      d.write("main.xml",
              test::component("  <peppher:implementation name=\"main\">\n"
                              "    <peppher:requiredInterfaces><peppher:requiredInterface "
                              "name=\"maxdiff\" xmlFile=\"maxdiff.xml\"/></"
                              "peppher:requiredInterfaces>\n"
                              "    <peppher:targetPlatform name=\"CPU\"/>\n"
                              "  </peppher:implementation>\n"));
      d.write("maxdiff.xml",
              test::component(
                  "  <peppher:interface name=\"maxdiff\">\n"
                  "    <peppher:parameters>\n"
                  "      <peppher:parameter name=\"x\" type=\"const peppher::Vector&lt;double&gt; "
                  "&amp;\" accessMode=\"read\"" +
                  std::string(partitioned ? " partition=\"?\"" : "") +
                  "/>\n"
                  "      <peppher:parameter name=\"change\" type=\"peppher::Scalar&lt;double&gt; "
                  "&amp;\" accessMode=\"readwrite\" reduction=\"max\"/>\n"
                  "    </peppher:parameters>\n"
                  "  </peppher:interface>\n"));
      d.write("maxdiff/m.xml",
              test::component("  <peppher:implementation name=\"maxdiff_cpu\">\n"
                              "    <peppher:sourceFiles><peppher:sourceFile "
                              "name=\"m.cpp\"/></peppher:sourceFiles>\n"
                              "    <peppher:providedInterfaces><peppher:providedInterface "
                              "name=\"maxdiff\"/></peppher:providedInterfaces>\n"
                              "    <peppher:targetPlatform name=\"CPU\"/>\n"
                              "  </peppher:implementation>\n"));
      d.write("maxdiff/m.cpp",
              "#include <peppher/runtime.h>\n"
              "void maxdiff_cpu(const peppher::Vector<double>&, peppher::Scalar<double>&) {}\n");
      test::RunResult ir = test::run_in(d.path(), {"--print-ir", "main.xml"});
      REQUIRE(ir.code == 0);
      CHECK(ir.out.find("\"reduction\": \"max\"") != std::string::npos);
      test::RunResult r = test::run_in(d.path(), {"main.xml", "-o", "out"});
      INFO(r.err);
      REQUIRE(r.code == 0);
      CHECK((r.err.find("maxdiff.xml:5:117: warning: reduction of parameter 'change' has no "
                        "effect: no operand of interface 'maxdiff' is partitioned") !=
             std::string::npos) == !partitioned);
      std::string wrappers;
      for (const auto& e : std::filesystem::directory_iterator(d.path() + "/out"))
        if (e.path().extension() == ".cpp") wrappers += test::read_file(e.path().string());
      // Partitioned: each block's task gets a partial, folded into change; else change whole.
      const bool reduces =
          wrappers.find("peppher_call.reduce(1, \"change\", change, peppher::Reduction::Max);") !=
          std::string::npos;
      CHECK(reduces == partitioned);
      CHECK((wrappers.find(".use(1, change);") != std::string::npos) == !partitioned);
    }
  }
}

TEST_CASE("a C++11 main calling container interfaces is compiled as C++17, with a warning",
          "[check]") {
  ir::Application app;
  ir::Interface raw;
  raw.name = "raw";
  raw.parameters.push_back(ir::Parameter{});
  raw.parameters.back().kind = ir::ParamKind::RawPointer;
  app.interfaces.push_back(raw);
  auto source = [](const std::string& name, const std::string& flags) {
    ir::SourceFile s;
    s.loc = ir::SourceLoc{"main.xml", 3, 7};
    s.name = name;
    s.compiler.name = name.back() == 'c' ? "gcc" : "g++";
    s.compiler.flags = flags;
    return s;
  };
  app.sources = {source("main.cpp", "-O2 -std=c++11"), source("io.cpp", "-std=gnu++14 -g"),
                 source("new.cpp", "-std=c++17"), source("plain.c", "-std=c99")};
  std::ostringstream err;
  diag::Diagnostics diag(err);
  // Raw pointers only: C++11 is enough.
  std::vector<std::string> flags = plan::main_source_flags(app, diag);
  CHECK(err.str() == "");
  CHECK(flags[0] == "-O2 -std=c++11");

  ir::Interface vec;
  vec.name = "scale_vec";
  vec.parameters.push_back(ir::Parameter{});
  vec.parameters.back().kind = ir::ParamKind::Vector;
  app.interfaces.push_back(vec);
  flags = plan::main_source_flags(app, diag);
  CHECK(flags[0] == "-O2 -std=c++17");
  CHECK(flags[1] == "-std=gnu++17 -g");
  CHECK(flags[2] == "-std=c++17");
  CHECK(flags[3] == "-std=c99");
  CHECK(err.str() ==
        "main.xml:3:7: warning: 'main.cpp' is compiled with -std=c++17 instead of -std=c++11: "
        "interface 'scale_vec' takes PEPPHER containers (peppher::Vector, Matrix, Scalar), "
        "which need C++17\n"
        "main.xml:3:7: warning: 'io.cpp' is compiled with -std=gnu++17 instead of -std=gnu++14: "
        "interface 'scale_vec' takes PEPPHER containers (peppher::Vector, Matrix, Scalar), "
        "which need C++17\n");
}

TEST_CASE("a generic interface's instantiations are read from the program's calls", "[check]") {
  test::TempDir d;
  d.write("src/main.cpp",
          "#include <vector>\n#include \"peppher.h\"\n#include \"util.h\"\n"
          "struct Point { float x, y; };\n"
          "int main() {\n  PEPPHER_INITIALIZE();\n"
          "  std::vector<float> f(4); std::vector<size_t> s(4); Point p[2];\n"
          "  sort(f.data(), 4); sort(s.data(), 4); sort(f.data(), 2); sort(p, 2);\n"
          "  other(1);  // an interface the stand-in does not declare\n"
          "  pair(f.data(), 4, 1.0);\n  PEPPHER_SHUTDOWN();\n}\n");
  d.write("inc/util.h", "#define UTIL 1\n");
  facts::ProgramSource source;
  source.path = d / "src/main.cpp";
  source.flags = {"-std=c++11", "-I../inc"};
  source.directory = d / "src";
  const auto calls = facts::called_instantiations(
      {source},
      "template <typename T> void sort(T* data, int n);\n"
      "template <typename T, typename U> void pair(T* data, int n, U factor);\n"
      "#define PEPPHER_INITIALIZE()\n#define PEPPHER_SHUTDOWN()\n",
      {"sort", "pair"});
  using Lists = std::vector<std::vector<std::string>>;
  REQUIRE(calls.count("sort"));
  CHECK(calls.at("sort") == Lists{{"float"}, {"unsigned long"}, {"Point"}});
  REQUIRE(calls.count("pair"));
  CHECK(calls.at("pair") == Lists{{"float", "double"}});
}

TEST_CASE("a variant body left as utility mode wrote it is found", "[check]") {
  const std::string generated =
      "void f_cpu(const float * x, float * y, int n) {\n"
      "  // ---- PEPPHER: your CPU code goes here (and remove the (void) lines) ----\n"
      "  //   x: read, n elements\n"
      "\n"
      "  (void)x;\n"
      "  (void) y ;\n"
      "  (void)n;\n"
      "  // ---- PEPPHER: end of your code ----\n"
      "}\n";
  CHECK(verify::untouched_skeleton_line(generated) == 2);
  // One line of the user's code, anywhere between the markers: written.
  std::string filled = generated;
  filled.insert(filled.find("  (void)n;"), "  for (int i = 0; i < n; ++i) y[i] = x[i];\n");
  CHECK(verify::untouched_skeleton_line(filled) == 0);
  // The (void) lines removed and the code written after the end marker: not a skeleton.
  CHECK(verify::untouched_skeleton_line("int g(int n) {\n  return n;\n}\n") == 0);
  // The OpenCL skeleton's opening marker ends with "e.g. ----".
  CHECK(
      verify::untouched_skeleton_line(
          "__kernel void k(__global float *y) {\n"
          "  // ---- PEPPHER: your OpenCL code goes here (and remove the (void) lines), e.g. ----\n"
          "  //   for (int i = get_global_id(0); i < count; i += get_global_size(0)) { ... }\n"
          "  (void)y;\n"
          "  // ---- PEPPHER: end of your code ----\n}\n") == 2);
}
