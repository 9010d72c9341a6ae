// End to end for the Rodinia-style apps and the ODE solver (apps/hotspot, pathfinder, nw, lud,
// bfs, cfd, kmeans, particlefilter, ode): each composed and built with -Werror (by bench/apps/run
// --build-only), run with a CPU worker plus pocl's OpenCL device, CPU only and OpenCL only
// (the ODE's CPU-only stencil, and kmeans' reductions' start and fold tasks, on the CPU
// worker, the components forced onto their OpenCL variants); its hand-written direct/ StarPU
// version built and run too, and both must agree bit for bit. SpMV and SGEMM (Table I's first
// rows) against their direct versions: checked results, the same bits on the CPU.
#include <algorithm>
#include <initializer_list>
#include <regex>
#include <string>
#include <vector>

#include "e2e_support.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;

namespace {

const char* const kCpuAndOpenCl = "STARPU_NCPU=1 STARPU_NOPENCL=1 STARPU_SCHED=eager";
const char* const kCpuOnly = "STARPU_NCPU=1 STARPU_NOPENCL=0";
const char* const kOpenClOnly = "STARPU_NCPU=0 STARPU_NOPENCL=1";

struct App {
  std::string name;                 // folder under apps/ and executable name
  std::vector<std::string> ifaces;  // its components; variants <iface>_cpu, _openmp, _opencl
  std::string args;                 // a small problem
  long calls;                       // component calls the program makes with those arguments
  // Partitioned calls are one task per block: the tasks with a CPU worker and the OpenCL
  // device (-1: as many as calls).
  long tasks_both = -1;
  // Components without an OpenCL variant: the OpenCL run keeps the CPU worker for them and
  // forces every other component's OpenCL variant (PEPPHER_VARIANT); their calls then run
  // on the CPU, each one task (`?` finds one capable worker).
  std::vector<std::string> cpu_only = {};
  long cpu_only_calls = 0;
  // Reductions (FORMAT.md "Reductions"): their start and fold tasks need a CPU worker, so the
  // OpenCL run keeps it and forces every component's OpenCL variant.
  bool reduces = false;
};

// The OpenCL-only run of @p a: no CPU worker, or one for its CPU-only components with the
// others forced onto their OpenCL variants.
std::string opencl_env(const App& a) {
  if (a.cpu_only.empty() && !a.reduces) return kOpenClOnly;
  std::string forced;
  for (const std::string& iface : a.ifaces)
    if (std::find(a.cpu_only.begin(), a.cpu_only.end(), iface) == a.cpu_only.end())
      forced += (forced.empty() ? "" : ",") + iface + "=" + iface + "_opencl";
  return std::string(kCpuAndOpenCl) + " PEPPHER_VARIANT=" + forced;
}

// The checksum the program prints on its verdict line ("" when it printed none).
std::string checksum(const std::string& output) {
  std::smatch m;
  return std::regex_search(output, m, std::regex("checksum=([0-9a-f]+)")) ? m[1].str() : "";
}

e2e::Run run_checked(const fs::path& exe, const std::string& args, const std::string& env) {
  e2e::Run r = e2e::run(exe.string() + " " + args, "PEPPHER_REPORT=1 " + env);
  INFO(exe.string() + " " + args + " with " + env + "\n" + r.output);
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.output, Catch::Contains("all results correct"));
  CHECK(!checksum(r.output).empty());
  return r;
}

// Calls of every interface of @p a run by its variants with these suffixes on @p kind workers.
long count(const e2e::Run& r, const App& a, std::initializer_list<const char*> suffixes,
           const std::string& kind) {
  long total = 0;
  for (const std::string& iface : a.ifaces)
    for (const char* suffix : suffixes) total += e2e::report_count(r.output, iface + suffix, kind);
  return total;
}

// The composed program and the direct version of @p name, built by bench/apps/run
// --build-only (which this test thereby checks), as a user of the benchmark builds them:
// composed with -Werror and without CUDA variants (gpu_bundle_cpu compiles and links those
// against StarPU with CUDA), and the hand-written direct/ version, both into the build
// tree's bench/apps/ (incrementally).
struct Built {
  fs::path exe, direct_exe;
};
Built build(const std::string& name) {
  const fs::path bench = fs::path(PEPPHER_BINARY_DIR) / "bench" / "apps";
  e2e::Run built = e2e::run(
      (e2e::source_dir() / "bench" / "apps" / "run").string() + " --build-only",
      e2e::compiler_cache_env() + " APPS=" + name + " PEPPHER_BUILD_DIR=" PEPPHER_BINARY_DIR);
  INFO(built.output);
  REQUIRE(built.exit_code == 0);
  return {bench / name / name, bench / (name + "-direct") / (name + "_direct")};
}

void check_app(const App& a) {
  const Built built = build(a.name);
  const fs::path& exe = built.exe;
  const fs::path& direct_exe = built.direct_exe;
  e2e::Run both = run_checked(exe, a.args, kCpuAndOpenCl);
  CHECK(count(both, a, {"_cpu", "_openmp"}, "CPU") + count(both, a, {"_opencl"}, "OpenCL") ==
        (a.tasks_both < 0 ? a.calls : a.tasks_both));
  e2e::Run cpu_only = run_checked(exe, a.args, kCpuOnly);
  CHECK(count(cpu_only, a, {"_cpu", "_openmp"}, "CPU") == a.calls);
  e2e::Run ocl_only = run_checked(exe, a.args, opencl_env(a));
  CHECK(count(ocl_only, a, {"_opencl"}, "OpenCL") == a.calls - a.cpu_only_calls);
  CHECK(count(ocl_only, a, {"_cpu", "_openmp"}, "CPU") == a.cpu_only_calls);

  // Every device computes the same bits (the OpenCL kernels do not contract into fma).
  CHECK(checksum(cpu_only.output) == checksum(both.output));
  CHECK(checksum(ocl_only.output) == checksum(both.output));
  // The direct version gives identical results on both worker sets.
  e2e::Run direct_both = run_checked(direct_exe, a.args, kCpuAndOpenCl);
  e2e::Run direct_cpu = run_checked(direct_exe, a.args, kCpuOnly);
  CHECK(checksum(direct_both.output) == checksum(both.output));
  CHECK(checksum(direct_cpu.output) == checksum(both.output));
}

}  // namespace

TEST_CASE("e2e rodinia: hotspot, composed and direct") {
  check_app({"hotspot", {"hotspot_step"}, "96 80 21", 21});
}

TEST_CASE("e2e rodinia: pathfinder, composed and direct") {
  check_app({"pathfinder", {"pathfinder_row"}, "2000 40", 39});
}

TEST_CASE("e2e rodinia: nw, composed and direct") {
  // Length 160: 10 x 10 blocks, 19 block anti-diagonals.
  check_app({"nw", {"nw_diagonal"}, "160 10", 19});
}

TEST_CASE("e2e rodinia: ode (RK4 on the Brusselator), composed and direct") {
  // 128 points, 20 RK4 steps of 22 calls over five components, all partitioned `?`. Vectors
  // of 1 KiB are below the smallest block (docs/PARTITIONING.md: 64 KiB of `?` operands a
  // block), so every call is one task on the containers' own handles, whichever workers the
  // run has: 440 tasks with the CPU worker and the device too.
  check_app({"ode",
             {"bruss_diffusion", "bruss_reaction", "rk_stage", "rk_update", "rk_maxdiff"},
             "128 20",
             440,
             -1,
             {"bruss_diffusion"},
             8 * 20});
}

TEST_CASE("e2e rodinia: lud, composed and direct") {
  // 128 x 128: 8 block steps, 3 calls each except the last (diagonal only).
  check_app({"lud", {"lud_diagonal", "lud_perimeter", "lud_internal"}, "128", 22});
}

TEST_CASE("e2e rodinia: bfs, composed and direct") {
  // 3000 nodes, up to 4 random edges each: 11 levels (the last one finds nothing), 2 calls each.
  check_app({"bfs", {"bfs_expand", "bfs_update"}, "3000 4", 22});
}

TEST_CASE("e2e rodinia: cfd (Euler solver), composed and direct") {
  // A 24 x 32 mesh, 10 iterations of 10 calls (a copy, then 3 stages of step factor, flux and
  // time step) over four components.
  check_app({"cfd", {"cfd_copy", "cfd_step_factor", "cfd_flux", "cfd_time_step"}, "24 32 10", 100});
}

TEST_CASE("e2e rodinia: kmeans (array reductions), composed and direct") {
  // 3000 points of 3 features, 4 clusters, blocks of 500 points: 13 rounds of 2 calls of 6
  // blocks each; the cluster sums and counts reduced from each block's private copies in
  // block order, the same bits on every device.
  check_app(
      {"kmeans", {"kmeans_assign", "kmeans_accumulate"}, "3000 3 4 500 20", 156, -1, {}, 0, true});
}

TEST_CASE("e2e rodinia: particlefilter, composed and direct") {
  // A 48 x 48 video of 6 frames, 600 particles in blocks of 200: 5 frames of 3 likelihood
  // blocks, one normalisation and 3 resampling blocks; the track and the particles bit for bit
  // the host reference's on every device (exp, log and cos written in correctly rounded
  // operations).
  check_app(
      {"particlefilter", {"pf_likelihood", "pf_normalize", "pf_resample"}, "48 48 6 600 200", 35});
}

// SpMV and SGEMM (Table I's first rows) use the project's components/, whose OpenCL kernels
// sum floats in an order (and with contractions) of their own: each version is checked against
// its double-precision host reference with a CPU worker plus the OpenCL device and CPU only,
// and on the CPU alone, where both run the same CPU variants, the two agree bit for bit.
void check_against_direct(const std::string& name, const std::string& args) {
  const Built built = build(name);
  e2e::Run both = run_checked(built.exe, args, kCpuAndOpenCl);
  e2e::Run cpu_only = run_checked(built.exe, args, kCpuOnly);
  e2e::Run direct_both = run_checked(built.direct_exe, args, kCpuAndOpenCl);
  e2e::Run direct_cpu = run_checked(built.direct_exe, args, kCpuOnly);
  CHECK(checksum(direct_cpu.output) == checksum(cpu_only.output));
  CHECK_THAT(cpu_only.output, Catch::Contains("time="));
  CHECK_THAT(direct_cpu.output, Catch::Contains("time="));
}

TEST_CASE("e2e rodinia: spmv and sgemm, composed and direct") {
  check_against_direct("spmv", "3000 8 4");
  check_against_direct("sgemm", "48 3");
}
