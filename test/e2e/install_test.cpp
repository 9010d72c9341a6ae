// The installed tree: `cmake --install` into a temporary prefix, then a composed program
// built by the installed compose's Makefile (no build-tree paths), and a CMake program
// built with find_package(Peppher) and the generated peppher.cmake.
#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;

TEST_CASE("install: the installed compose, runtime and CMake package work on their own") {
  fs::path prefix = e2e::fresh_work_dir("install/prefix");
  e2e::Run installed = e2e::run("cmake --install " + std::string(PEPPHER_BINARY_DIR) +
                                " --prefix " + prefix.string());
  INFO(installed.output);
  REQUIRE(installed.exit_code == 0);
  for (const char* file :
       {"bin/compose", "include/peppher/runtime.h", "share/peppher/schemas/peppher.xsd",
        "share/peppher/templates/wrapper.h.mustache", "lib/pkgconfig/peppher.pc",
        "lib/cmake/Peppher/PeppherConfig.cmake"}) {
    INFO(file);
    CHECK(fs::exists(prefix / file));
  }
  const fs::path cases = e2e::source_dir() / "test/e2e/cases";

  SECTION("Makefile from the installed compose") {
    fs::path out = e2e::fresh_work_dir("install/async");
    e2e::Run composed = e2e::run((prefix / "bin/compose").string() + " " +
                                 (cases / "async/main.xml").string() + " -o " + out.string());
    INFO(composed.output);
    REQUIRE(composed.exit_code == 0);
    e2e::Run built = e2e::make(out);
    INFO(built.output);
    REQUIRE(built.exit_code == 0);
    e2e::Run ran = e2e::run((out / "async").string());
    INFO(ran.output);
    CHECK(ran.exit_code == 0);
  }

  SECTION("CMake project with find_package(Peppher) and peppher.cmake") {
    fs::path out = e2e::fresh_work_dir("install/cmake_generated");
    e2e::Run composed = e2e::run((prefix / "bin/compose").string() + " " +
                                 (cases / "async/main.xml").string() + " -o " + out.string());
    REQUIRE(composed.exit_code == 0);
    fs::path build = e2e::fresh_work_dir("install/cmake_build");
    e2e::Run configured = e2e::run("cmake -S " + (cases / "cmake_consumer").string() + " -B " +
                                   build.string() + " -DCMAKE_PREFIX_PATH=" + prefix.string() +
                                   " -DPEPPHER_GENERATED=" + out.string());
    INFO(configured.output);
    REQUIRE(configured.exit_code == 0);
    e2e::Run built = e2e::run("cmake --build " + build.string() + " -j2");
    INFO(built.output);
    REQUIRE(built.exit_code == 0);
    e2e::Run ran = e2e::run((build / "async").string());
    INFO(ran.output);
    CHECK(ran.exit_code == 0);
  }
}

TEST_CASE("compose: a second run with nothing changed rewrites nothing") {
  fs::path out = e2e::fresh_work_dir("rerun");
  const fs::path main_xml = e2e::source_dir() / "apps/spmv/main.xml";
  REQUIRE(e2e::compose(main_xml, out).exit_code == 0);
  const auto before = fs::last_write_time(out / "spmv_wrapper.h");
  const std::string text_before = e2e::run("cat " + (out / "spmv_wrapper.h").string()).output;
  REQUIRE(e2e::compose(main_xml, out).exit_code == 0);
  CHECK(fs::last_write_time(out / "spmv_wrapper.h") == before);
  CHECK(e2e::run("cat " + (out / "spmv_wrapper.h").string()).output == text_before);
}
