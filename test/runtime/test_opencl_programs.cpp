// OpenCL programs registered with build_at_init() (every OpenCL variant of a composition)
// are built in the background from init() on, so that the first call does not compile; a
// build error still reaches the call that needs the program, once per session.
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "devices/opencl_binaries.h"
#include "lifecycle/model_files.h"
#include "peppher/opencl.h"
#include "peppher/placement.h"
#include "peppher_catch.h"
#include "support.h"

namespace {

std::string write_kernel_file(const char* name, const char* source) {
  char dir[] = "/tmp/peppher-opencl-programs-XXXXXX";
  const std::string path = std::string(mkdtemp(dir)) + "/" + name;
  std::ofstream(path) << source;
  return path;
}

// Waits (polling, up to two minutes: a cold pocl build takes seconds) until @p program is
// built, without asking for it.
bool built_in_background(const peppher::OpenClProgram& program) {
  for (int i = 0; i < 1200 && !program.ready(); ++i) usleep(100 * 1000);
  return program.ready();
}

}  // namespace

TEST_CASE("a program registered with build_at_init is built without being asked for",
          "[opencl][opencl_build]") {
  const std::string path = write_kernel_file(
      "twice.cl", "__kernel void twice(__global float* x) { x[get_global_id(0)] *= 2.0f; }\n");
  // Declared before the session: the session's shutdown unloads it.
  peppher::OpenClProgram program(path.c_str());
  peppher::OpenClProgram not_registered(path.c_str());
  CHECK(program.build_at_init());
  for (int session_number = 0; session_number < 2; ++session_number) {  // once per session
    peppher_test::Session session;
    if (starpu_opencl_worker_get_count() == 0) return;
    CHECK(built_in_background(program));
    CHECK_FALSE(not_registered.ready());  // built only when a call asks for it
    CHECK(program.get()->programs[0] != nullptr);
  }
  CHECK_FALSE(program.ready());  // unloaded at shutdown
}

TEST_CASE("a background build's error reaches the call that needs the program",
          "[opencl][opencl_build]") {
  const std::string path =
      write_kernel_file("broken.cl", "__kernel void broken(__global float* x) { x[0] = y; }\n");
  peppher::OpenClProgram broken(path.c_str());
  broken.build_at_init();
  peppher::OpenClProgram missing(peppher::KernelFile{"no_such_kernel_file.cl", ""});
  missing.build_at_init();
  peppher_test::Session session;
  if (starpu_opencl_worker_get_count() == 0) return;
  // The file, the device, the OpenCL error's name and the build log, at the file's line.
  const std::string expected = "peppher: OpenCL kernel file " + path + " does not build for device";
  // The build is not repeated: the second call reports the first build's error.
  for (int call = 0; call < 2; ++call) {
    CHECK_THROWS_WITH(broken.get(), Catch::StartsWith(expected) &&
                                        Catch::Contains("(CL_BUILD_PROGRAM_FAILURE") &&
                                        Catch::Contains(path + ":1:") &&
                                        Catch::Contains("undeclared identifier 'y'"));
    CHECK_THROWS_WITH(missing.get(),
                      Catch::StartsWith("peppher: OpenCL kernel file no_such_kernel_file.cl "
                                        "not found; tried:"));
  }
  CHECK_FALSE(broken.ready());
}

namespace {

void no_cpu(void** /*buffers*/, void* /*arg*/) {}
void no_opencl(void** /*buffers*/, void* /*arg*/) {}

}  // namespace

TEST_CASE("a call waits for its OpenCL program's build only when only OpenCL can run it",
          "[opencl][opencl_build]") {
  const std::string path =
      write_kernel_file("queued.cl", "__kernel void queued(__global float* x) { x[0] += 1.0f; }\n");
  peppher::OpenClProgram program(path.c_str());
  starpu_codelet anywhere{};  // StarPU chooses between a CPU and an OpenCL variant
  anywhere.cpu_funcs[0] = no_cpu;
  anywhere.opencl_funcs[0] = no_opencl;
  starpu_codelet opencl_only{};
  opencl_only.opencl_funcs[0] = no_opencl;
  peppher_test::Session session;
  if (starpu_opencl_worker_get_count() == 0) return;
  // As init() marks the programs its background build will get to (this one it never will:
  // it is not registered, so nothing builds it unless a call does).
  program.set_queued(true);
  program.before_call(anywhere);
  CHECK_FALSE(program.ready());  // not waited for: a CPU worker may run the call
  program.before_call(opencl_only);
  CHECK(program.ready());  // built before a task that only OpenCL can run

  const std::string broken_path =
      write_kernel_file("broken_call.cl", "__kernel void b(__global float* x) { x[0] = y; }\n");
  peppher::OpenClProgram broken(broken_path.c_str());
  const std::string expected =
      "peppher: OpenCL kernel file " + broken_path + " does not build for device";
  // Never built in the background: built at the first call, and its error kept. A call that
  // can run elsewhere falls back (the codelet's only OpenCL variant failed: StarPU is told
  // to run it elsewhere); one that only OpenCL can run (a forced call) gets the error.
  CHECK_NOTHROW(broken.before_call(anywhere));
  CHECK((peppher::detail::codelet_where(anywhere) & STARPU_OPENCL) == 0);
  CHECK((peppher::detail::codelet_where(anywhere) & STARPU_CPU) != 0);
  CHECK_THROWS_WITH(broken.before_call(opencl_only), Catch::StartsWith(expected));
  broken.wait_before_task(opencl_only);  // never throws: the worker's get() reports it
  CHECK_THROWS_WITH(broken.get(), Catch::StartsWith(expected));
}

TEST_CASE("a failed build makes its codelet fall back only once all its OpenCL variants failed",
          "[opencl][opencl_build]") {
  const std::string good_path =
      write_kernel_file("good.cl", "__kernel void g(__global float* x) { x[0] += 1.0f; }\n");
  const std::string bad_path =
      write_kernel_file("bad.cl", "__kernel void b(__global float* x) { x[0] = y; }\n");
  peppher::OpenClProgram good(good_path.c_str());
  peppher::OpenClProgram bad(bad_path.c_str());
  peppher::OpenClProgram worse(bad_path.c_str(), "-DWORSE");
  starpu_codelet two{};  // a CPU variant and two OpenCL ones (one program each)
  two.cpu_funcs[0] = no_cpu;
  two.opencl_funcs[0] = no_opencl;
  two.opencl_funcs[1] = no_opencl;
  starpu_codelet both_bad = two;
  {
    peppher_test::Session session;
    if (starpu_opencl_worker_get_count() == 0) return;
    good.before_call(two);
    bad.before_call(two);
    CHECK((peppher::detail::codelet_where(two) & STARPU_OPENCL) != 0);  // `good` still runs
    bad.before_call(both_bad);
    CHECK((peppher::detail::codelet_where(both_bad) & STARPU_OPENCL) != 0);  // one of two
    worse.before_call(both_bad);
    CHECK((peppher::detail::codelet_where(both_bad) & STARPU_OPENCL) == 0);
  }
  // The session's end gives the codelets their OpenCL variants back: the next one builds again.
  CHECK((peppher::detail::codelet_where(both_bad) & STARPU_OPENCL) != 0);
}

namespace {

// The id of this process's thread named @p name, or -1.
long thread_named(const std::string& name) {
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "comm");
    std::string comm;
    std::getline(in, comm);
    if (comm == name) return std::stol(task.path().filename().string());
  }
  return -1;
}

}  // namespace

TEST_CASE(
    "beside OpenCL devices on the host's cores the background build has the lowest "
    "priority",
    "[opencl][opencl_build]") {
  // A source pocl has not cached: its build takes a compiler run.
  const std::string unique =
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  // Many functions: a compile of a second or so.
  std::string source;
  for (int f = 0; f < 200; ++f)
    source += "float f" + std::to_string(f) + "(float x) { return x * " + std::to_string(f) +
              ".5f + sin(x); }\n";
  source += "__kernel void k" + unique + "(__global float* x) {\n  float v = x[0];\n";
  for (int f = 0; f < 200; ++f) source += "  v = f" + std::to_string(f) + "(v);\n";
  source += "  x[get_global_id(0)] = v;\n}\n";
  const std::string path = write_kernel_file("slow.cl", source.c_str());
  peppher::OpenClProgram program(path.c_str());
  program.build_at_init();
  peppher::Runtime runtime;  // no test kernels to load first: the build is just starting
  if (starpu_opencl_worker_get_count() == 0) return;
  cl_device_id device;
  starpu_opencl_get_device(0, &device);
  cl_device_type type = 0;
  clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  long builder = -1;  // the builder names itself once it runs
  for (int i = 0; i < 1000 && builder < 0 && !program.ready(); ++i) {
    builder = thread_named("peppher-build");
    if (builder < 0) usleep(1000);
  }
  if (builder < 0) {
    WARN("the background build ended before it could be looked at");
    return;
  }
  const int policy = sched_getscheduler(static_cast<pid_t>(builder));
  if (policy < 0) return;  // it ended meanwhile
  CHECK(policy == ((type & CL_DEVICE_TYPE_CPU) != 0 ? SCHED_IDLE : sched_getscheduler(0)));
  if (program.ready()) {
    WARN("the background build ended before a call could wait for it");
    return;
  }
  // A call that needs the program now waits for the builder's build (pocl builds one program
  // at a time): the builder then runs at the process's priority, not only on idle cores,
  // which busy cores starve (as root, or with an RLIMIT_NICE that allows it).
  std::atomic<bool> waited{false};
  std::atomic<int> raised_to{-1};
  std::thread watch([&] {
    while (!waited.load()) {
      const int now = sched_getscheduler(static_cast<pid_t>(builder));
      if (now < 0) break;  // the builder has ended
      if (now != SCHED_IDLE) raised_to = now;
      usleep(200);
    }
  });
  CHECK(program.get() != nullptr);  // it still builds, and the call waits for it
  waited = true;
  watch.join();
  rlimit nice_limit{};
  getrlimit(RLIMIT_NICE, &nice_limit);
  if ((type & CL_DEVICE_TYPE_CPU) != 0 && (geteuid() == 0 || nice_limit.rlim_cur >= 20))
    CHECK(raised_to == sched_getscheduler(0));
}

namespace {

// The kept binaries (opencl_binaries.cpp) whose names start with the kept name @p one's
// "<file and device>-" part.
std::vector<std::string> kept_for_same_place(const std::string& one) {
  std::vector<std::string> found;
  const std::string folder = peppher::detail::sampling_folder() + "peppher-opencl";
  const std::string place = one.substr(0, one.find('-') + 1);
  std::error_code error;
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error))
    if (it->path().filename().string().rfind(place, 0) == 0) found.push_back(it->path().string());
  return found;
}

// The one binary kept for @p path on the first OpenCL device, or "" (any number but one).
std::string kept_binary_of(const std::string& path, const std::string& options = "") {
  const std::string folder = peppher::detail::sampling_folder() + "peppher-opencl/";
  std::ifstream in(path);
  std::ostringstream source;
  source << in.rdbuf();
  cl_device_id device = nullptr;
  starpu_opencl_get_device(0, &device);
  const std::string key = peppher::detail::opencl_binary_key(path, source.str(), options, device);
  if (key.empty()) return "";
  const std::vector<std::string> kept = kept_for_same_place(key);
  return kept.size() == 1 && kept[0] == folder + key + ".bin" ? kept[0] : "";
}

// Whether @p program's build for the first OpenCL device has a kernel named @p name.
bool has_kernel(peppher::OpenClProgram& program, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program.get()->programs[0], name, &err);
  if (kernel != nullptr) clReleaseKernel(kernel);
  return err == CL_SUCCESS;
}

ino_t inode_of(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

}  // namespace

TEST_CASE("a program built from source is kept, and the next session builds it from that binary",
          "[opencl][opencl_build]") {
  // The kernel's name comes from a header next to the file, through a second header in an
  // -I folder: an edit of either is a new build.
  const std::string path = write_kernel_file(
      "kept.cl", "#include \"kept_name.h\"\n__kernel void NAME(__global float* x) { x[0] = 1; }\n");
  const std::string folder = std::filesystem::path(path).parent_path().string();
  const std::string extra = folder + "/extra";
  std::filesystem::create_directory(extra);
  std::ofstream(folder + "/kept_name.h")
      << "#include <kept_suffix.h>\n#ifndef NAME\n#define NAME first\n#endif\n";
  std::ofstream(extra + "/kept_suffix.h") << "// nothing yet\n";
  const std::string options = "-I " + extra;
  std::string kept;
  ino_t first_inode = 0;
  {
    peppher::OpenClProgram program(path.c_str(), options.c_str());
    peppher_test::Session session;
    if (starpu_opencl_worker_get_count() == 0) return;
    CHECK(has_kernel(program, "first"));
    kept = kept_binary_of(path, "-I " + folder + " " + options);
    REQUIRE(!kept.empty());
    first_inode = inode_of(kept);
  }
  {
    peppher::OpenClProgram program(path.c_str(), options.c_str());
    peppher_test::Session session;
    CHECK(has_kernel(program, "first"));
    CHECK(inode_of(kept) == first_inode);  // read, not built and written again
  }
  SECTION("a header edited, in either folder, is a new build that replaces the kept one") {
    const bool in_extra = GENERATE(false, true);
    if (in_extra)
      std::ofstream(extra + "/kept_suffix.h") << "#define NAME third\n";
    else
      std::ofstream(folder + "/kept_name.h")
          << "#include <kept_suffix.h>\n#ifndef NAME\n#define NAME second\n#endif\n";
    peppher::OpenClProgram program(path.c_str(), options.c_str());
    peppher_test::Session session;
    CHECK(has_kernel(program, in_extra ? "third" : "second"));
    const std::string now = kept_binary_of(path, "-I " + folder + " " + options);
    CHECK(!now.empty());  // one kept for the file and device: the new one
    CHECK(now != kept);
  }
  SECTION("a damaged kept binary is built from source again and kept anew") {
    const std::string damage =
        GENERATE(std::string("garbage"), std::string("truncated"), std::string("one byte changed"));
    std::string text;
    {
      std::ifstream in(kept, std::ios::binary);
      std::ostringstream all;
      all << in.rdbuf();
      text = all.str();
    }
    if (damage == "garbage") text = "not a binary at all\n";
    if (damage == "truncated") text = text.substr(0, text.size() / 2);
    if (damage == "one byte changed") text[text.size() - 10] ^= 0x5a;
    std::ofstream(kept, std::ios::binary | std::ios::trunc) << text;
    peppher::OpenClProgram program(path.c_str(), options.c_str());
    peppher_test::Session session;
    CHECK(has_kernel(program, "first"));
    CHECK(kept_binary_of(path, "-I " + folder + " " + options) == kept);
    std::ifstream in(kept, std::ios::binary);
    std::ostringstream now;
    now << in.rdbuf();
    CHECK(now.str() != text);  // written anew
    CHECK(now.str().rfind("PEPPHER-OPENCL-BINARY 1 ", 0) == 0);
  }
}

TEST_CASE("a program whose includes cannot all be followed is not kept", "[opencl][opencl_build]") {
  const std::string path =
      write_kernel_file("macro_include.cl",
                        "#define HEADER \"macro_name.h\"\n#include HEADER\n"
                        "__kernel void NAME(__global float* x) { x[0] = 1; }\n");
  std::ofstream(std::filesystem::path(path).parent_path().string() + "/macro_name.h")
      << "#define NAME through_a_macro\n";
  peppher::OpenClProgram program(path.c_str());
  peppher_test::Session session;
  if (starpu_opencl_worker_get_count() == 0) return;
  CHECK(has_kernel(program, "through_a_macro"));
  cl_device_id device = nullptr;
  starpu_opencl_get_device(0, &device);
  CHECK(peppher::detail::opencl_binary_key(path, "#include HEADER\n", "", device).empty());
  CHECK(peppher::detail::opencl_binary_key(path, "#include \"no_such_header.h\"\n", "", device)
            .empty());
  CHECK_FALSE(peppher::detail::opencl_binary_key(path, "#include <platform_header.h>\n", "", device)
                  .empty());
}
