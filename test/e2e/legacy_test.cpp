// The legacy-program test: test/e2e/legacy/, a multi-file program unaware of PEPPHER, built
// plainly with g++ and composed with only three added lines (include, two macros; its own
// axpy/vector_scale left to the components) must print the same output.
#include <fstream>
#include <sstream>

#include "e2e_support.h"
#include "peppher_catch.h"

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

// The three-line change of a legacy program in @p composed: peppher.h goes into the header
// that declares the functions the components now provide (which every caller includes),
// PEPPHER_INITIALIZE() after main's first line, PEPPHER_SHUTDOWN() before its `return 0;`.
// The legacy definitions (@p legacy_kernels) leave the program; main.xml names the
// components by absolute path.
void make_composed(const fs::path& composed, const std::string& main_file,
                   const std::string& main_line, const std::string& legacy_kernels) {
  write_text(composed / "kernels.h",
             "#include \"peppher.h\"\n" + read_text(composed / "kernels.h"));
  insert_line(composed / main_file, main_line, "  PEPPHER_INITIALIZE();", true);
  insert_line(composed / main_file, "  return 0;", "  PEPPHER_SHUTDOWN();", false);
  fs::remove(composed / legacy_kernels);
  std::string main_xml = read_text(composed / "main.xml");
  const std::string rel = "xmlFile=\"../../../components/";
  for (size_t at; (at = main_xml.find(rel)) != std::string::npos;)
    main_xml.replace(at, rel.size(),
                     "xmlFile=\"" + (e2e::source_dir() / "components").string() + "/");
  write_text(composed / "main.xml", main_xml);
}

// Replaces every @p from in @p file by @p to.
void replace_all(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = read_text(file);
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  write_text(file, text);
}

// Composes and builds @p composed (REQUIREs success).
void compose_and_make(const fs::path& composed) {
  e2e::Run composed_run = e2e::compose(composed / "main.xml", composed);
  INFO(composed_run.output);
  REQUIRE(composed_run.exit_code == 0);
  e2e::Run built = e2e::make(composed);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
}

// Runs @p exe with stdout into a file next to it; checks it equals @p expected; returns
// stderr (the report).
std::string run_and_compare(const fs::path& exe, const std::string& args, const std::string& env,
                            const std::string& expected, const std::string& label) {
  const fs::path out = exe.parent_path() / ("out_" + label + ".txt");
  e2e::Run r = e2e::run("sh -c '" + exe.string() + " " + args + " > " + out.string() + "'",
                        "PEPPHER_REPORT=1 " + env);
  INFO(label << ":\n" << r.output);
  CHECK(r.exit_code == 0);
  CHECK(read_text(out) == expected);
  return r.output;
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

  const fs::path composed = work / "composed";
  copy_program(legacy, composed);
  const long lines_before = source_lines(composed);
  make_composed(composed, "main.cpp", "int main(int argc, char** argv) {", "kernels.cpp");
  CHECK(source_lines(composed) == lines_before + 3);
  compose_and_make(composed);
  // kernels.h declares them C++ functions: the wrappers keep C++ linkage.
  CHECK_THAT(read_text(composed / "axpy_wrapper.h"), !Catch::Contains("extern \"C\""));

  const fs::path exe = composed / "particles";
  // 7 vector_scale calls (one in main, one per step) and 6 axpy calls.
  {
    std::string report =
        run_and_compare(exe, args, "STARPU_NCPU=1 STARPU_NOPENCL=1", expected.output, "cpu_opencl");
    CHECK(e2e::report_count(report, "axpy_cpu", "CPU") +
              e2e::report_count(report, "axpy_opencl", "OpenCL") ==
          6);
    CHECK(e2e::report_count(report, "vector_scale_cpu", "CPU") +
              e2e::report_count(report, "vector_scale_opencl", "OpenCL") ==
          7);
  }
  {
    std::string report =
        run_and_compare(exe, args, "STARPU_NCPU=1 STARPU_NOPENCL=0", expected.output, "cpu");
    CHECK(e2e::report_count(report, "axpy_cpu", "CPU") == 6);
    CHECK(e2e::report_count(report, "vector_scale_cpu", "CPU") == 7);
  }
  {
    std::string report =
        run_and_compare(exe, args, "STARPU_NCPU=0 STARPU_NOPENCL=1", expected.output, "opencl");
    CHECK(e2e::report_count(report, "axpy_opencl", "OpenCL") == 6);
    CHECK(e2e::report_count(report, "vector_scale_opencl", "OpenCL") == 7);
  }
}

TEST_CASE(
    "e2e legacy: the same program in C++11 and C++14 (peppher.h needs no C++17 for "
    "raw-pointer interfaces)") {
  const fs::path legacy = e2e::source_dir() / "test" / "e2e" / "legacy";
  const std::string args = "4099 5";
  for (const std::string standard : {"c++11", "c++14"}) {
    INFO("-std=" << standard);
    const fs::path work = e2e::fresh_work_dir("legacy_" + standard);
    const fs::path plain = work / "plain";
    copy_program(legacy, plain);
    e2e::Run plain_build = e2e::run("cd " + plain.string() + " && g++ -std=" + standard +
                                    " -O2 -Wall -Wextra -Wshadow -Werror main.cpp physics.cpp "
                                    "io.cpp kernels.cpp -o particles");
    INFO(plain_build.output);
    REQUIRE(plain_build.exit_code == 0);
    e2e::Run expected = e2e::run((plain / "particles").string() + " " + args);
    REQUIRE(expected.exit_code == 0);

    const fs::path composed = work / "composed";
    copy_program(legacy, composed);
    make_composed(composed, "main.cpp", "int main(int argc, char** argv) {", "kernels.cpp");
    replace_all(composed / "main.xml", "-std=c++17", "-std=" + standard);
    compose_and_make(composed);
    // The program's own sources really were compiled as C++11/14.
    CHECK_THAT(read_text(composed / "Makefile"),
               Catch::Contains("g++ -O2 -std=" + standard + " $(COMMON_FLAGS) -c main.cpp"));
    std::string report = run_and_compare(composed / "particles", args,
                                         "STARPU_NCPU=1 STARPU_NOPENCL=1", expected.output, "run");
    CHECK(e2e::report_count(report, "vector_scale_cpu", "CPU") +
              e2e::report_count(report, "vector_scale_opencl", "OpenCL") ==
          6);
  }
}

TEST_CASE("e2e legacy: a C99 program calls the components through C-linkage entry wrappers") {
  const fs::path legacy = e2e::source_dir() / "test" / "e2e" / "legacy_c";
  const fs::path work = e2e::fresh_work_dir("legacy_c");
  const std::string args = "10007 6";
  const fs::path plain = work / "plain";
  copy_program(legacy, plain);
  e2e::Run plain_build = e2e::run("cd " + plain.string() +
                                  " && gcc -std=c99 -O2 -Wall -Wextra -Wshadow -Werror main.c "
                                  "kernels.c -o particles_c");
  INFO(plain_build.output);
  REQUIRE(plain_build.exit_code == 0);
  e2e::Run expected = e2e::run((plain / "particles_c").string() + " " + args);
  REQUIRE(expected.exit_code == 0);
  REQUIRE_THAT(expected.output, Catch::Contains("final: 10007 particles"));

  const fs::path composed = work / "composed";
  copy_program(legacy, composed);
  make_composed(composed, "main.c", "int main(int argc, char** argv) {", "kernels.c");
  compose_and_make(composed);
  const std::string makefile = read_text(composed / "Makefile");
  CHECK_THAT(makefile, Catch::Contains("gcc -O2 -std=c99 $(COMMON_FLAGS) -c main.c"));
  CHECK_THAT(read_text(composed / "vector_scale_wrapper.h"), Catch::Contains("extern \"C\" {"));
  const fs::path exe = composed / "particles_c";
  {
    std::string report =
        run_and_compare(exe, args, "STARPU_NCPU=1 STARPU_NOPENCL=1", expected.output, "cpu_opencl");
    CHECK(e2e::report_count(report, "axpy_cpu", "CPU") +
              e2e::report_count(report, "axpy_opencl", "OpenCL") ==
          6);
  }
  {
    std::string report =
        run_and_compare(exe, args, "STARPU_NCPU=0 STARPU_NOPENCL=1", expected.output, "opencl");
    CHECK(e2e::report_count(report, "vector_scale_opencl", "OpenCL") == 7);
  }
  // A failure reaches a C caller as a message and exit status 1 (no exception can cross
  // into C): without any worker, StarPU cannot start.
  e2e::Run failing = e2e::run(exe.string() + " 100 1", "STARPU_NCPU=0 STARPU_NOPENCL=0");
  CHECK(failing.exit_code == 1);
  CHECK_THAT(failing.output, Catch::Contains("peppher: "));
}

TEST_CASE("e2e legacy: the C99 program composed with --mpi compiles its C source with mpicc") {
  const fs::path legacy = e2e::source_dir() / "test" / "e2e" / "legacy_c";
  const fs::path composed = e2e::fresh_work_dir("legacy_c_mpi");
  copy_program(legacy, composed);
  make_composed(composed, "main.c", "int main(int argc, char** argv) {", "kernels.c");
  e2e::Run composed_run = e2e::compose(composed / "main.xml", composed, "--mpi");
  INFO(composed_run.output);
  REQUIRE(composed_run.exit_code == 0);
  // mpicxx would compile main.c as C++ (malloc's void* to float* is an error there).
  CHECK_THAT(read_text(composed / "Makefile"),
             Catch::Contains("\t$(MPICC) -O2 -std=c99 $(COMMON_FLAGS) -c main.c"));
  e2e::Run built = e2e::make(composed);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  // Started without mpirun it is one rank.
  e2e::Run ran =
      e2e::run((composed / "particles_c").string() + " 1001 2", "STARPU_NCPU=1 STARPU_NOPENCL=1");
  INFO(ran.output);
  CHECK(ran.exit_code == 0);
  CHECK_THAT(ran.output, Catch::Contains("final: 1001 particles"));
}

TEST_CASE("e2e legacy: peppher.h says which standard or linkage a file including it lacks") {
  const fs::path work = e2e::fresh_work_dir("legacy_errors");
  auto syntax_check = [&](const fs::path& dir, const std::string& compiler, const std::string& file,
                          const std::string& text) {
    write_text(dir / file, text);
    return e2e::run("cd " + dir.string() + " && " + compiler + " -fsyntax-only -I" +
                    (e2e::source_dir() / "runtime/include").string() + " " +
                    e2e::starpu_include_flags() + " " + file);
  };
  // peppher::Vector interfaces need C++17 in the including file.
  const fs::path containers = work / "containers";
  e2e::Run c = e2e::compose(e2e::cases() / "async/main.xml", containers);
  INFO(c.output);
  REQUIRE(c.exit_code == 0);
  e2e::Run old = syntax_check(containers, "g++ -std=c++14", "old.cpp", "#include \"peppher.h\"\n");
  CHECK(old.exit_code != 0);
  CHECK_THAT(old.output, Catch::Contains("#error \"peppher.h: interface 'scale_vec' takes PEPPHER "
                                         "containers (peppher::Vector, Matrix, Scalar), which "
                                         "need C++17"));
  CHECK(
      syntax_check(containers, "g++ -std=c++17", "new.cpp", "#include \"peppher.h\"\n").exit_code ==
      0);
  // Raw pointers: C++11 is enough; C needs C linkage, which a C++ composition does not give.
  const fs::path raw = work / "raw";
  e2e::Run r = e2e::compose(e2e::cases() / "xpdl/main.xml", raw);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(syntax_check(raw, "g++ -std=c++11 -Wall -Wextra -Werror", "old.cpp",
                     "#include \"peppher.h\"\nint main() { PEPPHER_INITIALIZE(); "
                     "PEPPHER_SHUTDOWN(); }\n")
            .exit_code == 0);
  e2e::Run from_c = syntax_check(raw, "gcc -std=c99", "main.c", "#include \"peppher.h\"\n");
  CHECK(from_c.exit_code != 0);
  CHECK_THAT(from_c.output,
             Catch::Contains("entry wrappers have C++ linkage; to call them from C"));
  // With --c-linkage the same header is C99 (and still C++11).
  const fs::path c_linkage = work / "c_linkage";
  REQUIRE(e2e::compose(e2e::cases() / "xpdl/main.xml", c_linkage, "--c-linkage").exit_code == 0);
  CHECK(syntax_check(c_linkage, "gcc -std=c99 -Wall -Wextra -Werror -pedantic", "main.c",
                     "#include \"peppher.h\"\nint main(void) { float v[2] = {1, 2};\n"
                     "  PEPPHER_INITIALIZE(); vector_scale(v, 2, 2.0f); PEPPHER_SHUTDOWN();\n"
                     "  return 0; }\n")
            .exit_code == 0);
}

TEST_CASE(
    "e2e legacy: descriptors as the original tool's users wrote them compose unchanged "
    "(padded values, any-case platforms, ISO-8859-1, CRLF, BOM, templateTypes alone)") {
  // test/e2e/cases/original_style: the original's skeleton layout with blanks around every
  // value (impPath=" ./vscale/ "), targetPlatform " OpenCL " and "cpu" (a .cpp file gcc
  // compiles, as C++), a generic interface with templateTypes and no kind instantiated for
  // the types main.cpp calls it with (float, int, double through a typedef), main.cpp
  // compiled as C++11, a CUDA variant of its time (-arch=sm_20, cudaThreadSynchronize)
  // that today's nvcc rejects, and the published vector_scale example's link flags,
  // `<peppher:flags> $(LDFLAGS)</peppher:flags>`: make's LDFLAGS, two words here, each
  // reaching the linker (a link map and a symbol only the linker can add).
  const fs::path out = e2e::fresh_work_dir("original_style");
  e2e::Run composed = e2e::compose(e2e::cases() / "original_style/app/main.xml", out);
  INFO(composed.output);
  REQUIRE(composed.exit_code == 0);
  const std::string make = "make -s -j2 -C " + out.string() +
                           " PEPPHER_WARNINGS='-Wall -Wextra -Wshadow -Werror'"
                           " LDFLAGS='-Wl,-Map=original_style.map"
                           " -Wl,--defsym=peppher_ldflags_seen=0x2a'";
  e2e::Run built = e2e::run(make);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  CHECK(fs::is_regular_file(out / "original_style.map"));
  CHECK_THAT(e2e::run("nm " + (out / "original_style").string()).output,
             Catch::Contains("000000000000002a A peppher_ldflags_seen"));
  if (built.output.find("CUDA variants compiled for checking, not linked") != std::string::npos) {
    // Compiled for checking only: its failure is a warning, an error when asked for.
    CHECK_THAT(built.output, Catch::Contains("compose: warning: a CUDA variant does not "
                                             "compile with /usr/local/cuda/bin/nvcc (above); "
                                             "not linked anyway, StarPU has no CUDA support"));
    CHECK(e2e::run(make + " PEPPHER_CUDA_CHECK=strict").exit_code != 0);
  }
  const fs::path exe = out / "original_style";
  for (const char* variant : {"vscale_cpu", "vscale_opencl"}) {
    INFO(variant);
    e2e::Run r = e2e::run_program(
        exe, "10000", std::string(e2e::kCpuAndOpenCl) + " PEPPHER_VARIANT=vscale=" + variant);
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("max=159984,676 OK"));
    CHECK(e2e::report_count(r.output, variant,
                            variant == std::string("vscale_cpu") ? "CPU" : "OpenCL") == 4);
    CHECK(e2e::report_count(r.output, "vmax_cpu", "CPU") == 3);
  }
}

TEST_CASE(
    "e2e legacy: a C++ program whose kernel library is C (its header declares the functions "
    "extern \"C\") composes with the same three lines") {
  // The usual way C libraries reach C++ (cblas.h and the like): the entry wrappers must get
  // C linkage, or peppher.h's declaration conflicts with the header's and the calls would
  // not link to the wrapper's mangled symbols.
  const fs::path legacy = e2e::source_dir() / "test" / "e2e" / "legacy";
  const fs::path work = e2e::fresh_work_dir("legacy_extern_c");
  const std::string args = "3001 4";
  const std::string c_block_open = "#ifdef __cplusplus\nextern \"C\" {\n#endif\n";
  const std::string c_block_close = "#ifdef __cplusplus\n}\n#endif\n";
  auto make_c_library = [&](const fs::path& dir) {
    copy_program(legacy, dir);
    replace_all(dir / "kernels.h", "\n#endif", "\n" + c_block_close + "\n#endif");
    replace_all(dir / "kernels.h", "\nvoid axpy", "\n" + c_block_open + "void axpy");
    fs::rename(dir / "kernels.cpp", dir / "kernels.c");
  };
  const fs::path plain = work / "plain";
  make_c_library(plain);
  e2e::Run plain_build = e2e::run(
      "cd " + plain.string() +
      " && gcc -std=c99 -O2 -Wall -Werror -c kernels.c && g++ -std=c++17 -O2 -Wall -Wextra "
      "-Wshadow -Werror main.cpp physics.cpp io.cpp kernels.o -o particles");
  INFO(plain_build.output);
  REQUIRE(plain_build.exit_code == 0);
  e2e::Run expected = e2e::run((plain / "particles").string() + " " + args);
  REQUIRE(expected.exit_code == 0);

  const fs::path composed = work / "composed";
  make_c_library(composed);
  make_composed(composed, "main.cpp", "int main(int argc, char** argv) {", "kernels.c");
  compose_and_make(composed);
  CHECK_THAT(read_text(composed / "axpy_wrapper.h"), Catch::Contains("extern \"C\" {"));
  std::string report = run_and_compare(composed / "particles", args,
                                       "STARPU_NCPU=1 STARPU_NOPENCL=1", expected.output, "run");
  CHECK(e2e::report_count(report, "axpy_cpu", "CPU") +
            e2e::report_count(report, "axpy_opencl", "OpenCL") ==
        4);
}

TEST_CASE(
    "e2e legacy: utility mode's descriptors for a C header with its own types (a typedef, an "
    "enum) compose and build") {
  // The interface records its header (headerFile), which the wrapper header includes: the
  // wrappers spell the parameters' types as the header does (real_t, enum mode).
  const fs::path from = e2e::cases() / "header_types";
  const fs::path work = e2e::fresh_work_dir("header_types");
  for (const char* f : {"mylib.h", "main.cpp"}) fs::copy_file(from / f, work / f);
  e2e::Run generated =
      e2e::run("cd " + work.string() + " && " PEPPHER_COMPOSE_EXE " -generateCompFiles=mylib.h");
  INFO(generated.output);
  REQUIRE(generated.exit_code == 0);
  CHECK_THAT(read_text(work / "combine.xml"), Catch::Contains("headerFile=\"mylib.h\""));
  fs::copy_file(from / "combine_cpu.cpp", work / "combine" / "combine_cpu.cpp",
                fs::copy_options::overwrite_existing);
  // The user lists the program's source in the generated main.xml.
  replace_all(work / "main.xml", "      <peppher:sourceFile>\n",
              "      <peppher:sourceFile name=\"main.cpp\" language=\"C++\"/>\n"
              "      <peppher:sourceFile>\n");
  e2e::Run composed = e2e::compose(work / "main.xml", work / "out",
                                   "-disableImpls=combine_opencl,combine_cuda,combine_openmp");
  INFO(composed.output);
  REQUIRE(composed.exit_code == 0);
  CHECK_THAT(read_text(work / "out" / "combine_wrapper.h"),
             Catch::Contains("#include \"../mylib.h\""));
  e2e::Run built = e2e::make(work / "out");
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  e2e::Run ran = e2e::run_program(work / "out" / "app", "", "STARPU_NCPU=1 STARPU_NOPENCL=0");
  INFO(ran.output);
  CHECK(ran.exit_code == 0);
  CHECK_THAT(ran.output, Catch::Contains("combine: 0 wrong"));
}
