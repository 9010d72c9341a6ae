// OpenCL failures on a worker reach the caller as a peppher::Error naming the interface,
// variant, kernel, argument index and the decoded error, through the same path generated
// OpenCL backend wrappers use (OpenClLaunch -> record_variant_exception ->
// rethrow_variant_exception).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "peppher/detail/variant_errors.h"
#include "peppher/opencl.h"
#include "peppher_catch.h"
#include "support.h"

namespace {

// The kernel takes (buffer, int n); the "wrapper" below passes n as a double.
const char* const kKernel =
    "__kernel void scale_n(__global float* x, int n) {\n"
    "  const int i = get_global_id(0);\n"
    "  if (i < n) x[i] *= 2.0f;\n"
    "}\n";

std::string kernel_file() {
  static const std::string kPath = [] {
    char dir[] = "/tmp/peppher-opencl-errors-XXXXXX";
    std::string p = std::string(mkdtemp(dir)) + "/scale_n.cl";
    std::ofstream(p) << kKernel;
    return p;
  }();
  return kPath;
}

peppher::OpenClProgram& program() {
  static const std::string kPath = kernel_file();
  static peppher::OpenClProgram p(kPath.c_str());
  return p;
}

const char* g_kernel_name = "scale_n";

// Shaped like a generated OpenCL backend wrapper.
void wrong_wrapper(void* buffers[], void* cl_arg) try {
  const double n = *static_cast<const double*>(cl_arg);
  peppher::OpenClLaunch launch(program(), g_kernel_name, "scale/scale_opencl");
  cl_mem x = launch.vector_buffer(buffers[0], true);
  launch.arg(x, "x");
  launch.arg(n, "n");  // 8 bytes for an int parameter: CL_INVALID_ARG_SIZE
  launch.run(STARPU_VECTOR_GET_NX(buffers[0]), 0);
} catch (...) {
  peppher::detail::record_variant_exception("scale", "scale_opencl");
}

void run_task(peppher::Vector<float>& v, double n) {
  static starpu_codelet cl = [] {
    starpu_codelet c;
    starpu_codelet_init(&c);
    c.opencl_funcs[0] = wrong_wrapper;
    c.nbuffers = 1;
    c.modes[0] = STARPU_RW;
    c.name = "scale";
    return c;
  }();
  starpu_task* task = starpu_task_create();
  task->cl = &cl;
  task->handles[0] = v.handle_for_task();
  auto* arg = static_cast<double*>(std::malloc(sizeof(double)));  // StarPU free()s it
  *arg = n;
  task->cl_arg = arg;
  task->cl_arg_size = sizeof(double);
  task->cl_arg_free = 1;
  task->synchronous = 1;
  REQUIRE(starpu_task_submit(task) == 0);
}

}  // namespace

TEST_CASE("OpenCL error names decode the standard codes", "[opencl_errors]") {
  CHECK(peppher::opencl_error_name(-51) == "CL_INVALID_ARG_SIZE");
  CHECK(peppher::opencl_error_name(-46) == "CL_INVALID_KERNEL_NAME");
  CHECK(peppher::opencl_error_name(-9999) == "OpenCL error -9999");
}

TEST_CASE("a kernel argument of the wrong size is a peppher::Error with its index",
          "[opencl][opencl_errors]") {
  peppher_test::Session session;
  if (starpu_opencl_worker_get_count() == 0) return;
  program().get();
  peppher::Vector<float> v(64, 1.0f);
  run_task(v, 64.0);
  try {
    peppher::detail::rethrow_variant_exception();
    FAIL("no error was recorded");
  } catch (const peppher::Error& e) {
    CHECK(std::string(e.what()) ==
          "peppher: scale/scale_opencl: OpenCL kernel 'scale_n': CL_INVALID_ARG_SIZE (-51) while "
          "setting argument 1 ('n', 8 bytes)");
  }
  peppher::detail::rethrow_variant_exception();  // reported once: nothing left
}

TEST_CASE("a kernel name missing from its file is a peppher::Error naming it",
          "[opencl][opencl_errors]") {
  peppher_test::Session session;
  if (starpu_opencl_worker_get_count() == 0) return;
  program().get();
  peppher::Vector<float> v(8, 1.0f);
  g_kernel_name = "scale_m";
  run_task(v, 8.0);
  g_kernel_name = "scale_n";
  CHECK_THROWS_WITH(peppher::detail::rethrow_variant_exception(),
                    Catch::StartsWith("peppher: scale/scale_opencl: OpenCL kernel 'scale_m': "
                                      "CL_INVALID_KERNEL_NAME (-46) while loading the kernel"));
}
