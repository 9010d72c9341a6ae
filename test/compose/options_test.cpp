// Command-line tests: both spellings of every option, values after '=' or as the next
// argument, case-insensitivity of the original spelling, and errors naming the option.
#include "compose/cli/options.h"

#include <sstream>

#include "compose/driver.h"
#include "compose/ir/backends.h"
#include "compose/util/text.h"
#include "peppher_catch.h"

using namespace peppher;

namespace {

struct Parsed {
  bool ok;
  ir::Options o;
  std::string err;
};

Parsed parse(std::vector<std::string> args) {
  std::ostringstream err;
  diag::Diagnostics diag(err);
  Parsed p{false, {}, ""};
  p.ok = cli::parse_options(args, p.o, diag);
  p.err = err.str();
  return p;
}

}  // namespace

TEST_CASE("original single-dash spellings, case-insensitive", "[cli]") {
  Parsed p = parse({"main.xml", "-disableImpls=a,b", "-DISABLEXMLFILES=x.xml", "-disableCPU",
                    "-disablecuda", "-disableOpenCL", "-useHistoryModels",
                    "-wrapperFilesExt=\".hpp\"", "-v=2"});
  REQUIRE(p.ok);
  CHECK(p.err.empty());
  CHECK(p.o.main_xml == "main.xml");
  CHECK(p.o.disable_impls == std::vector<std::string>{"a", "b"});
  CHECK(p.o.disable_xml_files == std::vector<std::string>{"x.xml"});
  CHECK(p.o.disable_cpu);
  CHECK(p.o.disable_cuda);
  CHECK(p.o.disable_opencl);
  CHECK(p.o.perf_model == ir::PerfModel::History);
  CHECK(p.o.wrapper_files_ext == ".hpp");
  CHECK(p.o.verbosity == 2);
}

TEST_CASE("double-dash spellings, value inline or next", "[cli]") {
  Parsed p = parse({"--disable-impls", "a,b", "--disable-xml-files=x.xml", "--disable-cpu",
                    "--disable-cuda", "--disable-opencl", "--use-nl-regression-models",
                    "--wrapper-files-ext", ".hh", "--verbose=3", "-o", "out", "--check",
                    "--print-ir", "main.xml"});
  REQUIRE(p.ok);
  CHECK(p.o.disable_impls == std::vector<std::string>{"a", "b"});
  CHECK(p.o.disable_xml_files == std::vector<std::string>{"x.xml"});
  CHECK(p.o.disable_cpu);
  CHECK(p.o.disable_cuda);
  CHECK(p.o.disable_opencl);
  CHECK(p.o.perf_model == ir::PerfModel::NLRegression);
  CHECK(p.o.wrapper_files_ext == ".hh");
  CHECK(p.o.verbosity == 3);
  CHECK(p.o.output_dir == "out");
  CHECK(p.o.check_only);
  CHECK(p.o.print_ir);
}

TEST_CASE("every backend's disable switch comes from its record, in both spellings", "[cli]") {
  for (ir::Backend group : ir::codelet_groups()) {
    const ir::BackendInfo& r = ir::info(group);
    INFO(r.name);
    for (const std::string& spelled :
         {"-" + std::string(r.disable_switch), "--disable-" + text::lower(r.name)}) {
      Parsed p = parse({"main.xml", spelled});
      REQUIRE(p.ok);
      CHECK(p.o.*r.disabled_by_option);
      CHECK(cli::usage_text().find(spelled) != std::string::npos);
    }
  }
}

TEST_CASE("-v is a flag: repeated or doubled for more, =N for a level", "[cli]") {
  // The next argument is the descriptor, not a value of -v (issue 40).
  Parsed p = parse({"--check", "-v", "main.xml"});
  REQUIRE(p.ok);
  CHECK(p.o.main_xml == "main.xml");
  CHECK(p.o.check_only);
  CHECK(p.o.verbosity == 1);
  CHECK(parse({"-v", "-v", "m.xml"}).o.verbosity == 2);
  CHECK(parse({"-vv", "m.xml"}).o.verbosity == 2);
  CHECK(parse({"m.xml", "-vvv"}).o.verbosity == 3);
  CHECK(parse({"m.xml", "-vvv", "-v"}).o.verbosity == 3);  // 3 is the most
  CHECK(parse({"--verbose", "m.xml"}).o.verbosity == 1);
  CHECK(parse({"m.xml", "--verbose=0"}).o.verbosity == 0);
  CHECK(parse({"m.xml", "-v=2"}).o.verbosity == 2);
  CHECK(parse({"m.xml", "-vvvv"}).err == "compose: error: unknown option '-vvvv' (see --help)\n");
}

TEST_CASE("regression models, help, version, utility mode", "[cli]") {
  CHECK(parse({"m.xml", "-useRegressionModels"}).o.perf_model == ir::PerfModel::Regression);
  CHECK(parse({"--help"}).o.help);
  CHECK(parse({"-h"}).o.help);
  CHECK(parse({"--version"}).o.version);
  Parsed u = parse({"-generateCompFiles=\"spm.h,more.h\""});
  REQUIRE(u.ok);
  CHECK(u.o.generate_comp_files == std::vector<std::string>{"spm.h", "more.h"});
}

TEST_CASE("unknown and malformed options are errors naming the option", "[cli]") {
  CHECK(parse({"m.xml", "-disableImpl=a"}).err ==
        "compose: error: unknown option '-disableImpl'; did you mean '-disableImpls'? (see "
        "--help)\n");
  CHECK(parse({"m.xml", "--disable-cdua"}).err ==
        "compose: error: unknown option '--disable-cdua'; did you mean '--disable-cuda'? (see "
        "--help)\n");
  CHECK(parse({"m.xml", "--frobnicate"}).err ==
        "compose: error: unknown option '--frobnicate' (see --help)\n");
  CHECK(parse({"m.xml", "-v=7"}).err ==
        "compose: error: invalid verbosity '7' for '-v' (expected 0, 1, 2 or 3)\n");
  CHECK(parse({"m.xml", "--disable-cpu=1"}).err ==
        "compose: error: option '--disable-cpu' takes no value\n");
  CHECK(parse({"m.xml", "--disable-impls"}).err ==
        "compose: error: option '--disable-impls' needs a value\n");
  CHECK(parse({"m.xml", "-useHistoryModels", "--use-regression-models"}).err ==
        "compose: error: options '-useHistoryModels' and '--use-regression-models' choose "
        "different performance models; give only one\n");
  CHECK(
      parse({}).err ==
      "compose: error: no main descriptor given; usage: compose main.xml [options] (see --help)\n");
  CHECK(parse({"a.xml", "b.xml"}).err ==
        "compose: error: more than one main descriptor given: 'a.xml' and 'b.xml'\n");
}

TEST_CASE("help text has examples of both spellings", "[cli]") {
  std::string h = cli::usage_text();
  CHECK(h.find("-disableImpls, --disable-impls") != std::string::npos);
  CHECK(h.find("Examples:") != std::string::npos);
}

TEST_CASE("utility-mode options: --functions, --force, -p, -I, -D and flags after --", "[cli]") {
  Parsed p = parse({"-generateCompFiles=spm.h,b.h", "--functions", "f,g", "--force", "-p", "build",
                    "-Iinclude", "-I", "more", "-DN=4", "-DisableCPU", "--", "-std=c++20", "-x",
                    "c++-header"});
  REQUIRE(p.ok);
  CHECK(p.o.generate_comp_files == std::vector<std::string>{"spm.h", "b.h"});
  CHECK(p.o.functions == std::vector<std::string>{"f", "g"});
  CHECK(p.o.force);
  CHECK(p.o.compile_commands_dir == "build");
  // -DisableCPU is the original option (case-insensitive), not a define.
  CHECK(p.o.disable_cpu);
  CHECK(p.o.clang_args ==
        std::vector<std::string>{"-Iinclude", "-Imore", "-DN=4", "-std=c++20", "-x", "c++-header"});
}

TEST_CASE("training, static dispatch and explain options", "[cli]") {
  Parsed plain = parse({"main.xml", "-staticDispatch", "--explain"});
  REQUIRE(plain.ok);
  CHECK(plain.o.static_dispatch);
  CHECK(plain.o.performance_table.empty());  // the default table next to main.xml
  CHECK(plain.o.explain);
  CHECK_FALSE(plain.o.train);

  Parsed table = parse({"main.xml", "--static-dispatch=perf/host.xml"});
  REQUIRE(table.ok);
  CHECK(table.o.static_dispatch);
  CHECK(table.o.performance_table == "perf/host.xml");

  // The table is only given with '=': the next argument stays the main descriptor.
  Parsed order = parse({"-staticDispatch", "main.xml"});
  REQUIRE(order.ok);
  CHECK(order.o.main_xml == "main.xml");
  CHECK(order.o.performance_table.empty());

  Parsed train = parse({"--train", "main.xml"});
  REQUIRE(train.ok);
  CHECK(train.o.train);
  Parsed bad = parse({"main.xml", "--train=yes"});
  CHECK_FALSE(bad.ok);
  CHECK(bad.err.find("option '--train' takes no value") != std::string::npos);
}

// The top-level guard: an exception nobody foresaw (here the output stream failing while
// --help is printed, as on a full disk) is an "internal error" with a non-zero exit.
TEST_CASE("an unforeseen exception is an internal error, not a crash", "[cli]") {
  struct FullDisk : std::streambuf {};  // every write fails (overflow returns EOF)
  FullDisk full;
  std::ostream failing(&full);
  failing.exceptions(std::ios::badbit);  // a failed write throws std::ios_base::failure
  std::ostringstream out, err;
  CHECK(run_compose({"--help"}, out, err) == 0);
  REQUIRE_FALSE(out.str().empty());
  int status = 0;
  CHECK_NOTHROW(status = run_compose({"--help"}, failing, err));
  CHECK(status != 0);
  CHECK(err.str().find("compose: internal error:") == 0);
}
