// Unit tests of the rules that keep untrusted descriptor text inert: identifiers, type
// spellings, build words, guarded divisions in predicates, OpenCL build options, and
// overflow-checked constant evaluation.
#include <catch2/catch.hpp>

#include "compose/check/predicates.h"
#include "compose/check/untrusted_text.h"
#include "compose/expr/parser.h"
#include "compose/plan/wrapper_plan.h"

using namespace peppher;

TEST_CASE("identifiers, type spellings and build words", "[untrusted]") {
  CHECK(check::is_identifier("vector_scale"));
  CHECK(check::is_identifier("_x9"));
  CHECK_FALSE(check::is_identifier("../../ESCAPED"));
  CHECK_FALSE(check::is_identifier("9lives"));
  CHECK_FALSE(check::is_identifier("a-b"));
  CHECK(check::type_spelling_problem("const float *").empty());
  CHECK(check::type_spelling_problem("peppher::Matrix<unsigned int> &").empty());
  CHECK(check::type_spelling_problem("std::pair<int, float>").empty());
  CHECK_FALSE(check::type_spelling_problem("float*,int) {} void injected(int").empty());
  CHECK_FALSE(check::type_spelling_problem("int[4]").empty());
  CHECK_FALSE(check::type_spelling_problem("Vector<float").empty());
  CHECK_FALSE(check::type_spelling_problem("a:b").empty());
  CHECK_FALSE(check::type_spelling_problem("int, float").empty());
  CHECK(check::build_word_problem("-DFOO=(1<2)|x").empty());
  CHECK(check::build_word_problem("-O2").empty());
  for (const char* bad : {"$(shell id)", "a#b", "a;b", "'q'", "\"q\"", "`id`", "a\\b", "a b"}) {
    INFO(bad);
    CHECK_FALSE(check::build_word_problem(bad).empty());
  }
}

TEST_CASE("a predicate that divides by a run-time value is guarded", "[untrusted]") {
  auto parsed = expr::parse("n / m > 1 && n % 4 == 0");
  REQUIRE(parsed.root);
  const std::string cpp = expr::to_cpp_guarded(*parsed.root);
  CHECK(cpp ==
        "[&] { bool peppher_zero = false; const bool peppher_holds = ((m) == 0 ? "
        "(peppher_zero = true, 0) : (n) / (m)) > 1 && (n) % 4 == 0; return peppher_holds && "
        "!peppher_zero; }()");
  auto constant = expr::parse("n % 4 == 0");
  CHECK(expr::to_cpp_guarded(*constant.root) == "n % 4 == 0");  // a non-zero constant divisor
}

TEST_CASE("constant arithmetic is overflow-checked", "[untrusted]") {
  auto unknown = [](const std::string&) { return std::optional<check::Value>(); };
  for (const char* text :
       {"(-9223372036854775807 - 1) / -1", "9223372036854775807 + 1", "-(-9223372036854775807 - 1)",
        "3037000500 * 3037000500", "(-9223372036854775807 - 1) % -1", "n / 0"}) {
    INFO(text);
    auto parsed = expr::parse(text);
    REQUIRE(parsed.root);
    check::EvalProblem problem;
    CHECK_FALSE(check::evaluate(*parsed.root, unknown, &problem));
    CHECK(problem.node != nullptr);
  }
  auto fine = expr::parse("9223372036854775806 + 1");
  check::EvalProblem problem;
  CHECK(check::evaluate(*fine.root, unknown, &problem)->i == 9223372036854775807LL);
  CHECK(problem.node == nullptr);
}

TEST_CASE("OpenCL build options spell each type as one word", "[untrusted]") {
  ir::Interface iface;
  iface.template_types = {"T"};
  ir::Variant v;
  for (const auto& [cpp, cl] :
       std::vector<std::pair<std::string, std::string>>{{"unsigned int", "-DT=uint"},
                                                        {"long long", "-DT=long"},
                                                        {"float", "-DT=float"},
                                                        {"unsigned  char", "-DT=uchar"}}) {
    iface.template_args = {cpp};
    CHECK(plan::opencl_build_options(iface, v) == cl);
  }
}

TEST_CASE("OpenCL build options end with the kernel file's flags, one blank apart", "[untrusted]") {
  ir::Interface iface;
  iface.template_types = {"T"};
  iface.template_args = {"float"};
  ir::Variant v;
  v.backend = ir::Backend::OpenCl;
  ir::SourceFile host;
  host.compiler.flags = "-DHOST_ONLY";  // not the kernel's file: not an OpenCL option
  ir::SourceFile kernel;
  kernel.kernel = "scale";
  kernel.compiler.flags = "  -cl-fast-relaxed-math \t -DWIDTH=16 ";
  v.sources = {host, kernel};
  CHECK(plan::opencl_build_options(iface, v) == "-DT=float -cl-fast-relaxed-math -DWIDTH=16");
  iface.template_args.clear();
  iface.template_types.clear();
  CHECK(plan::opencl_build_options(iface, v) == "-cl-fast-relaxed-math -DWIDTH=16");
}
