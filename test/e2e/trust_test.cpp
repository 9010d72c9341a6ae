// End to end, the run-time trust boundary (test/e2e/cases/trust): checked lengths, the
// variants' exceptions reaching the caller for both call kinds, guarded divisions.
#include <fstream>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using namespace e2e;

TEST_CASE("e2e: bad lengths, variant exceptions and zero divisors reach the caller") {
  fs::path out = compose_and_build("trust", cases() / "trust/main.xml");
  e2e::Run r = run_program(out / "guard", "", kCpuOnly);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("negative: peppher: fill: parameter 'a' has numElements "
                                       "= n = -1, a negative length"));
  CHECK_THAT(r.output, Catch::Contains("too large: peppher: fill: parameter 'a' has numElements "
                                       "= n = 8589934592, more elements than StarPU registers"));
  CHECK_THAT(r.output, Catch::Contains("synchronous: boom_raw_cpu failed on purpose"));
  CHECK_THAT(r.output, Catch::Contains("asynchronous: boom_vec_cpu failed on purpose"));
  CHECK_THAT(r.output, Catch::Contains("zero divisor: peppher: ratio: no variant accepts"));
  CHECK_THAT(r.output, Catch::Contains("0 failures"));
}

TEST_CASE("e2e: names next to the reserved ones compose, build and run") {
  // Interfaces Main, class_, int32, error; variants Exit, printf_, starpu (written in C, so
  // declared extern "C") and Peppher; parameters time, index and y0, which C's headers
  // declare as functions (a parameter only hides them). Each interface adds its own number.
  const fs::path work = fresh_work_dir("reserved_boundary");
  const std::string ns = "xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\"";
  auto write = [&](const fs::path& rel, const std::string& text) {
    fs::create_directories((work / rel).parent_path());
    std::ofstream(work / rel) << text;
  };
  struct Named {
    std::string iface, variant, file;
    int adds;
  };
  const std::vector<Named> names = {{"Main", "Exit", "exit.cpp", 1},
                                    {"class_", "printf_", "printf_.cpp", 2},
                                    {"int32", "starpu", "starpu.c", 3},
                                    {"error", "Peppher", "peppher.cpp", 4}};
  std::string required, calls;
  for (const Named& n : names) {
    required +=
        "<peppher:requiredInterface name=\"" + n.iface + "\" xmlFile=\"" + n.iface + ".xml\"/>";
    write(n.iface + ".xml",
          "<peppher:component " + ns + "><peppher:interface name=\"" + n.iface + "\" impPath=\"" +
              n.iface +
              "_impl/\"><peppher:parameters>"
              "<peppher:parameter name=\"time\" type=\"float *\" numElements=\"index\" "
              "accessMode=\"readwrite\"/>"
              "<peppher:parameter name=\"index\" type=\"int\" accessMode=\"read\"/>"
              "<peppher:parameter name=\"y0\" type=\"float\" accessMode=\"read\"/>"
              "</peppher:parameters></peppher:interface></peppher:component>\n");
    write(n.iface + "_impl/" + n.variant + ".xml",
          "<peppher:component " + ns + "><peppher:implementation name=\"" + n.variant +
              "\"><peppher:sourceFiles><peppher:sourceFile name=\"" + n.file +
              "\"/></peppher:sourceFiles><peppher:providedInterfaces>"
              "<peppher:providedInterface name=\"" +
              n.iface +
              "\"/></peppher:providedInterfaces><peppher:targetPlatform name=\"CPU\"/>"
              "</peppher:implementation></peppher:component>\n");
    write(n.iface + "_impl/" + n.file,
          "void " + n.variant + "(float* time, int index, float y0) {\n  for (int i = 0; i < " +
              "index; ++i) time[i] = time[i] * y0 + " + std::to_string(n.adds) + ";\n}\n");
    calls += "  " + n.iface + "(v, 4, 2.0f);\n";
  }
  write("main.xml", "<peppher:component " + ns +
                        "><peppher:implementation name=\"main\"><peppher:sourceFiles>"
                        "<peppher:sourceFile name=\"main.cpp\"/></peppher:sourceFiles>"
                        "<peppher:requiredInterfaces>" +
                        required +
                        "</peppher:requiredInterfaces><peppher:targetPlatform name=\"CPU\"/>"
                        "</peppher:implementation></peppher:component>\n");
  write("main.cpp",
        "#include <cstdio>\n#include \"peppher.h\"\nint main() {\n"
        "  PEPPHER_INITIALIZE();\n  float v[4] = {1, 1, 1, 1};\n" +
            calls +
            "  PEPPHER_SHUTDOWN();\n  std::printf(\"v = %g %g\\n\", v[0], v[3]);\n"
            "  return 0;\n}\n");
  const fs::path out = compose_and_build("reserved_boundary_out", work / "main.xml");
  e2e::Run r = run_program(out / "main", "", kCpuOnly);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("v = 42 42"));  // (((1*2+1)*2+2)*2+3)*2+4
}

TEST_CASE("e2e: run-time sizes: zero divisors, overflows and null pointers are errors") {
  // test/e2e/cases/sizes: numElements="n/d" and "n*n*n", computed in checked 64-bit
  // arithmetic by the entry wrapper; the program catches nothing, so an error ends it with
  // status 1 and the message (never SIGFPE, an abort or a made-up length).
  fs::path out = compose_and_build("sizes", cases() / "sizes/main.xml");
  const struct {
    const char* mode;
    const char* message;
  } expected[] = {
      {"div",
       "peppher: rows_fill: parameter 'arr' has numElements = n/d: division by zero "
       "(d = 0)"},
      {"overflow",
       "peppher: cube_fill: parameter 'arr' has numElements = n*n*n: n * n * n "
       "overflows 64-bit arithmetic"},
      {"null",
       "peppher: rows_fill: parameter 'arr' is a null pointer but has numElements = "
       "n/d = 1000"},
  };
  for (const auto& e : expected) {
    for (const char* workers : {kCpuOnly, kTwoCpus}) {
      e2e::Run r = run_program(out / "sizes", e.mode, workers);
      INFO(e.mode << " under " << workers << ":\n" << r.output);
      CHECK(r.exit_code == 1);
      CHECK_THAT(r.output, Catch::Contains(e.message));
      CHECK_THAT(r.output, !Catch::Contains("returned"));
    }
  }
  e2e::Run ok = run_program(out / "sizes", "ok", kCpuOnly);
  INFO(ok.output);
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.output, Catch::Contains("ok 4 0 7 0"));
}
