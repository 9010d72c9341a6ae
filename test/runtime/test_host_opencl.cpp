// OpenCL devices that run on the host CPU (pocl): a CPU worker on every core beside them, and
// copies into them predicted at the bandwidth of a fresh device buffer (host_opencl.cpp).
#include <hwloc.h>
#include <starpu.h>
#include <starpu_opencl.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "peppher/placement.h"
#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;
namespace fs = std::filesystem;

namespace {

int hwloc_cores() {
  hwloc_topology_t topology;
  hwloc_topology_init(&topology);
  hwloc_topology_load(topology);
  int n = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE);
  if (n <= 0) n = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PU);
  hwloc_topology_destroy(topology);
  return n;
}

// The first OpenCL worker's memory node when its device is a CPU device, else -1.
int host_opencl_node() {
  const int worker = starpu_worker_get_by_type(STARPU_OPENCL_WORKER, 0);
  if (worker < 0) return -1;
  cl_device_id device = nullptr;
  starpu_opencl_get_device(starpu_worker_get_devid(worker), &device);
  cl_device_type type = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr) != CL_SUCCESS ||
      (type & CL_DEVICE_TYPE_CPU) == 0)
    return -1;
  return static_cast<int>(starpu_worker_get_memory_node(static_cast<unsigned>(worker)));
}

// Where the fresh-buffer bandwidths are kept beside StarPU's bus files (docs/SELECTION.md:
// <bus folder>/<host>.peppher-host-opencl).
std::string kept_path() {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* f = open_memstream(&text, &size);
  starpu_bus_print_filenames(f);
  std::fclose(f);
  const std::string all = text;
  std::free(text);
  const std::size_t from = all.find("bandwidth: <") + 12;
  std::string path = all.substr(from, all.find('>', from) - from);
  return path.substr(0, path.rfind(".bandwidth")) + ".peppher-host-opencl";
}

// The fresh-buffer bandwidth kept for @p node, 0 when there is none.
double kept_bandwidth(int node) {
  std::ifstream in(kept_path());
  std::string word;
  int n = 0;
  double bandwidth = 0;
  while (in >> word >> n >> word >> bandwidth)
    if (n == node) return bandwidth;
  return 0;
}

// A STARPU_HOME of its own under /tmp (removed at the end of the scope), holding a copy of
// the bus files of @p bus_folder so that StarPU does not measure the bus again there. A file
// that another process replaces at that moment (its temporary renamed away) is left out: then
// StarPU measures the bus there, which takes longer and changes nothing here.
struct OwnHome {
  fs::path root;
  explicit OwnHome(const fs::path& bus_folder) {
    char name[] = "/tmp/peppher-host-opencl-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    root = name;
    const fs::path bus = root / ".starpu/sampling/bus";
    fs::create_directories(bus);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(bus_folder, ec))
      if (entry.is_regular_file(ec)) fs::copy_file(entry.path(), bus / entry.path().filename(), ec);
  }
  ~OwnHome() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

}  // namespace

TEST_CASE("beside OpenCL devices on the host CPU, a CPU worker on every core unless told",
          "[opencl][host_opencl]") {
  {
    ScopedEnv no_ncpu("STARPU_NCPU", nullptr);
    Session s;
    if (host_opencl_node() < 0) return;  // no pocl here
    CHECK(static_cast<int>(starpu_cpu_worker_get_count()) == hwloc_cores());
    CHECK(starpu_opencl_worker_get_count() == 1);
  }
  {
    ScopedEnv one("STARPU_NCPU", "1");  // the user's count wins
    Session s;
    CHECK(starpu_cpu_worker_get_count() == 1);
  }
  {
    ScopedEnv no_ncpu("STARPU_NCPU", nullptr);
    peppher::Config config;
    config.ncpus = 1;
    peppher::Runtime runtime(config);
    CHECK(starpu_cpu_worker_get_count() == 1);
  }
  {
    ScopedEnv no_ncpu("STARPU_NCPU", nullptr);
    ScopedEnv no_device("STARPU_NOPENCL", "0");  // no device: StarPU's own default
    Session s;
    CHECK(static_cast<int>(starpu_cpu_worker_get_count()) == hwloc_cores());
  }
}

TEST_CASE("copies into an OpenCL device on the host CPU cost what a fresh buffer costs",
          "[opencl][host_opencl]") {
  constexpr std::size_t kBytes = 64u << 20;
  int node = -1;
  double bandwidth = 0;
  {
    Session s;
    node = host_opencl_node();
    if (node < 0) return;
    bandwidth = kept_bandwidth(node);  // measured at this start, or kept from an earlier one
    REQUIRE(bandwidth > 0);
    const unsigned to = static_cast<unsigned>(node);
    const double expected = starpu_transfer_latency(STARPU_MAIN_RAM, to) + kBytes / bandwidth;
    CHECK(peppher::detail::transfer_predict_us(STARPU_MAIN_RAM, to, kBytes) == Approx(expected));
    // The way back (into host memory a program already touched): StarPU's own model.
    CHECK(peppher::detail::transfer_predict_us(to, STARPU_MAIN_RAM, kBytes) ==
          Approx(starpu_transfer_predict(to, STARPU_MAIN_RAM, kBytes)));
  }
  {
    // StarPU reads its bus files at start: from then on its schedulers predict the same.
    Session s;
    const unsigned to = static_cast<unsigned>(node);
    CHECK(starpu_transfer_predict(STARPU_MAIN_RAM, to, kBytes) ==
          Approx(starpu_transfer_latency(STARPU_MAIN_RAM, to) + kBytes / bandwidth).epsilon(0.02));
    CHECK(kept_bandwidth(node) == Approx(bandwidth));  // measured once, then kept
  }
}

// Values read back from the runtime's own file are range-checked (issue 41): garbage or an
// absurd bandwidth is ignored with a warning naming the file, and measured again.
TEST_CASE("a damaged copy bandwidth file is measured again", "[opencl][host_opencl]") {
  fs::path suite_bus;
  {
    Session s;
    if (host_opencl_node() < 0) return;
    suite_bus = fs::path(kept_path()).parent_path();
  }
  // Damaged in a STARPU_HOME of its own: every other process that starts the runtime with
  // this device in the suite's home (ctest --parallel) reads its kept file, and one that read
  // the damaged file between this test's write and its session's start repaired it (measured
  // again and wrote it anew, its warning in its own output): this session then found a sound
  // file and said nothing.
  const OwnHome home(suite_bus);
  ScopedEnv own_home("STARPU_HOME", home.root.c_str());
  ScopedEnv no_model_dir("STARPU_PERF_MODEL_DIR", nullptr);  // it would win over STARPU_HOME
  std::string path;
  int node = -1;
  {
    Session s;
    node = host_opencl_node();
    path = kept_path();
  }
  REQUIRE(path.rfind(home.root.string(), 0) == 0);
  for (const char* text : {"garbage 1 2 3\n", "node 1 fresh_write_bytes_per_us 1e-300\n",
                           "node 1 fresh_write_bytes_per_us nan\n"}) {
    INFO(text);
    std::ofstream(path, std::ios::trunc) << text;
    const std::string said = stderr_of([] { Session s; });
    CHECK_THAT(said, Catch::Contains("peppher: warning: '" + path + "'"));
    CHECK_THAT(said, Catch::Contains("measured again"));
    Session s;
    const double bandwidth = kept_bandwidth(node);
    CHECK(bandwidth >= 1);  // measured again and kept
    CHECK(bandwidth <= 1e7);
  }
}
