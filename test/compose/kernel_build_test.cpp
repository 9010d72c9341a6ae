// The OpenCL build check (verify/kernel_build.h): compose compiles every OpenCL variant's
// kernel file as the runtime builds it (its defines too) and reports the build log's errors
// at the kernel file's line, with the OpenCL platform (pocl) or Clang's OpenCL front end; a
// helper that never finishes is killed after the timeout.
#include "compose/verify/kernel_build.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;

namespace {

// A program with one interface, `twice`, and a CPU and an OpenCL variant; the kernel's
// scale factor comes from its sourceFile's flags (-DSCALE=2.0f), as the runtime passes them.
void write_project(const test::TempDir& dir, const std::string& kernel) {
  dir.write("main.xml", R"(<?xml version="1.0" encoding="UTF-8"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
  <peppher:implementation name="main">
    <peppher:sourceFiles>
      <peppher:sourceFile name="main.cpp" language="C++">
        <peppher:compilation><peppher:compiler><peppher:name>g++</peppher:name>
          <peppher:flags>-O2 -std=c++17</peppher:flags></peppher:compiler></peppher:compilation>
      </peppher:sourceFile>
    </peppher:sourceFiles>
    <peppher:requiredInterfaces>
      <peppher:requiredInterface name="twice" xmlFile="twice.xml"/>
    </peppher:requiredInterfaces>
  </peppher:implementation>
</peppher:component>
)");
  dir.write("main.cpp", R"(#include "peppher.h"
int main() {
  PEPPHER_INITIALIZE();
  peppher::Vector<float> x(16, 1.0f);
  twice(x, 16);
  PEPPHER_SHUTDOWN();
}
)");
  dir.write("twice.xml", R"(<?xml version="1.0" encoding="UTF-8"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
  <peppher:interface name="twice" impPath="twice/">
    <peppher:parameters>
      <peppher:parameter name="x" type="peppher::Vector&lt;float&gt; &amp;" accessMode="readwrite"/>
      <peppher:parameter name="n" type="int" accessMode="read"/>
    </peppher:parameters>
  </peppher:interface>
</peppher:component>
)");
  dir.write("twice/twice_cpu.xml", R"(<?xml version="1.0" encoding="UTF-8"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
  <peppher:implementation name="twice_cpu">
    <peppher:sourceFiles>
      <peppher:sourceFile name="twice_cpu.cpp" language="C++"/>
    </peppher:sourceFiles>
    <peppher:providedInterfaces>
      <peppher:providedInterface name="twice"/>
    </peppher:providedInterfaces>
    <peppher:targetPlatform name="CPU"/>
  </peppher:implementation>
</peppher:component>
)");
  dir.write("twice/twice_cpu.cpp", R"(#include <peppher/runtime.h>
void twice_cpu(peppher::Vector<float>& x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2.0f;
}
)");
  dir.write("twice/twice_opencl.xml", R"(<?xml version="1.0" encoding="UTF-8"?>
<peppher:component xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.1">
  <peppher:implementation name="twice_opencl">
    <peppher:sourceFiles>
      <peppher:sourceFile name="twice.cl" language="OpenCL" kernel="twice_kernel"
                          extentArguments="false">
        <peppher:compilation><peppher:compiler><peppher:name>opencl</peppher:name>
          <peppher:flags>-DSCALE=2.0f</peppher:flags></peppher:compiler></peppher:compilation>
      </peppher:sourceFile>
    </peppher:sourceFiles>
    <peppher:providedInterfaces>
      <peppher:providedInterface name="twice"/>
    </peppher:providedInterfaces>
    <peppher:targetPlatform name="OPENCL"/>
  </peppher:implementation>
</peppher:component>
)");
  dir.write("twice/twice.cl", kernel);
}

const char* const kGoodKernel =
    "// Doubles x.\n"
    "__kernel void twice_kernel(__global float* x, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) x[i] = x[i] * SCALE;\n"
    "}\n";

// Line 4 uses an undeclared `y`, column 36.
const char* const kBrokenKernel =
    "// Doubles x.\n"
    "__kernel void twice_kernel(__global float* x, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) x[i] = x[i] * SCALE + y;\n"
    "}\n";

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("a kernel that compiles with its defines composes", "[kernel_build]") {
  test::TempDir dir;
  write_project(dir, kGoodKernel);
  test::RunResult r = test::run_in(dir.path(), {"--check", "-vv", "main.xml"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.err.find("error") == std::string::npos);
  CHECK(r.err.find("built 1 OpenCL kernel file (waited") != std::string::npos);
}

TEST_CASE("a kernel that does not compile is an error at its line", "[kernel_build]") {
  test::TempDir dir;
  write_project(dir, kBrokenKernel);
  const std::string located = "twice/twice.cl:4:36: error: use of undeclared identifier 'y'";
  SECTION("with the OpenCL platform, or Clang where there is none") {
    test::RunResult r = test::run_in(dir.path(), {"--check", "main.xml"});
    INFO(r.err);
    CHECK(r.code != 0);
    CHECK(r.err.find(located) != std::string::npos);
    CHECK(r.err.find("note: OpenCL variant 'twice_opencl': 'twice/twice.cl' does not compile") !=
          std::string::npos);
    // Without --check too: nothing is generated.
    test::RunResult composed = test::run_in(dir.path(), {"main.xml"});
    CHECK(composed.code != 0);
    CHECK(composed.err.find(located) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "Makefile"));
  }
  SECTION("with Clang's OpenCL C front end") {
    ScopedEnv no_platform("PEPPHER_OPENCL_CHECK", "off");
    test::RunResult r = test::run_in(dir.path(), {"--check", "main.xml"});
    INFO(r.err);
    CHECK(r.code != 0);
    CHECK(r.err.find(located) != std::string::npos);
    CHECK(r.err.find("does not compile as OpenCL C 1.2 (Clang's front end") != std::string::npos);
  }
}

TEST_CASE("a build check that does not finish is killed after the timeout", "[kernel_build]") {
  test::TempDir dir;
  write_project(dir, kGoodKernel);
  // A helper that hangs, as a compiler looping on a kernel would.
  dir.write("hang.sh", "#!/bin/sh\nexec sleep 60\n");
  std::filesystem::permissions(dir / "hang.sh", std::filesystem::perms::owner_all);
  ScopedEnv checker("PEPPHER_OPENCL_CHECK", dir / "hang.sh");
  ScopedEnv timeout("PEPPHER_OPENCL_CHECK_TIMEOUT", "1");
  const auto start = std::chrono::steady_clock::now();
  test::RunResult r = test::run_in(dir.path(), {"--check", "main.xml"});
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start)
          .count();
  INFO(r.err);
  CHECK(r.code == 0);  // not checked is a warning
  CHECK(r.err.find("twice/twice_opencl.xml") != std::string::npos);
  CHECK(r.err.find("warning: OpenCL variant 'twice_opencl': building 'twice/twice.cl' with the "
                   "OpenCL platform did not finish in 1 s") != std::string::npos);
  CHECK(seconds < 30);
}

TEST_CASE("build logs: pocl's and Clang's formats, the platform's copy mapped to the file",
          "[kernel_build]") {
  const std::string log =
      "error: /root/.cache/pocl/kcache/tempfile_IOfKY7.cl:2:10: use of undeclared identifier "
      "'y'\n"
      "warning: /root/.cache/pocl/kcache/tempfile_IOfKY7.cl:3:7: expression result unused\n"
      "<kernel>:5:1: error: expected '}'\n"
      "Device pthread-skylake failed to build the program\n";
  const std::vector<verify::LoggedDiagnostic> d = verify::parse_build_log(log);
  REQUIRE(d.size() == 3);
  CHECK(d[0].file == "/root/.cache/pocl/kcache/tempfile_IOfKY7.cl");
  CHECK(d[0].line == 2);
  CHECK(d[0].col == 10);
  CHECK(d[0].severity == "error");
  CHECK(d[0].message == "use of undeclared identifier 'y'");
  CHECK(d[1].severity == "warning");
  CHECK(d[2].file == "<kernel>");
  CHECK(d[2].line == 5);
  CHECK(d[2].message == "expected '}'");
  CHECK(verify::logged_file(d[0].file, "k/a.cl") == "k/a.cl");
  CHECK(verify::logged_file(d[2].file, "k/a.cl") == "k/a.cl");
  test::TempDir dir;
  dir.write("inc/common.h", "#define X 1\n");
  CHECK(verify::logged_file(dir / "inc/common.h", "k/a.cl") == dir / "inc/common.h");
}
