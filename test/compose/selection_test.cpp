// The composer's handling of constraints through the real CLI (issue 6): Merge-style
// exhaustiveness warnings over parameter ranges with their exact location, static pruning
// reported with -v, and the implication check of `specializes` (issue 43).
#include "peppher_catch.h"
#include "test_util.h"

using peppher::test::component;
using peppher::test::run_in;
using peppher::test::TempDir;

namespace {

std::string main_xml(const std::string& iface) {
  return component(
      "  <peppher:implementation name=\"main\">\n"
      "    <peppher:requiredInterfaces>\n"
      "      <peppher:requiredInterface name=\"" +
      iface + "\" xmlFile=\"" + iface +
      ".xml\"/>\n"
      "    </peppher:requiredInterfaces>\n"
      "    <peppher:targetPlatform name=\"CPU\"/>\n"
      "  </peppher:implementation>\n");
}

std::string variant(const std::string& name, const std::string& iface, const std::string& backend,
                    const std::string& expr) {
  return component("  <peppher:implementation name=\"" + name +
                   "\">\n"
                   "    <peppher:sourceFiles><peppher:sourceFile name=\"" +
                   name +
                   ".cpp\"/></peppher:sourceFiles>\n"
                   "    <peppher:providedInterfaces><peppher:providedInterface name=\"" +
                   iface +
                   "\"/></peppher:providedInterfaces>\n"
                   "    <peppher:targetPlatform name=\"" +
                   backend +
                   "\"/>\n"
                   "    <peppher:constraints><peppher:constraint expr=\"" +
                   expr +
                   "\"/></peppher:constraints>\n"
                   "  </peppher:implementation>\n");
}

// spmv(values, nrows) with nrows in 0..100000, a CPU variant and a second one.
void write_spmv(const TempDir& dir, const std::string& cpu_expr, const std::string& other_backend,
                const std::string& other_expr) {
  dir.write("main.xml", main_xml("spmv"));
  dir.write("spmv.xml", component("  <peppher:interface name=\"spmv\">\n"
                                  "    <peppher:parameters>\n"
                                  "      <peppher:parameter name=\"values\" type=\"float *\" "
                                  "numElements=\"nrows\" accessMode=\"readwrite\"/>\n"
                                  "      <peppher:parameter name=\"nrows\" type=\"int\" "
                                  "accessMode=\"read\" range=\"0..100000\"/>\n"
                                  "    </peppher:parameters>\n"
                                  "  </peppher:interface>\n"));
  dir.write("spmv/spmv_cpu.xml", variant("spmv_cpu", "spmv", "CPU", cpu_expr));
  // Real functions: compose verifies each variant's signature against the interface.
  dir.write("spmv/spmv_cpu.cpp", "void spmv_cpu(float* values, int nrows) {}\n");
  dir.write("spmv/spmv_other.xml", variant("spmv_other", "spmv", other_backend, other_expr));
  dir.write("spmv/spmv_other.cpp", "void spmv_other(float* values, int nrows) {}\n");
}

}  // namespace

TEST_CASE("exhaustiveness: a range only a disabled backend accepts is a warning", "[selection]") {
  TempDir dir;
  write_spmv(dir, "nrows &lt; 5000", "CUDA", "nrows &gt;= 5000");
  peppher::test::RunResult r = run_in(dir.path(), {"--check", "-disableCUDA", "main.xml"});
  CHECK(r.code == 0);
  CHECK(r.err ==
        "spmv.xml:2:3: warning: no variant of spmv accepts nrows >= 5000 when CUDA is "
        "disabled\n");
  // With CUDA on, every nrows in the range has a variant.
  CHECK(run_in(dir.path(), {"--check", "main.xml"}).err == "");
}

TEST_CASE("exhaustiveness: a gap between two variants' ranges is a warning", "[selection]") {
  TempDir dir;
  write_spmv(dir, "nrows &lt; 100 &amp;&amp; nrows &gt; 0", "OPENCL", "nrows &gt; 200");
  peppher::test::RunResult r = run_in(dir.path(), {"--check", "main.xml"});
  CHECK(r.code == 0);
  CHECK(r.err ==
        "spmv.xml:2:3: warning: no variant of spmv accepts nrows == 0\n"
        "spmv.xml:2:3: warning: no variant of spmv accepts 100 <= nrows <= 200\n");
}

TEST_CASE("exhaustiveness: a constraint on something only known at run time warns of nothing",
          "[selection]") {
  TempDir dir;
  write_spmv(dir, "nrows &lt; 5000", "OPENCL", "platform.num_opencl &gt; 0");
  CHECK(run_in(dir.path(), {"--check", "main.xml"}).err == "");
}

TEST_CASE(
    "static pruning: a constraint false with the backend disabled leaves the variant out, "
    "said with -v",
    "[selection]") {
  TempDir dir;
  write_spmv(dir, "xpdl::system::num_of_gpus == 0", "OPENCL", "nrows &gt;= 0");
  TempDir out;
  peppher::test::RunResult quiet = run_in(dir.path(), {"main.xml", "-o", out.path()});
  CHECK(quiet.code == 0);
  CHECK(quiet.err == "");
  // Without a platform descriptor and with CUDA on, the GPU count is read at run time.
  CHECK(peppher::test::read_file(out / "spmv_wrapper.cpp").find("starpu_cuda_worker_get_count()") !=
        std::string::npos);

  write_spmv(dir, "xpdl::system::num_of_gpus &gt; 0", "OPENCL", "nrows &gt;= 0");
  peppher::test::RunResult r =
      run_in(dir.path(), {"main.xml", "-o", out.path(), "-disableCUDA", "-v=1"});
  CHECK(r.code == 0);
  CHECK(r.err ==
        "spmv/spmv_cpu.xml:6:52: note: implementation 'spmv_cpu' is left out: its "
        "constraint 'xpdl::system::num_of_gpus > 0' is false on this platform\n");
  CHECK(peppher::test::read_file(out / "spmv_wrapper.cpp").find("spmv_cpu") == std::string::npos);
}

TEST_CASE("tunables: a constraint on a tunable without values is an error at its column",
          "[selection]") {
  TempDir dir;
  write_spmv(dir, "nrows &lt; 5000", "OPENCL", "nrows &gt;= 5000");
  dir.write("spmv/spmv_cpu.xml",
            component("  <peppher:implementation name=\"spmv_cpu\">\n"
                      "    <peppher:sourceFiles><peppher:sourceFile "
                      "name=\"spmv_cpu.cpp\"/></peppher:sourceFiles>\n"
                      "    <peppher:providedInterfaces><peppher:providedInterface "
                      "name=\"spmv\"/></peppher:providedInterfaces>\n"
                      "    <peppher:targetPlatform name=\"CPU\"/>\n"
                      "    <peppher:tunables><peppher:tunable name=\"BLOCK\" "
                      "type=\"int\"/></peppher:tunables>\n"
                      "    <peppher:constraints><peppher:constraint expr=\"nrows % BLOCK == "
                      "0\"/></peppher:constraints>\n"
                      "  </peppher:implementation>\n"));
  TempDir out;
  peppher::test::RunResult r = run_in(dir.path(), {"main.xml", "-o", out.path()});
  CHECK(r.code == 1);
  CHECK(r.err ==
        "spmv/spmv_cpu.xml:7:60: error: constraint of 'spmv_cpu' uses tunable 'BLOCK', "
        "which has no values; give it values=\"...\" to expand the variant\n");
}

TEST_CASE(
    "a constraint every variant has is tested by the entry wrapper only, not by "
    "can_execute",
    "[selection]") {
  TempDir dir;
  TempDir out;
  write_spmv(dir, "nrows &gt; 0", "OPENCL", "nrows &gt; 0");
  REQUIRE(run_in(dir.path(), {"main.xml", "-o", out.path()}).code == 0);
  std::string wrapper = peppher::test::read_file(out / "spmv_wrapper.cpp");
  // A call with nrows <= 0 is refused before it becomes a task: no can_execute at all.
  CHECK(wrapper.find("peppher_check.predicate(\"constraint: nrows > 0\"") != std::string::npos);
  CHECK(wrapper.find("peppher_can_execute") == std::string::npos);

  write_spmv(dir, "nrows &gt; 0", "OPENCL", "nrows &gt;= 1000");
  REQUIRE(run_in(dir.path(), {"main.xml", "-o", out.path()}).code == 0);
  wrapper = peppher::test::read_file(out / "spmv_wrapper.cpp");
  CHECK(wrapper.find("cl.can_execute = peppher_can_execute;") != std::string::npos);
  // Each constraint is written once, as a helper, and called by can_execute.
  CHECK(wrapper.find("bool peppher_constraint_0(int nrows) {\n  return nrows > 0;\n}") !=
        std::string::npos);
  CHECK(wrapper.find("bool peppher_constraint_1(int nrows) {\n  return nrows >= 1000;\n}") !=
        std::string::npos);
  CHECK(wrapper.find("// constraint: nrows > 0\n        if "
                     "(!peppher_constraint_0(peppher_args->nrows)) return 0;") !=
        std::string::npos);
  CHECK(wrapper.find("// constraint: nrows >= 1000\n        if "
                     "(!peppher_constraint_1(peppher_args->nrows)) return 0;") !=
        std::string::npos);
  CHECK(wrapper.find("nrows > 0;") == wrapper.rfind("nrows > 0;"));  // written once
}

TEST_CASE("specializes: implication proved, refuted or undecided, with its location",
          "[selection]") {
  TempDir dir;
  auto specialize = [&](const std::string& general, const std::string& special) {
    write_spmv(dir, general, "CPU", special);
    std::string text = variant("spmv_other", "spmv", "CPU", special);
    const std::string tag = "name=\"spmv_other\"";
    text.replace(text.find(tag), tag.size(), tag + " specializes=\"spmv_cpu\"");
    dir.write("spmv/spmv_other.xml", text);
    return run_in(dir.path(), {"--check", "main.xml"});
  };
  // The general one's condition plus one more term: proved, nothing to say.
  peppher::test::RunResult proved =
      specialize("nrows &gt;= 0", "nrows &gt;= 0 &amp;&amp; nrows % 4 == 0");
  CHECK(proved.code == 0);
  CHECK(proved.err == "");
  // A call the special one accepts and the general one does not: an error.
  peppher::test::RunResult refuted = specialize("nrows &gt; 0", "nrows &lt; 100");
  CHECK(refuted.code == 1);
  CHECK(refuted.err ==
        "spmv/spmv_other.xml:2:58: error: implementation 'spmv_other' specializes 'spmv_cpu', "
        "but its constraints do not imply those of 'spmv_cpu': with nrows = 0 it accepts the "
        "call and 'spmv_cpu' does not (a specialization accepts only calls the general variant "
        "accepts)\n"
        "spmv/spmv_cpu.xml:6:52: note: the constraint of 'spmv_cpu' that fails there\n");
  // True (nrows > 10 implies nrows >= 0) but not written so: a warning, not silence.
  peppher::test::RunResult undecided = specialize("nrows &gt;= 0", "nrows &gt; 10");
  CHECK(undecided.code == 0);
  CHECK(undecided.err ==
        "spmv/spmv_other.xml:2:58: warning: cannot tell whether the constraints of 'spmv_other' "
        "imply those of 'spmv_cpu' ('nrows >= 0' is not among its own); 'spmv_other' runs "
        "first wherever it accepts a call\n");
}
