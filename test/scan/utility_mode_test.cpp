// Utility mode end to end in-process: files next to the header or in -o, kept files and
// --force, --functions, -I / -D / -- flags / -p compile_commands.json, parse errors at
// their exact location with nothing written, -v timings, and the 100-function speed goal.
#include "compose/utility/utility_mode.h"

#include <chrono>

#include "compose/driver.h"
#include "peppher_catch.h"
#include "scan_test_util.h"

using namespace peppher;
using namespace peppher::scan_test;

namespace {

struct Run {
  int code = 0;
  std::string out;
  std::string err;
};

Run run_utility(utility::UtilityOptions options) {
  std::ostringstream out, err;
  diag::Diagnostics diag(err);
  Run r;
  r.code = utility::run_utility_mode(options, diag, out);
  r.out = out.str();
  r.err = err.str();
  return r;
}

utility::UtilityOptions options_for(const fs::path& header) {
  utility::UtilityOptions o;
  o.headers = {header.string()};
  return o;
}

const char* const kSimple =
    "void scale(float *x, int n, float f);\nvoid add(const float *a, float *b, int n);\n";

}  // namespace

TEST_CASE("utility mode writes the interface and four variants next to the header") {
  TempDir dir;
  write_file(dir.path() / "simple.h", kSimple);
  Run r = run_utility(options_for(dir.path() / "simple.h"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.empty());
  std::set<std::string> expected = {"simple.h", "main.xml"};
  for (const char* name : {"scale", "add"}) {
    std::string n = name;
    expected.insert(n + ".xml");
    for (const char* b : {"_cpu.xml", "_cpu.cpp", "_openmp.xml", "_openmp.cpp", "_opencl.xml",
                          "_opencl.cl", "_cuda.xml", "_cuda.cu"}) {
      expected.insert(n + "/" + n + b);
    }
  }
  CHECK(files_under(dir.path()) == expected);
  CHECK(read_file(dir.path() / "scale/scale_cpu.cpp").find("#include \"../simple.h\"") !=
        std::string::npos);
  // main.xml requires both, so `compose -check main.xml` works at once.
  const std::string main_xml = read_file(dir.path() / "main.xml");
  CHECK(main_xml.find("<peppher:requiredInterface name=\"scale\" xmlFile=\"scale.xml\"/>\n"
                      "      <peppher:requiredInterface name=\"add\" xmlFile=\"add.xml\"/>") !=
        std::string::npos);
  CHECK(main_xml.find("from simple.h.") != std::string::npos);

  // The header named twice: each interface is required once.
  utility::UtilityOptions twice = options_for(dir.path() / "simple.h");
  twice.headers.push_back(twice.headers.front());
  twice.output_dir = (dir.path() / "twice").string();
  REQUIRE(run_utility(twice).code == 0);
  const std::string twice_xml = read_file(dir.path() / "twice/main.xml");
  CHECK(twice_xml.find("name=\"scale\"") == twice_xml.rfind("name=\"scale\""));
}

TEST_CASE("main.xml says how a generic interface gets its types") {
  TempDir dir;
  write_file(dir.path() / "t.h", "template <typename T> void fill(T *x, int n, T v);\n");
  REQUIRE(run_utility(options_for(dir.path() / "t.h")).code == 0);
  CHECK(read_file(dir.path() / "main.xml")
            .find("      <!-- fill is generic: compose instantiates it for the types your program "
                  "calls it with, or list them: instantiate=\"float,double\" -->\n"
                  "      <peppher:requiredInterface name=\"fill\" xmlFile=\"fill.xml\"/>") !=
        std::string::npos);
}

TEST_CASE("existing files are kept and reported; --force overwrites them") {
  TempDir dir;
  write_file(dir.path() / "simple.h", kSimple);
  REQUIRE(run_utility(options_for(dir.path() / "simple.h")).code == 0);
  const fs::path body = dir.path() / "scale/scale_cpu.cpp";
  write_file(body, "// my code\n");

  Run again = run_utility(options_for(dir.path() / "simple.h"));
  CHECK(again.code == 0);
  CHECK(again.out.find("kept existing " + body.string() + " (--force overwrites it)") !=
        std::string::npos);
  CHECK(read_file(body) == "// my code\n");

  fs::remove(dir.path() / "add.xml");
  Run partial = run_utility(options_for(dir.path() / "simple.h"));
  CHECK(partial.out.find("add.xml") == std::string::npos);  // recreated, not kept
  CHECK(fs::exists(dir.path() / "add.xml"));

  utility::UtilityOptions forced = options_for(dir.path() / "simple.h");
  forced.force = true;
  Run f = run_utility(forced);
  CHECK(f.code == 0);
  CHECK(f.out.empty());
  CHECK(read_file(body).find("void scale_cpu(float *x, int n, float f)") != std::string::npos);
}

TEST_CASE("-o writes into the given folder, with the header included by a relative path") {
  TempDir dir;
  write_file(dir.path() / "src/simple.h", kSimple);
  utility::UtilityOptions o = options_for(dir.path() / "src/simple.h");
  o.output_dir = (dir.path() / "out/components").string();
  REQUIRE(run_utility(o).code == 0);
  CHECK(fs::exists(dir.path() / "out/components/scale.xml"));
  CHECK_FALSE(fs::exists(dir.path() / "src/scale.xml"));
  CHECK(read_file(dir.path() / "out/components/scale/scale_cuda.cu")
            .find("#include \"../../../src/simple.h\"") != std::string::npos);
}

TEST_CASE("a parse error is reported at its location, exit 1, nothing written") {
  TempDir dir;
  write_file(dir.path() / "good.h", kSimple);
  write_file(dir.path() / "bad.h", "void ok(float *x, int n);\nvoid f(undeclared_t *x, int n);\n");
  utility::UtilityOptions o = options_for(dir.path() / "good.h");
  o.headers.push_back((dir.path() / "bad.h").string());
  Run r = run_utility(o);
  CHECK(r.code == 1);
  CHECK(r.err ==
        (dir.path() / "bad.h").string() + ":2:8: error: unknown type name 'undeclared_t'\n");
  CHECK(files_under(dir.path()) == std::set<std::string>{"bad.h", "good.h"});
}

TEST_CASE("a missing header is an error") {
  TempDir dir;
  Run r = run_utility(options_for(dir.path() / "nope.h"));
  CHECK(r.code == 1);
  CHECK(r.err == "compose: error: cannot read header '" + (dir.path() / "nope.h").string() + "'\n");
}

TEST_CASE("--functions picks components; an unknown name is an error with a suggestion") {
  TempDir dir;
  write_file(dir.path() / "simple.h", kSimple);
  utility::UtilityOptions o = options_for(dir.path() / "simple.h");
  o.functions = {"add"};
  REQUIRE(run_utility(o).code == 0);
  CHECK(fs::exists(dir.path() / "add.xml"));
  CHECK_FALSE(fs::exists(dir.path() / "scale.xml"));

  o.functions = {"scael"};
  Run r = run_utility(o);
  CHECK(r.code == 1);
  CHECK(r.err ==
        "compose: error: --functions: no function named 'scael' in the scanned headers; "
        "did you mean 'scale'?\n");
}

TEST_CASE("a variadic function is skipped with a warning, or an error when asked for") {
  TempDir dir;
  write_file(dir.path() / "v.h",
             "void ok(float *x, int n);\nvoid log_printf(const char *fmt, ...);\n");
  Run all = run_utility(options_for(dir.path() / "v.h"));
  CHECK(all.code == 0);
  const std::string where = (dir.path() / "v.h").string() + ":2:6: ";
  const std::string why =
      "function 'log_printf' is not turned into a component: it is variadic "
      "('log_printf(const char *, ...)'); a component has a fixed parameter list\n";
  CHECK(all.err == where + "warning: " + why);
  CHECK_FALSE(fs::exists(dir.path() / "log_printf.xml"));

  utility::UtilityOptions o = options_for(dir.path() / "v.h");
  o.functions = {"log_printf"};
  o.force = true;
  Run asked = run_utility(o);
  CHECK(asked.code == 1);
  CHECK(asked.err == where + "error: " + why);
}

TEST_CASE("-I and -D reach the parser and the skeletons' compiler flags") {
  TempDir dir;
  write_file(dir.path() / "inc/types.h", "typedef float real;\n");
  write_file(dir.path() / "api.h",
             "#include \"types.h\"\nvoid base(real *x, int n);\n"
             "#ifdef WITH_EXTRA\nvoid extra(real *x, int n);\n#endif\n");
  utility::UtilityOptions o = options_for(dir.path() / "api.h");
  Run no_include = run_utility(o);
  CHECK(no_include.code == 1);
  CHECK(no_include.err.find("api.h:1:10: error: 'types.h' file not found (give its folder with "
                            "-I DIR, or -p DIR for a compile_commands.json)\n") !=
        std::string::npos);

  o.clang_args = {"-I" + (dir.path() / "inc").string(), "-DWITH_EXTRA"};
  Run r = run_utility(o);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(fs::exists(dir.path() / "extra.xml"));
  CHECK(read_file(dir.path() / "base/base_cpu.xml")
            .find("<peppher:flags>-O2 -I" + (dir.path() / "inc").string() +
                  " -DWITH_EXTRA</peppher:flags>") != std::string::npos);
}

TEST_CASE("a C header's restrict parses as C++, and its skeletons define it") {
  TempDir dir;
  write_file(dir.path() / "c.h", "void copy(const float *restrict a, float *restrict b, int n);\n");
  Run r = run_utility(options_for(dir.path() / "c.h"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(read_file(dir.path() / "copy.xml").find("type=\"const float *__restrict\"") !=
        std::string::npos);
  for (const char* source : {"copy/copy_cpu.cpp", "copy/copy_openmp.cpp", "copy/copy_cuda.cu"}) {
    INFO(source);
    CHECK(read_file(dir.path() / source)
              .find("#define restrict __restrict  // the header is C: C++ spells C99's restrict "
                    "__restrict\n#include \"../c.h\"\n") != std::string::npos);
  }
  // A header without C's restrict gets no such line.
  write_file(dir.path() / "cpp.h", "void other(const float *__restrict a, int n);\n");
  REQUIRE(run_utility(options_for(dir.path() / "cpp.h")).code == 0);
  CHECK(read_file(dir.path() / "other/other_cpu.cpp").find("#define restrict") ==
        std::string::npos);
}

TEST_CASE("flags after -- reach the parser: a C header C++ cannot parse") {
  TempDir dir;
  write_file(dir.path() / "c.h", "void grow(float *new, int n);\n");
  utility::UtilityOptions o = options_for(dir.path() / "c.h");
  CHECK(run_utility(o).code == 1);  // `new` is a C++ keyword
  o.clang_args = {"-x", "c-header", "-std=c11"};
  Run r = run_utility(o);
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(read_file(dir.path() / "grow.xml").find("name=\"new\" type=\"float *\"") !=
        std::string::npos);
}

TEST_CASE("-p takes the flags from compile_commands.json") {
  TempDir dir;
  write_file(dir.path() / "inc/types.h", "typedef double real;\n");
  write_file(dir.path() / "lib.h",
             "#include \"types.h\"\n#ifdef FROM_DB\nvoid db(real *x, int n);\n#endif\n");
  write_file(dir.path() / "lib.cpp", "#include \"lib.h\"\n");
  write_file(dir.path() / "compile_commands.json",
             "[{\"directory\": \"" + dir.path().string() +
                 "\", \"file\": \"lib.cpp\", "
                 "\"command\": \"g++ -std=c++17 -DFROM_DB -Iinc -c lib.cpp -o lib.o\"}]\n");
  utility::UtilityOptions o = options_for(dir.path() / "lib.h");
  o.compile_commands_dir = dir.path().string();
  Run r = run_utility(o);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(read_file(dir.path() / "db.xml").find("type=\"real *\"") != std::string::npos);

  o.compile_commands_dir = (dir.path() / "inc").string();
  Run missing = run_utility(o);
  CHECK(missing.code == 1);
  CHECK(missing.err.find("compose: error: -p: cannot load compile_commands.json from '") == 0);
}

TEST_CASE("-v prints the time per header of a 100-function header") {
  TempDir dir;
  std::string text = "#include <stddef.h>\n";
  for (int i = 0; i < 100; ++i) {
    text += "/// Function " + std::to_string(i) + ".\nvoid f" + std::to_string(i) +
            "(const float *x, float *__restrict y, size_t n, float alpha);\n";
  }
  write_file(dir.path() / "big.h", text);
  utility::UtilityOptions o = options_for(dir.path() / "big.h");
  o.verbosity = 1;
  const auto start = std::chrono::steady_clock::now();
  Run r = run_utility(o);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find((dir.path() / "big.h").string() + ": 100 functions, 100 components in ") == 0);
  CHECK(r.out.find("wrote 901 files") != std::string::npos);
  // Timing is reported, never asserted (shared, noisy machines; sanitizer builds).
  WARN("100-function header: " << seconds << " s (" << r.out.substr(0, r.out.find('\n')) << ")");
}

TEST_CASE("container and reference parameters: no warnings, kernels get buffers and extents") {
  TempDir dir;
  write_file(
      dir.path() / "c.h",
      "namespace peppher { template <class T> class Vector; template <class T> class Matrix; }\n"
      "void step(const peppher::Matrix<int>& wall, peppher::Vector<float>& dst, int row);\n"
      "void total(const float* x, int n, float& sum, const double& scale);\n");
  Run r = run_utility(options_for(dir.path() / "c.h"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const std::string cl = read_file(dir.path() / "step/step_opencl.cl");
  CHECK(cl.find("__global const int *wall, int wall_rows, int wall_cols, int wall_ld, "
                "__global float *dst, int dst_size, int row") != std::string::npos);
  const std::string cu = read_file(dir.path() / "step/step_cuda.cu");
  CHECK(cu.find("\n      wall.data(), dst.data(), row);") != std::string::npos);
  CHECK(cu.find("static_cast<long long>(dst.size())") != std::string::npos);
  const std::string total_cu = read_file(dir.path() / "total/total_cuda.cu");
  CHECK(total_cu.find("\n      x, n, &sum, scale);") != std::string::npos);
  const std::string total_xml = read_file(dir.path() / "total.xml");
  CHECK(total_xml.find("name=\"sum\" type=\"float &amp;\" accessMode=\"readwrite\"") !=
        std::string::npos);
  CHECK(total_xml.find("name=\"scale\" type=\"const double &amp;\" accessMode=\"read\"") !=
        std::string::npos);
}

TEST_CASE("lengths several parameters could give are left to the user; --check reports each") {
  // k-means as a user's header has it: feature holds npoints*nfeatures floats, clusters
  // nclusters*nfeatures, membership npoints. No name says which: no guess is written.
  TempDir dir;
  write_file(dir.path() / "kmeans.h",
             "void kmeans_assign(const float *feature, int npoints, int nfeatures,\n"
             "                   const float *clusters, int nclusters, int *membership);\n");
  Run r = run_utility(options_for(dir.path() / "kmeans.h"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  const std::string xml = read_file(dir.path() / "kmeans_assign.xml");
  CHECK(xml.find("<!-- clusters: accessMode read (const pointer); numElements TODO_numElements "
                 "(more than one parameter could give the length: npoints, nfeatures, "
                 "nclusters; write the one that does, or their product for a flattened "
                 "array) -->") != std::string::npos);
  CHECK(xml.find("numElements=\"npoints\"") == std::string::npos);
  CHECK(xml.find("numElements=\"nclusters\"") == std::string::npos);

  write_file(dir.path() / "main.xml",
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
             "  <peppher:implementation name=\"main\">\n"
             "    <peppher:sourceFiles>\n"
             "      <peppher:sourceFile><peppher:compilation><peppher:compiler type=\"link\">"
             "<peppher:name>g++</peppher:name><peppher:output>app</peppher:output>"
             "</peppher:compiler></peppher:compilation></peppher:sourceFile>\n"
             "    </peppher:sourceFiles>\n"
             "    <peppher:requiredInterfaces>\n"
             "      <peppher:requiredInterface name=\"kmeans_assign\" "
             "xmlFile=\"kmeans_assign.xml\"/>\n"
             "    </peppher:requiredInterfaces>\n"
             "    <peppher:targetPlatform name=\"CPU\"/>\n"
             "  </peppher:implementation>\n"
             "</peppher:component>\n");
  std::ostringstream out, err;
  CHECK(run_compose({(dir.path() / "main.xml").string(), "--check"}, out, err) == 1);
  const std::string at = (dir.path() / "kmeans_assign.xml").string();
  CHECK(err.str() == at +
                         ":9:93: error: numElements of parameter 'feature' names unknown "
                         "parameter 'TODO_numElements'\n" +
                         at +
                         ":15:94: error: numElements of parameter 'clusters' names unknown "
                         "parameter 'TODO_numElements'\n" +
                         at +
                         ":19:93: error: numElements of parameter 'membership' names unknown "
                         "parameter 'TODO_numElements'\n");
}

TEST_CASE("a pointer named like a matrix beside one length is left to the user") {
  // PolyBench's MVT behind a flat header: the vectors hold n doubles, the matrix A n*n.
  TempDir dir;
  write_file(dir.path() / "mvt.h",
             "void kernel_mvt(int n, double *x1, const double *y_1, const double *A,\n"
             "                const float *grid_in);\n");
  Run r = run_utility(options_for(dir.path() / "mvt.h"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string xml = read_file(dir.path() / "kernel_mvt.xml");
  CHECK(xml.find("name=\"x1\" type=\"double *\" accessMode=\"readwrite\" numElements=\"n\"") !=
        std::string::npos);
  CHECK(xml.find("name=\"y_1\" type=\"const double *\" accessMode=\"read\" numElements=\"n\"") !=
        std::string::npos);
  CHECK(xml.find("name=\"A\" type=\"const double *\" accessMode=\"read\" "
                 "numElements=\"TODO_numElements\"") != std::string::npos);
  CHECK(xml.find("'A' is named like a matrix: flattened, it holds rows*cols elements (n*n for "
                 "a square one), not n; write the length") != std::string::npos);
  CHECK(xml.find("name=\"grid_in\" type=\"const float *\" accessMode=\"read\" "
                 "numElements=\"TODO_numElements\"") != std::string::npos);
}

TEST_CASE("a pointer read with a BLAS stride gets the strided length; compose accepts it") {
  // cblas as a user's header has it: x holds 1+(n-1)*|incx| floats, not n.
  TempDir dir;
  write_file(dir.path() / "blas.h",
             "void my_saxpy(int n, float alpha, const float *x, int incx, float *y, int incy);\n"
             "void my_sgemv(int m, int n, const float *a, int lda, const float *x, int incx,\n"
             "              float *y, int incy);\n"
             "void scale_every(float *v, int n, int v_stride, float f);\n"
             "void copy_every(const float *src, int stride_src, float *dst, int n);\n");
  Run r = run_utility(options_for(dir.path() / "blas.h"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string saxpy = read_file(dir.path() / "my_saxpy.xml");
  CHECK(saxpy.find("name=\"x\" type=\"const float *\" accessMode=\"read\" "
                   "numElements=\"(n&gt;0)*(1+(n-1)*incx*((incx&gt;0)-(incx&lt;0)))\"") !=
        std::string::npos);
  CHECK(saxpy.find("numElements=\"(n&gt;0)*(1+(n-1)*incy*((incy&gt;0)-(incy&lt;0)))\"") !=
        std::string::npos);
  CHECK(saxpy.find("'x' is read with stride 'incx' (BLAS-style): 1+(n-1)*|incx| elements") !=
        std::string::npos);
  // Other stride spellings: x_stride, stride_x (the strided pointer's own name in them).
  CHECK(
      read_file(dir.path() / "scale_every.xml")
          .find("numElements=\"(n&gt;0)*(1+(n-1)*v_stride*((v_stride&gt;0)-(v_stride&lt;0)))\"") !=
      std::string::npos);
  CHECK(
      read_file(dir.path() / "copy_every.xml")
          .find("numElements=\"(n&gt;0)*(1+(n-1)*stride_src*((stride_src&gt;0)-(stride_src&lt;0)))"
                "\"") != std::string::npos);
  // Two candidate lengths (m, n): still the user's decision, with the strided form to write.
  const std::string sgemv = read_file(dir.path() / "my_sgemv.xml");
  CHECK(sgemv.find("name=\"x\" type=\"const float *\" accessMode=\"read\" "
                   "numElements=\"TODO_numElements\"") != std::string::npos);
  CHECK(sgemv.find("'x' is read with stride 'incx': for n elements write "
                   "(n>0)*(1+(n-1)*incx*((incx>0)-(incx<0)))") != std::string::npos);

  write_file(dir.path() / "main.xml",
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
             "  <peppher:implementation name=\"main\">\n"
             "    <peppher:requiredInterfaces>\n"
             "      <peppher:requiredInterface name=\"my_saxpy\" xmlFile=\"my_saxpy.xml\"/>\n"
             "    </peppher:requiredInterfaces>\n"
             "  </peppher:implementation>\n"
             "</peppher:component>\n");
  // compose accepts the lengths; what it refuses is the variants' bodies, still as generated.
  std::ostringstream out, err;
  const int code = run_compose({(dir.path() / "main.xml").string(), "--check"}, out, err);
  INFO(err.str());
  CHECK(code == 1);
  std::istringstream lines(err.str());
  int errors = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(": error: ") == std::string::npos) continue;
    ++errors;
    CHECK(line.find("is still the skeleton compose -generateCompFiles wrote") != std::string::npos);
  }
  CHECK(errors == 4);  // the CPU, OpenMP, OpenCL and CUDA skeletons
}

TEST_CASE(
    "--light: a type template is a generic component; <peppher/runtime.h> brings the "
    "annotations") {
  TempDir dir;
  write_file(dir.path() / "inc/peppher/runtime.h",
             "#pragma once\nnamespace peppher { template <class T> class Vector; }\n");
  write_file(dir.path() / "g.h",
             "#pragma once\n#include <peppher/runtime.h>\n"
             "template <typename T>\nvoid tfill(T* out, int n, T value);\n"
             "void vcopy(const peppher::Vector<float>& in, peppher::Vector<float>& out);\n"
             "template <typename T, int N>\nvoid fixed(T* out);\n");
  utility::UtilityOptions o = options_for(dir.path() / "g.h");
  o.light = true;
  o.output_dir = (dir.path() / "gen").string();
  o.system_include_dirs = {(dir.path() / "inc").string()};
  Run r = run_utility(o);
  INFO(r.err);
  REQUIRE(r.code == 0);
  // A template with a non-type parameter: a warning at its name, no skeleton.
  CHECK(r.err.find("g.h:7:6: warning: 'fixed' gets no light-form skeleton: its template "
                   "parameter 'N' is not a type (a generic light-form interface takes type "
                   "parameters only)") != std::string::npos);
  const std::set<std::string> expected = {"g.h",
                                          "tfill/tfill_cpu.cpp",
                                          "tfill/tfill_openmp.cpp",
                                          "tfill/tfill_opencl.cl",
                                          "tfill/tfill_cuda.cu",
                                          "vcopy/vcopy_cpu.cpp",
                                          "vcopy/vcopy_openmp.cpp",
                                          "vcopy/vcopy_opencl.cl",
                                          "vcopy/vcopy_cuda.cu"};
  CHECK(files_under(dir.path() / "gen") == expected);
  // The header includes <peppher/runtime.h>, which brings the annotations: no second include.
  CHECK(read_file(dir.path() / "gen/g.h") ==
        "#pragma once\n#include <peppher/runtime.h>\n"
        "template <typename T>\nvoid tfill(T* out PEPPHER_WRITE PEPPHER_SIZE(n), int n, "
        "T value);\n"
        "void vcopy(const peppher::Vector<float>& in, peppher::Vector<float>& out "
        "PEPPHER_WRITE);\n"
        "template <typename T, int N>\nvoid fixed(T* out);\n");
  // The generic one's variants are function templates; its kernel's T a macro (-DT=...).
  CHECK(read_file(dir.path() / "gen/tfill/tfill_cpu.cpp")
            .find("template <typename T>\nvoid tfill_cpu(T *out, int n, T value) {") !=
        std::string::npos);
  CHECK(read_file(dir.path() / "gen/tfill/tfill_cuda.cu")
            .find("template <typename T>\nvoid tfill_cuda(T *out, int n, T value) {") !=
        std::string::npos);
  CHECK(read_file(dir.path() / "gen/tfill/tfill_opencl.cl").find("#ifndef T\n#define T float") !=
        std::string::npos);
}
