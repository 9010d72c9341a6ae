// C callers of container interfaces (test/e2e/cases/c_containers): a C99 program passes a
// matrix and a vector as the runtime's C handles (peppher/c_api.h), calls asynchronously on
// CPU and OpenCL workers, reads, writes and releases them; misuse ends it with a message.
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

}  // namespace

TEST_CASE("e2e c containers: a C99 program calls a Matrix and Vector interface asynchronously",
          "[c_containers]") {
  const fs::path out =
      e2e::compose_and_build("c_containers", e2e::cases() / "c_containers/main.xml");
  const fs::path exe = out / "c_containers";
  // The C entry wrapper hands the containers behind the handles to the C++ one, which
  // returns at once (no raw pointer makes it wait).
  const std::string wrapper = read_text(out / "row_axpy_wrapper.cpp");
  CHECK_THAT(wrapper, Catch::Contains("extern \"C\" void row_axpy(peppher_matrix* m, "
                                      "peppher_vector* s, float a) try {"));
  CHECK_THAT(wrapper, Catch::Contains("peppher_task.submit(false);"));
  // peppher.h is also C++17: a C++ file sees both entry wrappers.
  e2e::Run cxx = e2e::run("cd " + out.string() +
                          " && printf '#include \"peppher.h\"\\n' > "
                          "both.cpp && g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I" +
                          (e2e::source_dir() / "runtime/include").string() + " " +
                          e2e::starpu_include_flags() + " both.cpp");
  INFO(cxx.output);
  CHECK(cxx.exit_code == 0);

  for (const char* workers : {e2e::kCpuOnly, e2e::kOpenClOnly, e2e::kCpuAndOpenCl}) {
    e2e::Run r = e2e::run_program(exe, "run 8", workers);
    INFO(workers << "\n" << r.output);
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.output, Catch::Contains("halfway: 0 wrong"));
    CHECK_THAT(r.output, Catch::Contains("c_containers: 8 calls, 0 wrong"));
    CHECK(e2e::report_count(r.output, "row_axpy_cpu", "CPU") +
              e2e::report_count(r.output, "row_axpy_opencl", "OpenCL") ==
          8);
    if (std::string(workers) == e2e::kOpenClOnly)
      CHECK(e2e::report_count(r.output, "row_axpy_opencl", "OpenCL") == 8);
  }

  // Misuse ends the program with a message naming the parameter or the function.
  struct Case {
    const char* mode;
    const char* message;
  };
  for (const Case& c :
       {Case{"wrong-size",
             "peppher: parameter 's' takes a peppher_vector (peppher::Vector<float>, elements of "
             "4 bytes), but the peppher_vector given was created with elements of 8 bytes (in "
             "row_axpy(), called from C)"},
        Case{"null-array",
             "peppher: the array is NULL (in peppher_vector_create(), called from C)"},
        Case{"bad-ld",
             "peppher: ld (3) < cols (29) (in peppher_matrix_create(), called from C)"}}) {
    e2e::Run r = e2e::run(exe.string() + " " + c.mode, e2e::kCpuOnly);
    INFO(c.mode << "\n" << r.output);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.output, Catch::Contains(c.message));
  }
}
