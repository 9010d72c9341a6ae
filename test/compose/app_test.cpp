// The published vector_scale example (apps/vector_scale) reads and checks without any
// diagnostic, and its IR has what code generation needs.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "compose/ir/json.h"
#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;

namespace {

// main.xml of a program calling the generic interface `fill` for the `types` listed.
void write_fill_main(const test::TempDir& dir, const std::string& types) {
  dir.write("main.xml",
            test::component("  <peppher:implementation name=\"main\">\n"
                            "    <peppher:sourceFiles>\n"
                            "      <peppher:sourceFile name=\"main.cpp\" language=\"C++\"/>\n"
                            "    </peppher:sourceFiles>\n"
                            "    <peppher:requiredInterfaces>\n"
                            "      <peppher:requiredInterface name=\"fill\" xmlFile=\"fill.xml\" "
                            "instantiate=\"" +
                            types +
                            "\"/>\n"
                            "    </peppher:requiredInterfaces>\n"
                            "  </peppher:implementation>\n"));
}

// fill's one CPU variant, fill/fill_cpu.xml (its source is the test's).
void write_fill_cpu_descriptor(const test::TempDir& dir) {
  dir.write("fill/fill_cpu.xml",
            test::component("  <peppher:implementation name=\"fill_cpu\">\n"
                            "    <peppher:sourceFiles>\n"
                            "      <peppher:sourceFile name=\"fill_cpu.cpp\" language=\"C++\"/>\n"
                            "    </peppher:sourceFiles>\n"
                            "    <peppher:providedInterfaces>\n"
                            "      <peppher:providedInterface name=\"fill\"/>\n"
                            "    </peppher:providedInterfaces>\n"
                            "    <peppher:targetPlatform name=\"CPU\"/>\n"
                            "  </peppher:implementation>\n"));
}

}  // namespace

TEST_CASE("--version names the StarPU generated builds use; PEPPHER_STARPU chooses another",
          "[app]") {
  test::TempDir dir;
  const char* const saved = std::getenv("PEPPHER_STARPU");
  const std::string before = saved != nullptr ? saved : "";
  ::unsetenv("PEPPHER_STARPU");
  test::RunResult r = test::run_in(dir.path(), {"--version"});
  CHECK(r.code == 0);
  CHECK(r.out ==
        "compose (PEPPHER composition tool) 0.1.0\n"
        "generated builds use StarPU " PEPPHER_STARPU_VERSION
        " (pkg-config module " PEPPHER_STARPU_MODULE ")\n");
  // A module pkg-config does not know is named as such (the build would fail on it).
  ::setenv("PEPPHER_STARPU", "starpu-0.9", 1);
  r = test::run_in(dir.path(), {"--version"});
  CHECK(r.out ==
        "compose (PEPPHER composition tool) 0.1.0\n"
        "generated builds use StarPU: pkg-config does not find module starpu-0.9\n");
  if (saved != nullptr) {
    ::setenv("PEPPHER_STARPU", before.c_str(), 1);
  } else {
    ::unsetenv("PEPPHER_STARPU");
  }
}

TEST_CASE("vector_scale reads and checks cleanly", "[app]") {
  test::RunResult r = test::run_in(PEPPHER_APPS_DIR "/vector_scale", {"--check", "main.xml"});
  CHECK(r.err == "");
  CHECK(r.code == 0);
}

TEST_CASE("vector_scale IR", "[app]") {
  test::RunResult r = test::run_in(PEPPHER_APPS_DIR "/vector_scale", {"--print-ir", "main.xml"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"kind\": \"pointer\"") != std::string::npos);
  CHECK(r.out.find("\"backend\": \"CUDA\"") != std::string::npos);
  CHECK(r.out.find("\"text\": \"size < 5000\"") != std::string::npos);
  CHECK(r.out.find("\"output\": \"vector_scale\"") != std::string::npos);
  // Deterministic: a second run prints the same bytes.
  CHECK(test::run_in(PEPPHER_APPS_DIR "/vector_scale", {"--print-ir", "main.xml"}).out == r.out);
}

TEST_CASE("without --check, compose generates the glue into -o DIR", "[app]") {
  test::TempDir out;
  test::RunResult r =
      test::run_in(PEPPHER_APPS_DIR "/vector_scale", {"main.xml", "-o", out.path()});
  CHECK(r.code == 0);
  CHECK(r.err == "");
  for (const char* file : {"vector_scale_wrapper.h", "peppher.h", "Makefile", "peppher.cmake"}) {
    INFO(file);
    CHECK(std::filesystem::exists(std::filesystem::path(out.path()) / file));
  }
}

TEST_CASE("a bare relative main.xml generates next to it", "[app]") {
  test::TempDir copy;
  std::filesystem::copy(PEPPHER_APPS_DIR "/vector_scale", copy.path(),
                        std::filesystem::copy_options::recursive);
  test::RunResult r = test::run_in(copy.path(), {"main.xml"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(std::filesystem::exists(std::filesystem::path(copy.path()) / "Makefile"));
}

TEST_CASE(
    "utility mode from the command line writes skeletons that pass --check but for "
    "placeholders",
    "[app]") {
  test::TempDir dir;
  std::filesystem::path header = std::filesystem::path(dir.path()) / "spm.h";
  {
    std::ofstream(header) << "void scale(float* arr, int n, float factor);\n"
                             "void fill(float* data, long count);\n";
  }
  test::RunResult r =
      test::run_in(dir.path(), {"-generateCompFiles=spm.h", "--functions", "scale"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(std::filesystem::exists(std::filesystem::path(dir.path()) / "scale.xml"));
  CHECK(std::filesystem::exists(std::filesystem::path(dir.path()) / "scale/scale_opencl.cl"));
  CHECK_FALSE(std::filesystem::exists(std::filesystem::path(dir.path()) / "fill.xml"));
  // A second run keeps what exists and says so.
  test::RunResult again =
      test::run_in(dir.path(), {"-generateCompFiles=spm.h", "--functions", "scale"});
  CHECK(again.code == 0);
  CHECK(again.out.find("kept existing scale.xml") != std::string::npos);
}

TEST_CASE("utility mode finds <peppher/runtime.h> and StarPU's headers without -I", "[app]") {
  // Component headers declare their calls on peppher::Vector; compose knows where its own
  // runtime is, and the generated Makefile adds those folders, so the skeletons do not.
  test::TempDir dir;
  std::filesystem::path header = std::filesystem::path(dir.path()) / "step.h";
  {
    std::ofstream(header) << "#include <peppher/runtime.h>\n"
                             "void step(const peppher::Vector<float>& in, "
                             "peppher::Vector<float>& out);\n";
  }
  test::RunResult r = test::run_in(dir.path(), {"-generateCompFiles=step.h"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::ifstream cpu(std::filesystem::path(dir.path()) / "step/step_cpu.xml");
  const std::string xml((std::istreambuf_iterator<char>(cpu)), std::istreambuf_iterator<char>());
  CHECK(xml.find("<peppher:flags>-O2</peppher:flags>") != std::string::npos);
}

TEST_CASE("--check reports the generator's diagnostics too, and writes nothing", "[app]") {
  test::TempDir copy;
  std::filesystem::copy(PEPPHER_APPS_DIR "/../test/bad/partition_raw_matrix", copy.path(),
                        std::filesystem::copy_options::recursive);
  const auto before = std::distance(std::filesystem::recursive_directory_iterator(copy.path()),
                                    std::filesystem::recursive_directory_iterator());
  test::RunResult r = test::run_in(copy.path(), {"--check", "main.xml"});
  CHECK(r.code == 1);
  CHECK(r.err.find("vector_scale.xml:4:132: error: 2-D partition of 'arr' in interface "
                   "'vector_scale': a block of a raw pointer with descRowWidth") == 0);
  CHECK(std::distance(std::filesystem::recursive_directory_iterator(copy.path()),
                      std::filesystem::recursive_directory_iterator()) == before);
}

TEST_CASE("--explain lists the variants kept and left out, and writes nothing", "[app]") {
  test::TempDir copy;
  std::filesystem::copy(PEPPHER_APPS_DIR "/../test/e2e/cases/selection", copy.path(),
                        std::filesystem::copy_options::recursive);
  const auto before = std::distance(std::filesystem::recursive_directory_iterator(copy.path()),
                                    std::filesystem::recursive_directory_iterator());
  test::RunResult r = test::run_in(
      copy.path(), {"--explain", "main.xml", "-disableOpenCL", "-disableImpls=tune_cpu__BLOCK_64"});
  INFO(r.err);
  CHECK(r.code == 0);
  // First the StarPU the generated build uses (the runtime's pkg-config module), then the
  // interfaces.
  CHECK(r.out.find("the generated build uses StarPU " PEPPHER_STARPU_VERSION
                   " (pkg-config module " PEPPHER_STARPU_MODULE ")\n"
                   "interface sel (sel.xml)\n"
                   "  in:  sel_cpu (CPU)\n"
                   "  out: sel_opencl (OPENCL): the OPENCL backend is disabled\n"
                   "  not trained: the runtime chooses among the variants kept\n") == 0);
  CHECK(r.out.find("  in:  tune_cpu__BLOCK_32 (CPU)\n"
                   "  out: tune_cpu__BLOCK_64 (CPU): -disableImpls names it\n") !=
        std::string::npos);
  CHECK(r.err.empty());
  // A tunable copy that expansion does not make is a warning with the nearest name.
  test::RunResult typo =
      test::run_in(copy.path(), {"--check", "main.xml", "-disableImpls=tune_cpu__BLOCK_65"});
  CHECK(typo.code == 0);
  CHECK(typo.err ==
        "compose: warning: -disableImpls: no implementation or tunable copy named "
        "'tune_cpu__BLOCK_65'; did you mean 'tune_cpu__BLOCK_64'?\n");
  CHECK(std::distance(std::filesystem::recursive_directory_iterator(copy.path()),
                      std::filesystem::recursive_directory_iterator()) == before);
}

namespace {

// A program calling the generic `fill` on a peppher::Vector<T> for `types`, its one CPU
// variant, and a main.cpp that does nothing.
void write_vector_fill(const test::TempDir& dir, const std::string& types) {
  write_fill_main(dir, types);
  dir.write("fill.xml",
            test::component("  <peppher:interface name=\"fill\" impPath=\"fill/\" "
                            "kind=\"generic\" templateTypes=\"T\">\n"
                            "    <peppher:parameters>\n"
                            "      <peppher:parameter name=\"data\" "
                            "type=\"peppher::Vector&lt;T&gt;&amp;\" accessMode=\"write\"/>\n"
                            "    </peppher:parameters>\n"
                            "  </peppher:interface>\n"));
  write_fill_cpu_descriptor(dir);
  dir.write("fill/fill_cpu.cpp",
            "#include <peppher/vector.h>\n"
            "template <typename T>\n"
            "void fill_cpu(peppher::Vector<T>& data) {\n"
            "  for (T& x : data) x = T(1);\n"
            "}\n");
  dir.write("main.cpp", "int main() {}\n");
}

}  // namespace

TEST_CASE("peppher.h names a generic taking containers once, however many instances", "[app]") {
  test::TempDir dir;
  write_vector_fill(dir, "int,float,double");
  test::RunResult r = test::run_in(dir.path(), {"main.xml", "-o", dir / "out"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string umbrella = test::read_file(dir / "out/peppher.h");
  CHECK_THAT(umbrella, Catch::Contains("#error \"peppher.h: interface 'fill<...>' takes PEPPHER "
                                       "containers"));
}

TEST_CASE("PEPPHER_INITIALIZE() starts in the background unless the program calls StarPU",
          "[app]") {
  test::TempDir dir;
  write_vector_fill(dir, "int");
  test::RunResult r = test::run_in(dir.path(), {"main.xml", "-o", dir / "out"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(test::read_file(dir / "out/peppher.h"),
             Catch::Contains("#define PEPPHER_INITIALIZE() ::peppher::init_in_background(") &&
                 Catch::Contains("#define PEPPHER_INITIALIZE() peppher_initialize_in_background("));
  // A program that names StarPU: StarPU is up when PEPPHER_INITIALIZE() returns.
  dir.write("main.cpp", "int main() { return starpu_worker_get_count() > 0 ? 0 : 1; }\n");
  r = test::run_in(dir.path(), {"main.xml", "-o", dir / "out"});
  REQUIRE(r.code == 0);
  const std::string umbrella = test::read_file(dir / "out/peppher.h");
  CHECK_THAT(umbrella, Catch::Contains("#define PEPPHER_INITIALIZE() ::peppher::init(") &&
                           Catch::Contains("#define PEPPHER_INITIALIZE() peppher_initialize(") &&
                           Catch::Contains("main.cpp calls StarPU itself"));
  CHECK_THAT(umbrella, !Catch::Contains("init_in_background("));
}

TEST_CASE("headerFile: the wrapper header includes it, generic or not; a missing one is an error",
          "[app]") {
  test::TempDir dir;
  write_fill_main(dir, "int");
  dir.write("include/types.h", "typedef int count_t;\n");
  dir.write("fill.xml",
            test::component("  <peppher:interface name=\"fill\" impPath=\"fill/\" "
                            "kind=\"generic\" templateTypes=\"T\" headerFile=\"include/types.h\">\n"
                            "    <peppher:parameters>\n"
                            "      <peppher:parameter name=\"data\" type=\"T *\" "
                            "accessMode=\"write\" numElements=\"n\"/>\n"
                            "      <peppher:parameter name=\"n\" type=\"count_t\" "
                            "accessMode=\"read\"/>\n"
                            "    </peppher:parameters>\n"
                            "  </peppher:interface>\n"));
  write_fill_cpu_descriptor(dir);
  dir.write("fill/fill_cpu.cpp",
            "#include \"../include/types.h\"\n"
            "template <typename T>\n"
            "void fill_cpu(T* data, count_t n) {\n"
            "  for (count_t i = 0; i < n; ++i) data[i] = T(1);\n"
            "}\n");
  dir.write("main.cpp", "int main() {}\n");
  test::RunResult r = test::run_in(dir.path(), {"main.xml", "-o", dir / "out"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(test::read_file(dir / "out/fill_wrapper.h"),
             Catch::Contains("#include \"../include/types.h\""));

  std::string xml = test::read_file(dir / "fill.xml");
  xml.replace(xml.find("include/types.h"), 15, "include/nope.h");
  dir.write("fill.xml", xml);
  test::RunResult missing = test::run_in(dir.path(), {"main.xml", "--check"});
  CHECK(missing.code != 0);
  CHECK_THAT(missing.err, Catch::Contains("fill.xml:") &&
                              Catch::Contains("error: headerFile 'include/nope.h' of interface "
                                              "'fill' does not exist"));
}

TEST_CASE(
    "a variant's relative -I (PolyBench-ACC's layout) reaches its header on the first compose "
    "into a fresh -o folder",
    "[app]") {
  // Issue 29: Clang ran in the output folder, which does not exist before the first
  // compose, so '-I../../utilities' was taken from compose's working folder instead and the
  // variant was "not verified: 'bench.h' file not found" (the second compose was clean).
  test::TempDir root;
  root.write("utilities/bench.h", "#pragma once\ntypedef float bench_real;\n");
  root.write("kernels/scale/main.xml",
             test::component("  <peppher:implementation name=\"main\">\n"
                             "    <peppher:sourceFiles>\n"
                             "      <peppher:sourceFile name=\"main.cpp\" language=\"C++\"/>\n"
                             "    </peppher:sourceFiles>\n"
                             "    <peppher:requiredInterfaces>\n"
                             "      <peppher:requiredInterface name=\"scale\" "
                             "xmlFile=\"scale.xml\"/>\n"
                             "    </peppher:requiredInterfaces>\n"
                             "  </peppher:implementation>\n"));
  root.write("kernels/scale/main.cpp",
             "#include \"peppher.h\"\nint main() {\n  float x[4] = {1, 2, 3, 4};\n"
             "  PEPPHER_INITIALIZE();\n  scale(x, 4);\n  PEPPHER_SHUTDOWN();\n}\n");
  root.write("kernels/scale/scale.xml",
             test::component("  <peppher:interface name=\"scale\" impPath=\"scale/\">\n"
                             "    <peppher:parameters>\n"
                             "      <peppher:parameter name=\"x\" type=\"float *\" "
                             "numElements=\"n\" accessMode=\"readwrite\"/>\n"
                             "      <peppher:parameter name=\"n\" type=\"int\" "
                             "accessMode=\"read\"/>\n"
                             "    </peppher:parameters>\n"
                             "  </peppher:interface>\n"));
  root.write("kernels/scale/scale/scale_cpu.xml",
             test::component("  <peppher:implementation name=\"scale_cpu\">\n"
                             "    <peppher:sourceFiles>\n"
                             "      <peppher:sourceFile name=\"scale_cpu.c\" language=\"C\">\n"
                             "        <peppher:compilation><peppher:compiler>"
                             "<peppher:name>gcc</peppher:name>"
                             "<peppher:flags>-O2 -I../../utilities</peppher:flags>"
                             "</peppher:compiler></peppher:compilation>\n"
                             "      </peppher:sourceFile>\n"
                             "    </peppher:sourceFiles>\n"
                             "    <peppher:providedInterfaces>\n"
                             "      <peppher:providedInterface name=\"scale\"/>\n"
                             "    </peppher:providedInterfaces>\n"
                             "    <peppher:targetPlatform name=\"CPU\"/>\n"
                             "  </peppher:implementation>\n"));
  root.write("kernels/scale/scale/scale_cpu.c",
             "#include <bench.h>\n"
             "void scale_cpu(bench_real* x, int n) {\n"
             "  for (int i = 0; i < n; ++i) x[i] *= 2;\n"
             "}\n");
  for (const char* out : {"build/gen", "build/gen"}) {  // fresh, then existing
    test::RunResult r = test::run_in(root.path(), {"kernels/scale/main.xml", "-o", out});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.err.find("not verified") == std::string::npos);
    // The flag as the Makefile in build/gen uses it: relative to the output folder.
    CHECK_THAT(test::read_file(root / "build/gen/Makefile"), Catch::Contains("-I../../utilities"));
  }
}

TEST_CASE("C callers get C entry wrappers taking C handles for Vector and Matrix, not Scalar",
          "[app]") {
  test::TempDir dir;
  dir.write(
      "main.xml",
      test::component("  <peppher:implementation name=\"main\">\n"
                      "    <peppher:sourceFiles>\n"
                      "      <peppher:sourceFile name=\"main.c\" language=\"C\"/>\n"
                      "    </peppher:sourceFiles>\n"
                      "    <peppher:requiredInterfaces>\n"
                      "      <peppher:requiredInterface name=\"vfill\" xmlFile=\"vfill.xml\"/>\n"
                      "      <peppher:requiredInterface name=\"sfill\" xmlFile=\"sfill.xml\"/>\n"
                      "    </peppher:requiredInterfaces>\n"
                      "  </peppher:implementation>\n"));
  dir.write("main.c", "int main(void) { return 0; }\n");
  // `name` takes `params` (descriptor text); its CPU variant's source is `body`.
  auto write_interface = [&](const std::string& name, const std::string& params,
                             const std::string& body) {
    dir.write(name + ".xml",
              test::component("  <peppher:interface name=\"" + name + "\" impPath=\"" + name +
                              "/\">\n" + "    <peppher:parameters>\n" + params +
                              "    </peppher:parameters>\n"
                              "  </peppher:interface>\n"));
    dir.write(name + "/" + name + "_cpu.xml",
              test::component("  <peppher:implementation name=\"" + name + "_cpu\">\n" +
                              "    <peppher:sourceFiles>\n"
                              "      <peppher:sourceFile name=\"" +
                              name + "_cpu.cpp\" language=\"C++\"/>\n" +
                              "    </peppher:sourceFiles>\n"
                              "    <peppher:providedInterfaces>\n"
                              "      <peppher:providedInterface name=\"" +
                              name + "\"/>\n" +
                              "    </peppher:providedInterfaces>\n"
                              "    <peppher:targetPlatform name=\"CPU\"/>\n"
                              "  </peppher:implementation>\n"));
    dir.write(name + "/" + name + "_cpu.cpp", "#include <peppher/runtime.h>\n" + body);
  };
  write_interface("vfill",
                  "      <peppher:parameter name=\"v\" type=\"peppher::Vector&lt;float&gt;&amp;\" "
                  "accessMode=\"write\"/>\n"
                  "      <peppher:parameter name=\"m\" type=\"const peppher::Matrix&lt;double&gt;"
                  "&amp;\" accessMode=\"read\"/>\n"
                  "      <peppher:parameter name=\"x\" type=\"float\" accessMode=\"read\"/>\n",
                  "void vfill_cpu(peppher::Vector<float>& v, const peppher::Matrix<double>&, "
                  "float x) {\n  for (float& e : v) e = x;\n}\n");
  write_interface("sfill",
                  "      <peppher:parameter name=\"s\" type=\"peppher::Scalar&lt;float&gt;&amp;\" "
                  "accessMode=\"write\"/>\n",
                  "void sfill_cpu(peppher::Scalar<float>& s) { s = 1.0f; }\n");
  test::RunResult r = test::run_in(dir.path(), {"main.xml", "-o", dir / "out"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string vfill = test::read_file(dir / "out/vfill_wrapper.h");
  CHECK_THAT(vfill, Catch::Contains("void vfill(peppher_vector* v, peppher_matrix* m, float x);"));
  CHECK_THAT(vfill, Catch::Contains("#ifdef __cplusplus\nvoid vfill(peppher::Vector<float>"));
  CHECK_THAT(test::read_file(dir / "out/vfill_wrapper.cpp"),
             Catch::Contains("peppher::detail::c_matrix<double>(m, \"double\", \"m\")"));
  CHECK_THAT(test::read_file(dir / "out/sfill_wrapper.h"), !Catch::Contains("peppher_"));
  const std::string umbrella = test::read_file(dir / "out/peppher.h");
  CHECK_THAT(umbrella, Catch::Contains("\n#include \"vfill_wrapper.h\"\n"));
  CHECK_THAT(umbrella, Catch::Contains("#ifdef __cplusplus\n#include \"sfill_wrapper.h\"\n#endif"));
}
