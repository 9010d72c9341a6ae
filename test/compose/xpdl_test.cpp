// XPDL platform queries in constraints (the published vector_scale_with_lib_constraints
// shape, test/e2e/cases/xpdl): the forms the parser accepts, compose-time answers from a
// platform descriptor and from this machine, what --explain says, and the mistakes.
#include <filesystem>

#include "compose/check/platform_queries.h"
#include "compose/expr/parser.h"
#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;
namespace fs = std::filesystem;

namespace {

// A copy of test/e2e/cases/xpdl in a temporary folder, main.xml's targetPlatform replaced
// by `target` (e.g. one with pdlRef).
void copy_case(const test::TempDir& dir, const std::string& target = "") {
  fs::copy(PEPPHER_CASES_DIR "/xpdl", dir.path(), fs::copy_options::recursive);
  if (target.empty()) return;
  std::string main = test::read_file(dir / "main.xml");
  const std::string from = "<peppher:targetPlatform name=\"CPU\"/>";
  REQUIRE(main.find(from) != std::string::npos);
  main.replace(main.find(from), from.size(), target);
  dir.write("main.xml", main);
}

std::string cuda_constraints(const std::string& exprs) {
  return test::component(
      "  <peppher:implementation name=\"scale_cublas_func\">\n"
      "    <peppher:sourceFiles><peppher:sourceFile name=\"vector_scale_cublas.cu\"/>"
      "</peppher:sourceFiles>\n"
      "    <peppher:providedInterfaces><peppher:providedInterface name=\"vector_scale\"/>"
      "</peppher:providedInterfaces>\n"
      "    <peppher:targetPlatform name=\"CUDA\"/>\n"
      "    <peppher:constraints><peppher:constraint expr=\"" +
      exprs +
      "\"/></peppher:constraints>\n"
      "  </peppher:implementation>\n");
}

}  // namespace

TEST_CASE("xpdl: is_installed parses in the published brace form and the C++ form", "[xpdl]") {
  for (const char* text :
       {"xpdl::is_installed{xpdl::system::libraries,xpdl_cublas_5_0}::value != 0",
        "xpdl::is_installed < xpdl::system::libraries , xpdl_cublas_5_0 >::value != 0",
        "xpdl::is_installed{ xpdl::system::libraries, xpdl_cublas_5_0 }::value!=0"}) {
    INFO(text);
    expr::ParseResult r = expr::parse(text);
    REQUIRE(r.root);
    std::vector<const expr::Node*> ids;
    expr::collect_identifiers(*r.root, ids);
    REQUIRE(ids.size() == 1);
    CHECK(ids[0]->text == "xpdl::is_installed<xpdl::system::libraries,xpdl_cublas_5_0>::value");
    CHECK(ids[0]->offset == 0);
    auto q = check::installed_query(ids[0]->text);
    REQUIRE(q);
    CHECK(q->set == "xpdl::system::libraries");
    CHECK(q->name == "xpdl_cublas_5_0");
  }
  expr::ParseResult both = expr::parse(
      "xpdl::system::num_of_gpus > 0 && xpdl::is_installed{xpdl::system::libraries,a}::value");
  REQUIRE(both.root);
  CHECK(expr::to_cpp(*both.root) ==
        "xpdl::system::num_of_gpus > 0 && xpdl::is_installed<xpdl::system::libraries,a>::value");
}

TEST_CASE("xpdl: malformed is_installed queries say what is expected, where", "[xpdl]") {
  auto error_of = [](const std::string& text) {
    expr::ParseResult r = expr::parse(text);
    REQUIRE(r.error);
    return std::to_string(r.error->offset) + ": " + r.error->message;
  };
  CHECK(error_of("xpdl::is_installed::value") ==
        "18: expected '{' or '<' after 'xpdl::is_installed', as in "
        "xpdl::is_installed{xpdl::system::libraries,NAME}::value");
  CHECK(error_of("xpdl::is_installed{xpdl::system::libraries}::value") ==
        "42: expected ',' in xpdl::is_installed");
  CHECK(error_of("xpdl::is_installed{xpdl::system::libraries,cublas::value") ==
        "18: '{' is never closed");
  CHECK(error_of("xpdl::is_installed{xpdl::system::libraries,cublas}") ==
        "50: expected '::value' after xpdl::is_installed{...}");
  CHECK(error_of("xpdl::is_installed{xpdl::system::libraries,}::value") ==
        "43: expected the name of what must be installed, e.g. xpdl_cublas_5_0");
}

TEST_CASE("xpdl: without a platform descriptor, libraries are looked for on this machine",
          "[xpdl]") {
  test::TempDir d;
  copy_case(d);
  test::RunResult r = test::run_in(d.path(), {"--explain", "main.xml"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  // StarPU 1.x builds every composed program, so pkg-config knows it: the module generated
  // builds use (starpu-1.3 or starpu-1.4) answers; no CUBLAS here (no CUDA toolkit on these
  // machines).
  CHECK_THAT(r.out, Catch::Contains(
                        "xpdl::is_installed<xpdl::system::libraries,xpdl_starpu_1>::value = 1: "
                        "found: pkg-config module '" PEPPHER_STARPU_MODULE
                        "' (version " PEPPHER_STARPU_VERSION ")"));
  CHECK_THAT(r.out, Catch::Contains(
                        "xpdl::is_installed<xpdl::system::libraries,xpdl_cublas_5_0>::value = 0: "
                        "not found: no pkg-config module 'cublas', no libcublas 5.0 file in the "
                        "linker's search path"));
  CHECK_THAT(r.out, Catch::Contains("(no platform descriptor lists libraries)"));
  CHECK_THAT(r.out, Catch::Contains("  in:  scale_cpu_func (CPU)\n"));
  CHECK_THAT(r.out, Catch::Contains("  out: scale_cublas_func (CUDA): "));
}

TEST_CASE(
    "xpdl: a platform descriptor's libraries answer is_installed, its properties "
    "num_of_gpus",
    "[xpdl]") {
  test::TempDir d;
  copy_case(d, "<peppher:targetPlatform name=\"CPU\" pdlRef=\"node_with_cublas.xml\"/>");
  test::RunResult r = test::run_in(d.path(), {"--explain", "main.xml"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains(
                        "xpdl::is_installed<xpdl::system::libraries,xpdl_cublas_5_0>::value = 1: "
                        "found: listed in node_with_cublas.xml (<library name=\"cublas\" "
                        "version=\"5.0\"/>, line 6)"));
  // xpdl_starpu_1 is met by the listed 1.3.10.
  CHECK_THAT(r.out, Catch::Contains(
                        "xpdl::is_installed<xpdl::system::libraries,xpdl_starpu_1>::value = 1: "
                        "found: listed in node_with_cublas.xml (<library "
                        "name=\"xpdl_starpu_1_3_10\"/>, line 7)"));
  CHECK_THAT(r.out, Catch::Contains("  in:  scale_cublas_func (CUDA)\n"));

  // A library the descriptor does not list is not installed there, whatever this machine has.
  d.write("vector_scale/vector_scale_cublas.xml",
          cuda_constraints("xpdl::is_installed{xpdl::system::libraries,xpdl_starpu_1_4}::value"));
  r = test::run_in(d.path(), {"--explain", "main.xml"});
  CHECK_THAT(r.out, Catch::Contains(
                        "xpdl::is_installed<xpdl::system::libraries,xpdl_starpu_1_4>::value = 0: "
                        "not found: not among the 2 libraries node_with_cublas.xml lists"));
}

TEST_CASE("xpdl: num_of_gpus without a platform descriptor is read when the program runs",
          "[xpdl]") {
  test::TempDir d;
  copy_case(d);
  d.write("vector_scale/vector_scale_cublas.xml",
          cuda_constraints("xpdl::system::num_of_gpus &gt; 0 &amp;&amp; XPDL_NUM_OF_GPUS &lt; 9 "
                           "&amp;&amp; xpdl::system::num_of_cpus &gt;= 0"));
  test::RunResult r = test::run_in(d.path(), {"--explain", "main.xml"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains(
                        "  in:  scale_cublas_func (CUDA)\n"
                        "        xpdl::system::num_of_gpus = StarPU's CUDA worker count, read when "
                        "the program runs\n"
                        "        XPDL_NUM_OF_GPUS = StarPU's CUDA worker count, read when the "
                        "program runs\n"
                        "        xpdl::system::num_of_cpus = StarPU's CPU worker count, read when "
                        "the program runs\n"));
  // Generated: the counts come from StarPU in the entry wrapper.
  test::RunResult g = test::run_in(d.path(), {"main.xml", "-o", d / "out"});
  REQUIRE(g.code == 0);
  CHECK_THAT(test::read_file(d / "out/vector_scale_wrapper.cpp"),
             Catch::Contains("static_cast<long long>(starpu_cuda_worker_get_count()) > 0 &&"));
}

TEST_CASE("xpdl: every XPDL worker-count name reads its own backend's count", "[xpdl]") {
  test::TempDir d;
  copy_case(d);
  d.write(
      "vector_scale/vector_scale_cublas.xml",
      cuda_constraints("xpdl::system::num_opencl &gt;= 0 &amp;&amp; "
                       "xpdl::system::num_cpus &gt; 1 &amp;&amp; xpdl::system::num_cuda &gt; 0"));
  test::RunResult r = test::run_in(d.path(), {"--explain", "main.xml"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("xpdl::system::num_opencl = StarPU's OpenCL worker count"));
  CHECK_THAT(r.out, Catch::Contains("xpdl::system::num_cpus = StarPU's CPU worker count"));
  CHECK_THAT(r.out, Catch::Contains("xpdl::system::num_cuda = StarPU's CUDA worker count"));
  test::RunResult g = test::run_in(d.path(), {"main.xml", "-o", d / "out"});
  REQUIRE(g.code == 0);
  const std::string wrapper = test::read_file(d / "out/vector_scale_wrapper.cpp");
  CHECK_THAT(wrapper, Catch::Contains("(starpu_opencl_worker_get_count()) >= 0"));
  CHECK_THAT(wrapper, Catch::Contains("(starpu_cpu_worker_get_count()) > 1"));
  CHECK_THAT(wrapper, Catch::Contains("(starpu_cuda_worker_get_count()) > 0"));
}

TEST_CASE("xpdl: unknown sets and system names are errors at their column", "[xpdl]") {
  test::TempDir d;
  copy_case(d);
  d.write("vector_scale/vector_scale_cublas.xml",
          cuda_constraints("xpdl::is_installed{xpdl::system::library,cublas}::value || "
                           "xpdl::system::num_of_memorys &gt; 1"));
  test::RunResult r = test::run_in(d.path(), {"--check", "main.xml"});
  CHECK(r.code == 1);
  CHECK(r.err ==
        "vector_scale/vector_scale_cublas.xml:6:52: error: constraint asks whether 'cublas' is "
        "installed in 'xpdl::system::library'; XPDL's sets are xpdl::system::libraries, "
        "xpdl::system::softwares and xpdl::system::oss; did you mean 'xpdl::system::libraries'?\n"
        "vector_scale/vector_scale_cublas.xml:6:111: error: constraint uses "
        "'xpdl::system::num_of_memorys', which only a platform descriptor can give: add "
        "<peppher:property name=\"num_of_memorys\" value=\"...\"/> to it (known without one: "
        "xpdl::system::num_of_gpus, xpdl::system::num_of_cpus)\n");
}
