// The legacy-program test: test/e2e/legacy/, a multi-file program unaware of PEPPHER, built
// plainly with g++ and composed with only three added lines (include, two macros; its own
// axpy/vector_scale left to the components) must print the same output.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "e2e_support.h"

namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

long count_lines(const std::string& text) {
  long n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// Inserts @p line before (@p after == false) or after the only line of @p file equal to
// @p anchor; the anchor must occur exactly once.
void insert_line(const fs::path& file, const std::string& anchor, const std::string& line,
                 bool after) {
  std::string text = read_text(file);
  const std::string needle = "\n" + anchor + "\n";
  const size_t at = text.find(needle);
  INFO(file.string() << ": anchor '" << anchor << "'");
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(needle, at + 1) == std::string::npos);
  const size_t pos = after ? at + needle.size() : at + 1;
  text.insert(pos, line + "\n");
  write_text(file, text);
}

// Copies the legacy program's files (not subfolders) from @p from into @p to.
void copy_program(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from)) {
    if (entry.is_regular_file()) fs::copy_file(entry.path(), to / entry.path().filename());
  }
}

// The total number of lines of the program's C++ sources and headers in @p dir.
long source_lines(const fs::path& dir) {
  long n = 0;
  for (const char* f : {"main.cpp", "physics.cpp", "physics.h", "io.cpp", "io.h", "kernels.h"})
    n += count_lines(read_text(dir / f));
  return n;
}

}  // namespace

TEST_CASE(
    "e2e legacy: a multi-file program composes with a three-line change and prints the same") {
  const fs::path legacy = e2e::source_dir() / "test" / "e2e" / "legacy";
  const fs::path work = e2e::fresh_work_dir("legacy");
  const std::string args = "10007 6";

  // The program as it was: built with g++ alone, including its own kernels.cpp.
  const fs::path plain = work / "plain";
  copy_program(legacy, plain);
  e2e::Run plain_build =
      e2e::run("cd " + plain.string() +
               " && g++ -std=c++17 -O2 -Wall -Wextra -Wshadow -Werror main.cpp physics.cpp "
               "io.cpp kernels.cpp -o particles");
  INFO(plain_build.output);
  REQUIRE(plain_build.exit_code == 0);
  e2e::Run expected = e2e::run((plain / "particles").string() + " " + args);
  REQUIRE(expected.exit_code == 0);
  REQUIRE_THAT(expected.output, Catch::Contains("final: 10007 particles"));

  // The three-line change. peppher.h goes into the header that declares the functions the
  // components now provide, which every file calling them (main.cpp too) includes.
  const fs::path composed = work / "composed";
  copy_program(legacy, composed);
  const long lines_before = source_lines(composed);
  write_text(composed / "kernels.h",
             "#include \"peppher.h\"\n" + read_text(composed / "kernels.h"));
  insert_line(composed / "main.cpp", "int main(int argc, char** argv) {", "  PEPPHER_INITIALIZE();",
              true);
  insert_line(composed / "main.cpp", "  return 0;", "  PEPPHER_SHUTDOWN();", false);
  CHECK(source_lines(composed) == lines_before + 3);
  // The legacy definitions are no longer part of the program (main.xml never lists them).
  fs::remove(composed / "kernels.cpp");
  // main.xml names the components relative to its place in the source tree.
  std::string main_xml = read_text(composed / "main.xml");
  const std::string rel = "xmlFile=\"../../../components/";
  for (size_t at; (at = main_xml.find(rel)) != std::string::npos;)
    main_xml.replace(at, rel.size(),
                     "xmlFile=\"" + (e2e::source_dir() / "components").string() + "/");
  write_text(composed / "main.xml", main_xml);

  e2e::Run composed_run = e2e::compose(composed / "main.xml", composed);
  INFO(composed_run.output);
  REQUIRE(composed_run.exit_code == 0);
  e2e::Run built = e2e::make(composed);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);

  // Runs the composed program with stdout into out.txt; returns stderr (the report).
  auto run_composed = [&](const std::string& env, const std::string& label) {
    const fs::path out = composed / ("out_" + label + ".txt");
    e2e::Run r = e2e::run(
        "sh -c '" + (composed / "particles").string() + " " + args + " > " + out.string() + "'",
        "PEPPHER_REPORT=1 " + env);
    INFO(label << ":\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK(read_text(out) == expected.output);
    return r.output;
  };
  // 7 vector_scale calls (one in main, one per step) and 6 axpy calls.
  {
    std::string report = run_composed("STARPU_NCPU=1 STARPU_NOPENCL=1", "cpu_opencl");
    CHECK(e2e::report_count(report, "axpy_cpu", "CPU") +
              e2e::report_count(report, "axpy_opencl", "OpenCL") ==
          6);
    CHECK(e2e::report_count(report, "vector_scale_cpu", "CPU") +
              e2e::report_count(report, "vector_scale_opencl", "OpenCL") ==
          7);
  }
  {
    std::string report = run_composed("STARPU_NCPU=1 STARPU_NOPENCL=0", "cpu");
    CHECK(e2e::report_count(report, "axpy_cpu", "CPU") == 6);
    CHECK(e2e::report_count(report, "vector_scale_cpu", "CPU") == 7);
  }
  {
    std::string report = run_composed("STARPU_NCPU=0 STARPU_NOPENCL=1", "opencl");
    CHECK(e2e::report_count(report, "axpy_opencl", "OpenCL") == 6);
    CHECK(e2e::report_count(report, "vector_scale_opencl", "OpenCL") == 7);
  }
}
