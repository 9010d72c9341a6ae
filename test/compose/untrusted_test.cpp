// Unit tests of the rules that keep untrusted descriptor text inert: identifiers, type
// spellings, build words, references to make variables in flags (and what the Makefile and
// peppher.cmake make of them), reserved names, guarded divisions in predicates, OpenCL build
// options, and overflow-checked constant evaluation.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "compose/check/predicates.h"
#include "compose/check/reserved_names.h"
#include "compose/check/untrusted_text.h"
#include "compose/expr/parser.h"
#include "compose/plan/wrapper_plan.h"
#include "peppher_catch.h"
#include "test_util.h"

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

TEST_CASE("flags may refer to a variable, $(NAME) or ${NAME}, and to nothing else", "[untrusted]") {
  // The original tool's examples link with `<peppher:flags> $(LDFLAGS)</peppher:flags>`.
  for (const char* fine : {" $(LDFLAGS)", "${LDFLAGS}", "-L$(PREFIX)/lib -lm", "-O2 $(CFLAGS)",
                           "-DX=${_y9}$(Z)", "-Wl,-rpath,$(LIBDIR) -DFOO=(1<2)|x", ""}) {
    INFO(fine);
    CHECK(check::flags_problem(fine) == "");
  }
  const std::string only = "; a '$' in flags may only refer to a variable, as $(NAME) or ${NAME}";
  for (const auto& [flags, problem] : std::vector<std::pair<std::string, std::string>>{
           {"$(shell id)", "'$(shell id)' calls make's function 'shell'"},
           {"-O2 $(eval X := 1)", "'$(eval X := 1)' calls make's function 'eval'"},
           {"$(filter-out a,b)", "'$(filter-out a,b)' calls make's function 'filter-out'"},
           {"-I$(wildcard /x/*)", "'$(wildcard /x/*)' calls make's function 'wildcard'"},
           {"a$$b", "'$$' is make's escaped '$'"},
           {"$(X:a=b)",
            "'$(X:a=b)' is not a plain variable reference (a name made of letters, "
            "digits and '_')"},
           {"$($(X))",
            "'$($(X))' is not a plain variable reference (a name made of letters, "
            "digits and '_')"},
           {"${X)", "'${X)' is not closed by '}'"},
           {"-L$(PREFIX", "'$(PREFIX' is not closed by ')'"},
           {"$(9x)",
            "'$(9x)' is not a plain variable reference (a name made of letters, digits "
            "and '_')"},
           {"$X", "'$X' is not a plain variable reference (make reads '$X' as the variable 'X')"},
           {"$@", "'$@' is not a plain variable reference (make reads '$@' as the variable '@')"},
           {"-O2 $", "'$' ends the text"}}) {
    INFO(flags);
    CHECK(check::flags_problem(flags) == problem + only);
  }
  CHECK(check::flags_problem("$(LINK)") ==
        "'$(LINK)' refers to 'LINK', which the generated Makefile or make itself sets; flags "
        "may refer only to variables of the environment or of make's command line (LDFLAGS, "
        "CFLAGS, ...)");
  CHECK_FALSE(check::flags_problem("${CURDIR}/x").empty());
  // The other characters stay refused beside a reference.
  CHECK(check::flags_problem("$(A);rm") ==
        "'$(A);rm' contains ';', which generated build files cannot hold safely");
  CHECK(check::flags_problem("'$(A)'") ==
        "''$(A)'' contains ''', which generated build files cannot hold safely");
}

TEST_CASE("flags may not refer to a variable the generated Makefile sets", "[untrusted]") {
  // Every `NAME =`, `NAME ?=`, `NAME :=` of templates/Makefile.mustache is refused in flags:
  // its value is the Makefile's own (peppher.cmake could not reproduce it), and `LINK`
  // inside LINK's own value would be a recursive variable.
  std::ifstream in(std::string(PEPPHER_SOURCE_DIR) + "/templates/Makefile.mustache");
  REQUIRE(in);
  const std::vector<std::string>& refused = check::variables_not_from_outside();
  int set = 0;
  for (std::string line; std::getline(in, line);) {
    size_t end = 0;
    while (end < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) {
      ++end;
    }
    const size_t op = line.find_first_not_of(' ', end);
    if (end == 0 || op == std::string::npos ||
        !(line.compare(op, 2, "?=") == 0 || line.compare(op, 2, ":=") == 0 ||
          line.compare(op, 2, "+=") == 0 || line.compare(op, 2, "= ") == 0 || line[op] == '=')) {
      continue;
    }
    const std::string name = line.substr(0, end);
    INFO(name);
    CHECK(std::find(refused.begin(), refused.end(), name) != refused.end());
    ++set;
  }
  CHECK(set >= 20);
}

TEST_CASE("an OpenCL kernel's flags hold no '$': the program passes them at run time",
          "[untrusted]") {
  ir::Application app;
  ir::Interface iface;
  iface.name = "scale";
  ir::Variant v;
  v.name = "scale_opencl";
  v.backend = ir::Backend::OpenCl;
  ir::SourceFile kernel;
  kernel.name = "scale.cl";
  kernel.kernel = "scale";
  kernel.compiler.loc = ir::SourceLoc{"scale_opencl.xml", 5, 9};
  kernel.compiler.flags = "-cl-fast-relaxed-math $(CLFLAGS)";
  v.sources.push_back(kernel);
  iface.variants.push_back(v);
  app.interfaces.push_back(iface);
  std::ostringstream err;
  diag::Diagnostics diag(err);
  check::check_untrusted_text(app, diag);
  CHECK(err.str() ==
        "scale_opencl.xml:5:9: error: flag '$(CLFLAGS)' of an OpenCL kernel contains '$': its "
        "flags are build options the OpenCL compiler reads when the program runs, where no "
        "variable is expanded\n");
}

TEST_CASE("a reference to a variable reaches make as written and CMake from the environment",
          "[untrusted]") {
  // test/hostile/flags_make_variable: `$(LDFLAGS) -L$(PREFIX)/lib` links, `-O2 ${CPPFLAGS}
  // -DX=(1<2)$(EXTRA)` compiles main.cpp, `-O2 $(VARIANT_FLAGS)` the variant.
  test::TempDir dir;
  std::filesystem::copy(std::string(PEPPHER_SOURCE_DIR) + "/test/hostile/flags_make_variable",
                        dir.path(), std::filesystem::copy_options::recursive);
  test::RunResult r = test::run_in(dir.path(), {"main.xml", "-o", "out"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string makefile = test::read_file(dir / "out/Makefile");
  CHECK_THAT(makefile, Catch::Contains("\nLINK = g++ $(LDFLAGS) -L$(PREFIX)/lib\n"));
  CHECK_THAT(makefile,
             Catch::Contains("\tg++ -O2 ${CPPFLAGS} '-DX=(1<2)'$(EXTRA) $(COMMON_FLAGS)"));
  CHECK_THAT(makefile, Catch::Contains("\tg++ -O2 $(VARIANT_FLAGS) $(COMMON_FLAGS)"));
  const std::string cmake = test::read_file(dir / "out/peppher.cmake");
  CHECK_THAT(cmake, Catch::Contains("UNIX_COMMAND \"$ENV{LDFLAGS} -L$ENV{PREFIX}/lib\")"));
  CHECK_THAT(cmake, Catch::Contains("UNIX_COMMAND \"-O2 $ENV{VARIANT_FLAGS}\")"));
  // What CMake makes of them: every separate_arguments() of peppher.cmake, evaluated with
  // the variables in the environment, gives one option per word of their values.
  std::istringstream lines(cmake);
  std::string script;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("separate_arguments(") == std::string::npos) continue;
    script += line + "\n";
    const size_t open = line.find('(') + 1;
    const std::string var = line.substr(open, line.find(' ', open) - open);
    script += "message(\"${" + var + "}\")\n";
  }
  dir.write("split.cmake", script);
  const std::string cmd = "cd " + test::shell_quote(dir.path()) +
                          " && LDFLAGS='-La -Wl,-Map=x.map' PREFIX=/opt CPPFLAGS='-DP=1 -g' "
                          "EXTRA=+1 VARIANT_FLAGS='-DV=2' cmake -P split.cmake >split.txt 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK(test::read_file(dir / "split.txt") ==
        "-O2;-DP=1;-g;-DX=(1<2)+1\n-La;-Wl,-Map=x.map;-L/opt/lib\n-O2;-DV=2\n");
}

namespace {

// compose --check of a composition whose interface, variant and first parameter have the
// given names (interface at vs.xml:2:3, parameter at vs.xml:4:7, variant at
// impl/v.xml:2:3); returns stderr.
std::string check_names(const test::TempDir& dir, const std::string& iface,
                        const std::string& variant, const std::string& parameter) {
  dir.write("main.xml",
            test::component("  <peppher:implementation name=\"main\">\n"
                            "    <peppher:sourceFiles><peppher:sourceFile name=\"main.cpp\"/>"
                            "</peppher:sourceFiles>\n"
                            "    <peppher:requiredInterfaces><peppher:requiredInterface name=\"" +
                            iface +
                            "\" xmlFile=\"vs.xml\"/></peppher:requiredInterfaces>\n"
                            "    <peppher:targetPlatform name=\"CPU\"/>\n"
                            "  </peppher:implementation>\n"));
  dir.write("vs.xml", test::component(
                          "  <peppher:interface name=\"" + iface +
                          "\" impPath=\"impl/\">\n"
                          "    <peppher:parameters>\n"
                          "      <peppher:parameter name=\"" +
                          parameter +
                          "\" type=\"float *\" numElements=\"n\" accessMode=\"readwrite\"/>\n"
                          "      <peppher:parameter name=\"n\" type=\"int\" accessMode=\"read\"/>\n"
                          "    </peppher:parameters>\n"
                          "  </peppher:interface>\n"));
  dir.write("impl/v.xml",
            test::component("  <peppher:implementation name=\"" + variant +
                            "\">\n"
                            "    <peppher:sourceFiles><peppher:sourceFile name=\"v.cpp\"/>"
                            "</peppher:sourceFiles>\n"
                            "    <peppher:providedInterfaces><peppher:providedInterface name=\"" +
                            iface +
                            "\"/></peppher:providedInterfaces>\n"
                            "    <peppher:targetPlatform name=\"CPU\"/>\n"
                            "  </peppher:implementation>\n"));
  return test::run_in(dir.path(), {"--check", "main.xml"}).err;
}

// What check/ reports for an interface, its variant and its first parameter named so.
std::string check_names_in_memory(const std::string& iface, const std::string& variant,
                                  const std::string& parameter) {
  ir::Application app;
  ir::Interface i;
  i.name = iface;
  i.loc = ir::SourceLoc{"vs.xml", 2, 3};
  ir::Parameter p;
  p.name = parameter;
  p.type = "float *";
  p.loc = ir::SourceLoc{"vs.xml", 4, 7};
  i.parameters.push_back(p);
  ir::Variant v;
  v.name = variant;
  v.loc = ir::SourceLoc{"impl/v.xml", 2, 3};
  i.variants.push_back(v);
  app.interfaces.push_back(i);
  std::ostringstream err;
  diag::Diagnostics diag(err);
  check::check_untrusted_text(app, diag);
  return err.str();
}

}  // namespace

TEST_CASE("compose refuses every reserved name where it names a generated identifier",
          "[untrusted][reserved]") {
  std::vector<std::string> names = check::listed_reserved_names();
  CHECK(names.size() > 2000);
  for (const char* more : {"starpu_init", "STARPU_MAIN_RAM", "_start", "pthread_create",
                           "hwloc_topology_init", "cl_int", "clFinish", "sem_wait"}) {
    names.push_back(more);
  }
  // Every name, at each place, as check/ reports it; then a sample (the issue's examples,
  // every 40th other name) through the real compose, from descriptors.
  auto issue_example = [](const std::string& name) {
    for (const char* n : {"main", "class", "int", "and", "not_eq", "errno", "malloc", "printf",
                          "exit", "starpu_init", "peppher"}) {
      if (name == n) return true;
    }
    return false;
  };
  test::TempDir dir;
  dir.write("main.cpp", "int main() { return 0; }\n");
  dir.write("impl/v.cpp", "void v(float* a, int n) { for (int i = 0; i < n; ++i) a[i] = 0; }\n");
  REQUIRE(check_names(dir, "vs", "v", "a") == "");  // the composition itself is fine
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    INFO(name);
    const std::string as_function = check::reserved_function_name(name);
    REQUIRE(as_function != "");
    const std::string as_parameter = check::reserved_identifier(name);
    const std::string iface_error =
        "vs.xml:2:3: error: interface name '" + name + "' is reserved: " + as_function + "\n";
    const std::string variant_error = "impl/v.xml:2:3: error: implementation name '" + name +
                                      "' is reserved: " + as_function + "\n";
    // A parameter may hide a function (time, index): only keywords and macros are refused.
    const std::string parameter_error = as_parameter.empty()
                                            ? ""
                                            : "vs.xml:4:7: error: parameter name '" + name +
                                                  "' is reserved: " + as_parameter + "\n";
    CHECK(check_names_in_memory(name, "v", "a") == iface_error);
    CHECK(check_names_in_memory("vs", name, "a") == variant_error);
    CHECK(check_names_in_memory("vs", "v", name) == parameter_error);
    if (k % 40 != 0 && !issue_example(name)) continue;
    CHECK(check_names(dir, name, "v", "a") == iface_error);
    CHECK(check_names(dir, "vs", name, "a") == variant_error);
    if (!as_parameter.empty()) CHECK(check_names(dir, "vs", "v", name) == parameter_error);
  }
  // Spelled out, the messages of the issue's examples.
  CHECK(check::reserved_function_name("main") ==
        "a generated function named 'main' would clash with the program's entry point");
  CHECK(check::reserved_function_name("class") == "'class' is a C++ keyword");
  CHECK(check::reserved_function_name("not_eq") ==
        "'not_eq' is a C++ alternative token (for '!=')");
  CHECK(check::reserved_identifier("errno") ==
        "'errno' is a macro of a header the generated code includes (the C or C++ library, "
        "POSIX, StarPU), which would replace the name");
  CHECK(check::reserved_function_name("malloc") ==
        "a header the generated code includes (the C or C++ library, POSIX, StarPU) declares "
        "'malloc'; a generated function of that name would clash with it (with C linkage "
        "always, in C++ when the parameters match)");
  CHECK(check::reserved_function_name("starpu_init") ==
        "names starting with 'starpu_' belong to StarPU, whose header the generated code "
        "includes");
  CHECK(check::reserved_function_name("peppher") == "'peppher' is the runtime's namespace");
  // Near the boundary, and free.
  for (const char* fine : {"Main", "class_", "int32", "error", "Peppher", "starpu", "mainly",
                           "printf_", "Errno", "stdio", "index_", "vector"}) {
    INFO(fine);
    CHECK(check::reserved_function_name(fine) == "");
  }
  for (const char* fine : {"time", "index", "y0", "size", "n", "N", "length"}) {
    INFO(fine);
    CHECK(check::reserved_identifier(fine) == "");
  }
}
