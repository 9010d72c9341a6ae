// OpenCL devices that run on the host CPU (pocl): a CPU worker on every core beside them, and
// copies into them predicted at the bandwidth of a fresh device buffer (host_opencl.cpp), and
// the bus model the runtime writes for them (host_opencl_bus.cpp).
#include <hwloc.h>
#include <starpu.h>
#include <starpu_opencl.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "lifecycle/model_files.h"
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

namespace {

// An empty STARPU_HOME of its own under /tmp, removed at the end of the scope.
struct EmptyHome {
  fs::path root;
  EmptyHome() {
    char name[] = "/tmp/peppher-host-bus-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    root = name;
  }
  ~EmptyHome() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  fs::path bus(const std::string& kind) const {
    return root / ".starpu/sampling/bus" / (peppher::detail::starpu_host_name() + "." + kind);
  }
};

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The value of row @p src, column @p dst of a bus matrix file (latency or bandwidth).
double matrix_cell(const fs::path& path, unsigned src, unsigned dst) {
  std::ifstream in(path);
  std::string line;
  unsigned row = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (row++ != src) continue;
    std::istringstream cells(line);
    std::string cell;
    for (unsigned col = 0; std::getline(cells, cell, '\t'); ++col)
      if (col == dst) return std::strtod(cell.c_str(), nullptr);
  }
  return -1;
}

constexpr const char* kWrittenByRuntime = "# Written by the PEPPHER runtime";

}  // namespace

// StarPU calibrates the bus on a STARPU_HOME without a model (0.3 s beside pocl on 2 cores):
// for host OpenCL devices the runtime writes the model from its own short measurement
// (host_opencl_bus.cpp), in the format of the StarPU in use, and StarPU loads it.
TEST_CASE("beside host OpenCL devices, the bus model is written by the runtime and loaded",
          "[opencl][host_opencl]") {
  ScopedEnv no_model_dir("STARPU_PERF_MODEL_DIR", nullptr);  // it would win over STARPU_HOME
  ScopedEnv no_recalibration("STARPU_BUS_CALIBRATE", nullptr);
  const EmptyHome home;
  ScopedEnv own_home("STARPU_HOME", home.root.c_str());
  int node = -1;
  {
    Session s;
    node = host_opencl_node();
    if (node < 0) return;  // no pocl here
    // StarPU loaded the runtime's files: its config is still the runtime's (a calibration
    // rewrites it without the line), and its predictions are the files' figures.
    CHECK_THAT(text_of(home.bus("config")), Catch::Contains(kWrittenByRuntime));
    const unsigned to = static_cast<unsigned>(node);
    CHECK(starpu_transfer_latency(STARPU_MAIN_RAM, to) ==
          Approx(matrix_cell(home.bus("latency"), 0, to)).epsilon(0.01));
    CHECK(starpu_transfer_latency(to, STARPU_MAIN_RAM) ==
          Approx(matrix_cell(home.bus("latency"), to, 0)).epsilon(0.01));
    CHECK(starpu_transfer_bandwidth(to, STARPU_MAIN_RAM) ==
          Approx(matrix_cell(home.bus("bandwidth"), to, 0)).epsilon(0.01));
    CHECK(matrix_cell(home.bus("latency"), 0, to) > 0);
    CHECK(matrix_cell(home.bus("bandwidth"), to, 0) > 0);
  }
  // Every file as StarPU's own reader wants it (the checks init() makes of a damaged model),
  // and the SimGrid platforms a simulated StarPU reads beside them.
  for (const char* kind : {"config", "affinity", "latency", "bandwidth"}) {
    INFO(kind);
    CHECK(peppher::detail::bus_file_problem(kind, text_of(home.bus(kind))).empty());
  }
  for (const char* platform : {"platform.xml", "platform.v4.xml"}) {
    INFO(platform);
    CHECK_THAT(text_of(home.bus(platform)), Catch::Contains("<link id=\"RAM-OpenCL0\""));
  }
  // A model for these devices is left as it is: a mark in a comment survives a start.
  std::ofstream(home.bus("latency"), std::ios::app) << "# kept\n";
  { Session s; }
  CHECK_THAT(text_of(home.bus("latency")), Catch::Contains("# kept"));
  // One measured with another number of OpenCL devices (a run without them) is written anew
  // by the runtime, not calibrated by StarPU.
  std::string config = text_of(home.bus("config"));
  const std::size_t count = config.find(" # Number of OpenCL");
  REQUIRE(count != std::string::npos);
  config[count - 1] = '0';
  std::ofstream(home.bus("config"), std::ios::trunc) << config;
  {
    Session s;
    CHECK(peppher::detail::bus_model_opencl_devices() >= 1);
    CHECK_THAT(text_of(home.bus("config")), Catch::Contains(kWrittenByRuntime));
    CHECK_THAT(text_of(home.bus("latency")), !Catch::Contains("# kept"));
  }
  // STARPU_BUS_CALIBRATE: StarPU measures, as asked.
  ScopedEnv recalibrate("STARPU_BUS_CALIBRATE", "1");
  { Session s; }
  CHECK_THAT(text_of(home.bus("config")), !Catch::Contains(kWrittenByRuntime));
}
