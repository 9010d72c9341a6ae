// The light form end to end (docs/FORMAT.md, Light form): a component declared in an
// annotated header with CPU, OpenMP and OpenCL variants found by file name composes from
// main.cpp alone, builds, runs on every worker set, and matches the code and the numbers of
// the XML descriptors compose --emit-xml writes for it; utility mode's --light round trip,
// for a function and for a function template.
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_support.h"
#include "light_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using e2e::cases;
using e2e::compose_and_build;
using e2e::run_program;

namespace {

// The program's verdict line: "saxpy: checksum ..., 0 wrong".
std::string verdict(const std::string& output) {
  const size_t at = output.find("saxpy: checksum");
  return at == std::string::npos ? "" : output.substr(at, output.find('\n', at) - at);
}

}  // namespace

TEST_CASE("e2e: a light-form component composes from main.cpp and runs every backend") {
  const fs::path main = cases() / "light/main.cpp";
  const fs::path out = compose_and_build("light", main);
  SECTION("CPU worker and OpenCL device") {
    e2e::Run r = run_program(out / "main", "", e2e::kCpuAndOpenCl);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains(", 0 wrong"));
  }
  SECTION("CPU only: the CPU and OpenMP variants") {
    e2e::Run r = run_program(out / "main", "", e2e::kCpuOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(e2e::report_count(r.output, "saxpy_cpu", "CPU") +
              e2e::report_count(r.output, "saxpy_openmp", "CPU") ==
          4);
  }
  SECTION("OpenCL only: the OpenCL variant (pocl)") {
    e2e::Run r = run_program(out / "main", "", e2e::kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(e2e::report_count(r.output, "saxpy_opencl", "OpenCL") == 4);
  }
}

TEST_CASE("e2e: --emit-xml writes descriptors that compose to the same code and numbers") {
  const fs::path main = cases() / "light/main.cpp";
  // The program the test case above built and ran (the same composition).
  const fs::path light = compose_and_build("light", main);
  const fs::path xml = e2e::fresh_work_dir("light_emitted_xml");
  e2e::Run emit = e2e::run(std::string(PEPPHER_COMPOSE_EXE) + " --emit-xml " + xml.string() + " " +
                           main.string());
  INFO(emit.output);
  REQUIRE(emit.exit_code == 0);
  REQUIRE(fs::exists(xml / "main.xml"));
  REQUIRE(fs::exists(xml / "saxpy.xml"));
  REQUIRE(fs::exists(xml / "saxpy/saxpy_opencl.xml"));
  const fs::path composed = compose_and_build("light_as_xml", xml / "main.xml");
  const std::map<std::string, std::string> a = e2e::generated(light), b = e2e::generated(composed);
  CHECK(a.size() > 2);
  for (const auto& [name, text] : a) {
    INFO(name);
    REQUIRE(b.count(name) == 1);
    CHECK(text == b.at(name));
  }
  CHECK(a.size() == b.size());
  for (const char* workers : {e2e::kCpuOnly, e2e::kOpenClOnly}) {
    e2e::Run x = run_program(light / "main", "", workers);
    e2e::Run y = run_program(composed / "main", "", workers);
    INFO(x.output << "\n---\n" << y.output);
    CHECK(x.exit_code == 0);
    CHECK(y.exit_code == 0);
    CHECK(!verdict(x.output).empty());
    CHECK(verdict(x.output) == verdict(y.output));
  }
}

TEST_CASE("e2e: a host-side OpenCL variant found by name launches its kernels on pocl") {
  const fs::path main = cases() / "light_host_side/main.cpp";
  const fs::path out = compose_and_build("light_host_side", main);
  // Three calls, each checked against the host's double-precision atax.
  auto checked = [](const std::string& output) {
    size_t ok = 0;
    for (size_t at = output.find(" ok\n"); at != std::string::npos;
         at = output.find(" ok\n", at + 1))
      ++ok;
    return ok;
  };
  SECTION("OpenCL only: the host function runs every call") {
    e2e::Run r = run_program(out / "main", "", e2e::kOpenClOnly);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(checked(r.output) == 3);
    CHECK(e2e::report_count(r.output, "atax_opencl", "OpenCL") == 3);
  }
  SECTION("CPU worker and OpenCL device") {
    e2e::Run r = run_program(out / "main", "", e2e::kCpuAndOpenCl);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(checked(r.output) == 3);
  }
  SECTION("--emit-xml names the host file's variables, and composes to the same code") {
    const fs::path xml = e2e::fresh_work_dir("light_host_side_xml");
    e2e::Run emit = e2e::run(std::string(PEPPHER_COMPOSE_EXE) + " --emit-xml " + xml.string() +
                             " " + main.string());
    INFO(emit.output);
    REQUIRE(emit.exit_code == 0);
    const std::string variant = e2e::read_text(xml / "atax/atax_opencl.xml");
    CHECK_THAT(variant,
               Catch::Contains("atax/atax_opencl.cpp\" language=\"C++\" "
                               "starpu_opencl_program=\"atax_program\" "
                               "cl_kernel=\"atax_kernel\" cl_command_queue=\"atax_queue\""));
    CHECK_THAT(variant, Catch::Contains("atax/atax_opencl.cl\" language=\"OpenCL\" "
                                        "kernel=\"atax_rows\""));
    const fs::path composed = e2e::fresh_work_dir("light_host_side_as_xml");
    e2e::Run c = e2e::compose(xml / "main.xml", composed);
    INFO(c.output);
    REQUIRE(c.exit_code == 0);
    const std::map<std::string, std::string> a = e2e::generated(out), b = e2e::generated(composed);
    CHECK(a.size() > 2);
    CHECK(a == b);
  }
}

TEST_CASE("e2e: --components DIR reads the interfaces of every header in DIR") {
  // main.cpp includes only peppher.h: without --components no header names a component.
  const fs::path src = cases() / "light_components";
  const fs::path out = e2e::fresh_work_dir("light_components");
  const std::string compose = PEPPHER_COMPOSE_EXE;
  e2e::Run none = e2e::run("cd " + src.string() + " && " + compose + " --check prog/main.cpp");
  INFO(none.output);
  CHECK(none.exit_code != 0);
  CHECK_THAT(none.output, Catch::Contains("prog/main.cpp:1:1: error: no interface found"));
  e2e::Run made = e2e::run("cd " + src.string() + " && " + compose +
                           " prog/main.cpp --components comps -o " + out.string());
  INFO(made.output);
  REQUIRE(made.exit_code == 0);
  e2e::Run built = e2e::make(out);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  for (const char* workers : {e2e::kCpuOnly, e2e::kOpenClOnly, e2e::kCpuAndOpenCl}) {
    e2e::Run r = run_program(out / "main", "", workers);
    INFO(workers << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("components: 0 wrong"));
  }
  e2e::Run cpu = run_program(out / "main", "", e2e::kCpuOnly);
  CHECK(e2e::report_count(cpu.output, "vfill_cpu", "CPU") == 1);
  CHECK(e2e::report_count(cpu.output, "vscale_cpu", "CPU") == 3);
  e2e::Run ocl = run_program(out / "main", "", e2e::kOpenClOnly);
  CHECK(e2e::report_count(ocl.output, "vfill_opencl", "OpenCL") == 1);
  CHECK(e2e::report_count(ocl.output, "vscale_opencl", "OpenCL") == 3);
}

TEST_CASE("e2e: a generic light-form component runs the instantiations the program calls") {
  const fs::path main = cases() / "light_generic/main.cpp";
  const fs::path out = compose_and_build("light_generic", main);
  // One codelet per type the program calls axpby with, read from its calls.
  for (const char* type : {"float", "double", "int"})
    CHECK(fs::exists(out / (std::string("axpby__") + type + "_wrapper.cpp")));
  for (const char* workers : {e2e::kCpuOnly, e2e::kOpenClOnly, e2e::kCpuAndOpenCl}) {
    e2e::Run r = run_program(out / "main", "", workers);
    INFO(workers << "\n" << r.output);
    CHECK(r.exit_code == 0);
    for (const char* type : {"float", "double", "int"})
      CHECK_THAT(r.output, Catch::Contains(std::string("axpby<") + type + ">: 0 wrong"));
  }
  e2e::Run ocl = run_program(out / "main", "", e2e::kOpenClOnly);
  CHECK(e2e::report_count(ocl.output, "axpby_opencl", "OpenCL") == 9);
  // --emit-xml: a generic interface, whose main.xml lists no instantiation either.
  const fs::path xml = e2e::fresh_work_dir("light_generic_xml");
  e2e::Run emit = e2e::run(std::string(PEPPHER_COMPOSE_EXE) + " --emit-xml " + xml.string() + " " +
                           main.string());
  INFO(emit.output);
  REQUIRE(emit.exit_code == 0);
  CHECK_THAT(e2e::read_text(xml / "axpby.xml"),
             Catch::Contains("kind=\"generic\" templateTypes=\"T\""));
  const fs::path composed = e2e::fresh_work_dir("light_generic_as_xml");
  e2e::Run c = e2e::compose(xml / "main.xml", composed);
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  CHECK(e2e::generated(out) == e2e::generated(composed));
}

TEST_CASE("e2e: a generic light-form component the program never calls is a located warning") {
  const fs::path dir = e2e::fresh_work_dir("light_generic_unused");
  fs::copy(cases() / "light_generic", dir / "src", fs::copy_options::recursive);
  std::ofstream(dir / "src/main.cpp")
      << "// Includes axpby.h, calls nothing.\n#include \"axpby.h\"\n#include \"peppher.h\"\n"
         "int main() { return 0; }\n";
  e2e::Run r =
      e2e::run("cd " + (dir / "src").string() + " && " + PEPPHER_COMPOSE_EXE + " --check main.cpp");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("axpby.h:9:6: warning: generic interface 'axpby' is never "
                                       "instantiated (no call of it in main's C++ sources), so "
                                       "nothing is generated for it: call it from the program's "
                                       "sources (axpby<float>(...))"));
}

TEST_CASE("e2e: a variant file named for no backend is a located warning") {
  const fs::path dir = e2e::fresh_work_dir("light_unknown_backend");
  fs::copy(cases() / "light", dir / "src", fs::copy_options::recursive);
  std::ofstream(dir / "src/saxpy/saxpy_sse.cpp") << "void saxpy_sse() {}\n";
  e2e::Run r =
      e2e::run("cd " + (dir / "src").string() + " && " + PEPPHER_COMPOSE_EXE + " --check main.cpp");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output,
             Catch::Contains("saxpy/saxpy_sse.cpp:1:1: warning: 'saxpy_sse.cpp' is named after "
                             "interface 'saxpy' but names no backend; variant files are "
                             "saxpy_cpu.{c,cpp}, saxpy_openmp.{c,cpp}, saxpy_opencl.{cl,cpp,c}, "
                             "saxpy_cuda.cu (or say // PEPPHER_BACKEND(cuda) in a further "
                             "variant's file)"));
}

TEST_CASE("e2e: a file that says PEPPHER_BACKEND is a further variant of that backend") {
  const fs::path dir = e2e::fresh_work_dir("light_further_variant_src");
  fs::copy(cases() / "light", dir / "src", fs::copy_options::recursive);
  // A second CPU variant beside saxpy_cpu.cpp, named like its file.
  std::ofstream(dir / "src/saxpy/saxpy_unrolled.cpp")
      << "// PEPPHER_BACKEND(cpu)\n"
         "void saxpy_unrolled(float a, const float* x, float* y, int n) {\n"
         "  int i = 0;\n"
         "  for (; i + 2 <= n; i += 2) {\n"
         "    y[i] = a * x[i] + y[i];\n"
         "    y[i + 1] = a * x[i + 1] + y[i + 1];\n"
         "  }\n"
         "  for (; i < n; ++i) y[i] = a * x[i] + y[i];\n"
         "}\n";
  const fs::path out = compose_and_build("light_further_variant", dir / "src/main.cpp");
  e2e::Run r = run_program(out / "main", "",
                           std::string(e2e::kCpuOnly) + " PEPPHER_VARIANT=saxpy=saxpy_unrolled");
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains(", 0 wrong"));
  CHECK(e2e::report_count(r.output, "saxpy_unrolled", "CPU") == 4);
  // --emit-xml describes it as an XML variant of that backend.
  const fs::path xml = e2e::fresh_work_dir("light_further_variant_xml");
  e2e::Run emit = e2e::run(std::string(PEPPHER_COMPOSE_EXE) + " --emit-xml " + xml.string() + " " +
                           (dir / "src/main.cpp").string());
  INFO(emit.output);
  REQUIRE(emit.exit_code == 0);
  CHECK_THAT(e2e::read_text(xml / "saxpy/saxpy_unrolled.xml"),
             Catch::Contains("<peppher:targetPlatform name=\"CPU\"/>"));
}

TEST_CASE("e2e: utility mode --light writes an annotated header and skeletons that compose") {
  const fs::path dir = e2e::fresh_work_dir("light_utility");
  std::ofstream(dir / "scale.h")
      << "// out = factor * in, n elements.\n#pragma once\n"
         "void scale(float* out, const float* in, int n, float factor);\n";
  const std::string compose = PEPPHER_COMPOSE_EXE;
  e2e::Run made = e2e::run("cd " + dir.string() + " && " + compose +
                           " -generateCompFiles=scale.h --light -o gen");
  INFO(made.output);
  REQUIRE(made.exit_code == 0);
  const fs::path gen = dir / "gen";
  for (const auto& e : fs::recursive_directory_iterator(gen)) CHECK(e.path().extension() != ".xml");
  // The guesses as annotations: `out` is written (its name), both pointers hold n elements.
  CHECK(e2e::read_text(gen / "scale.h") ==
        "// out = factor * in, n elements.\n#pragma once\n#include <peppher/annotate.h>\n"
        "void scale(float* out PEPPHER_WRITE PEPPHER_SIZE(n), const float* in PEPPHER_SIZE(n), "
        "int n, float factor);\n");
  for (const char* variant : {"scale_cpu.cpp", "scale_openmp.cpp", "scale_opencl.cl"})
    REQUIRE(fs::exists(gen / "scale" / variant));

  // The same interface as the XML utility mode writes, read back through --emit-xml.
  std::ofstream(gen / "main.cpp")
      << "// Calls scale and checks it.\n#include <cstdio>\n\n#include \"peppher.h\"\n"
         "#include \"scale.h\"\n\nint main() {\n  float in[100], out[100];\n"
         "  for (int i = 0; i < 100; ++i) in[i] = static_cast<float>(i);\n"
         "  PEPPHER_INITIALIZE();\n  scale(out, in, 100, 2.0f);\n  PEPPHER_SHUTDOWN();\n"
         "  int wrong = 0;\n  for (int i = 0; i < 100; ++i) wrong += out[i] != 2.0f * in[i];\n"
         "  std::printf(\"scale: %d wrong\\n\", wrong);\n  return wrong == 0 ? 0 : 1;\n}\n";
  e2e::Run emitted =
      e2e::run("cd " + dir.string() + " && " + compose + " --emit-xml light_xml gen/main.cpp && " +
               compose + " -generateCompFiles=scale.h -o xml_form");
  INFO(emitted.output);
  REQUIRE(emitted.exit_code == 0);
  const std::regex parameter(
      "<peppher:parameter name=\"(\\w+)\" type=\"([^\"]*)\" accessMode=\"(\\w+)\""
      "( numElements=\"[^\"]*\")?");
  auto parameters = [&](const fs::path& file) {
    std::vector<std::string> found;
    const std::string text = e2e::read_text(file);
    for (std::sregex_iterator it(text.begin(), text.end(), parameter), end; it != end; ++it)
      found.push_back((*it)[1].str() + " " + (*it)[2].str() + " " + (*it)[3].str() +
                      (*it)[4].str());
    return found;
  };
  CHECK(parameters(dir / "light_xml/scale.xml").size() == 4);
  CHECK(parameters(dir / "light_xml/scale.xml") == parameters(dir / "xml_form/scale.xml"));

  // Written in, the CPU skeleton composes, builds and runs (the others left out).
  const fs::path cpu = gen / "scale/scale_cpu.cpp";
  std::string code = e2e::read_text(cpu);
  const size_t from = code.find("  // ---- PEPPHER: your CPU code goes here");
  const size_t to = code.find("  // ---- PEPPHER: end of your code ----");
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  code.replace(from, to - from, "  for (int i = 0; i < n; ++i) out[i] = factor * in[i];\n");
  std::ofstream(cpu) << code;
  for (const char* variant : {"scale_openmp.cpp", "scale_opencl.cl", "scale_cuda.cu"})
    fs::remove(gen / "scale" / variant);
  const fs::path out = compose_and_build("light_utility_composed", gen / "main.cpp");
  e2e::Run r = run_program(out / "main", "", e2e::kCpuOnly);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("scale: 0 wrong"));
}

TEST_CASE("e2e: utility mode --light on a function template writes a generic component") {
  const fs::path dir = e2e::fresh_work_dir("light_utility_generic");
  std::ofstream(dir / "tscale.h") << "// out = factor * in, n elements of any arithmetic type.\n"
                                     "#pragma once\n"
                                     "template <typename T>\n"
                                     "void tscale(T* out, const T* in, int n, T factor);\n"
                                     "template <typename T, int N>\n"
                                     "void fixed(T* out);\n";
  const std::string compose = PEPPHER_COMPOSE_EXE;
  e2e::Run made = e2e::run("cd " + dir.string() + " && " + compose +
                           " -generateCompFiles=tscale.h --light -o gen");
  INFO(made.output);
  REQUIRE(made.exit_code == 0);
  // A template with a non-type parameter cannot be a light-form component.
  CHECK_THAT(made.output,
             Catch::Contains("tscale.h:6:6: warning: 'fixed' gets no light-form skeleton: its "
                             "template parameter 'N' is not a type"));
  CHECK_FALSE(fs::exists(dir / "gen/fixed"));
  const fs::path gen = dir / "gen";
  CHECK(e2e::read_text(gen / "tscale.h") ==
        "// out = factor * in, n elements of any arithmetic type.\n#pragma once\n"
        "#include <peppher/annotate.h>\ntemplate <typename T>\n"
        "void tscale(T* out PEPPHER_WRITE PEPPHER_SIZE(n), const T* in PEPPHER_SIZE(n), int n, "
        "T factor);\ntemplate <typename T, int N>\nvoid fixed(T* out);\n");
  // The variant skeletons are function templates, the kernel's T a macro (-DT=int).
  CHECK_THAT(e2e::read_text(gen / "tscale/tscale_cpu.cpp"),
             Catch::Contains("template <typename T>\nvoid tscale_cpu(T *out, const T *in, int n, "
                             "T factor) {"));
  CHECK_THAT(e2e::read_text(gen / "tscale/tscale_opencl.cl"),
             Catch::Contains("#ifndef T\n#define T float"));

  // Written in, the CPU, OpenMP and OpenCL skeletons compose for the two types main calls.
  auto fill = [&](const char* variant, const std::string& body) {
    const fs::path file = gen / "tscale" / variant;
    std::string code = e2e::read_text(file);
    const size_t from = code.find("  // ---- PEPPHER: your");
    const size_t to = code.find("  // ---- PEPPHER: end of your code ----");
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    code.replace(from, to - from, body);
    std::ofstream(file) << code;
  };
  fill("tscale_cpu.cpp", "  for (int i = 0; i < n; ++i) out[i] = factor * in[i];\n");
  fill("tscale_openmp.cpp",
       "#pragma omp parallel for\n  for (int i = 0; i < n; ++i) out[i] = factor * in[i];\n");
  fill("tscale_opencl.cl",
       "  for (int i = get_global_id(0); i < n; i += get_global_size(0)) out[i] = factor * "
       "in[i];\n");
  fs::remove(gen / "tscale/tscale_cuda.cu");
  std::ofstream(gen / "main.cpp")
      << "// Calls tscale<float> and tscale<int>, checks both.\n#include <cstdio>\n\n"
         "#include \"peppher.h\"\n#include \"tscale.h\"\n\n"
         "template <typename T>\nint check(const char* type) {\n"
         "  T in[100], out[100];\n"
         "  for (int i = 0; i < 100; ++i) in[i] = static_cast<T>(i);\n"
         "  tscale(out, in, 100, static_cast<T>(3));\n"
         "  int wrong = 0;\n"
         "  for (int i = 0; i < 100; ++i) wrong += out[i] != static_cast<T>(3) * in[i];\n"
         "  std::printf(\"tscale<%s>: %d wrong\\n\", type, wrong);\n  return wrong;\n}\n\n"
         "int main() {\n  PEPPHER_INITIALIZE();\n"
         "  const int wrong = check<float>(\"float\") + check<int>(\"int\");\n"
         "  PEPPHER_SHUTDOWN();\n  return wrong == 0 ? 0 : 1;\n}\n";
  const fs::path out = compose_and_build("light_utility_generic_composed", gen / "main.cpp");
  for (const char* type : {"float", "int"})
    CHECK(fs::exists(out / (std::string("tscale__") + type + "_wrapper.cpp")));
  for (const char* workers : {e2e::kCpuOnly, e2e::kTwoCpus, e2e::kOpenClOnly}) {
    e2e::Run r = run_program(out / "main", "", workers);
    INFO(workers << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("tscale<float>: 0 wrong"));
    CHECK_THAT(r.output, Catch::Contains("tscale<int>: 0 wrong"));
  }
  e2e::Run ocl = run_program(out / "main", "", e2e::kOpenClOnly);
  CHECK(e2e::report_count(ocl.output, "tscale_opencl", "OpenCL") == 2);
}
