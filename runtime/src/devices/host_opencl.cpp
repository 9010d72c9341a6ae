// OpenCL devices that run on the host's CPU cores (pocl with STARPU_OPENCL_ON_CPUS=1).
//
// Workers. StarPU gives every OpenCL device's driver a core of its own (its default CPU
// worker count is the cores minus the devices), as a GPU's driver thread polls. A host
// OpenCL device computes on every core with threads of its own, and its driver waits in
// clFinish: a core left to it is a core the OpenMP variants lose (on 2 cores, one CPU worker
// and no combined worker, against an OpenMP original on both). So with only such devices,
// every core gets a CPU worker; idle CPU workers block while the device runs
// (idle_workers.cpp).
//
// Copies. A "non-blocking" clEnqueueWriteBuffer to such a device is a memcpy inside the call,
// so an asynchronous copy overlaps nothing and StarPU warns that its submission "took a very
// long time": synchronous copies do the same work without the misleading warning.
//
// Transfer estimates. StarPU's bus calibration writes 32 times into one device buffer, warm
// after the first: 18-30 GB/s on this machine's pocl. A call's copy goes into a buffer that
// StarPU has just allocated for it, and the device's first touch of each page costs more
// than the copy: 2.2 GB/s, for buffers of 1 to 151 MB. Predicted ten times too fast, a
// device copy looked free to the schedulers (a 2-D convolution moved 2 x 151 MB to pocl and
// ran 2.4 times slower than its OpenMP original). So the fresh-buffer bandwidth is measured
// once per STARPU_HOME (with the rest of the bus model where the runtime writes it,
// host_opencl_bus.cpp; kept in <bus folder>/<host>.peppher-host-opencl) and written into
// StarPU's bus model for the host-to-device links; StarPU reads it from the next start on,
// and this session's own estimates (host_opencl_copy_us, for transfer_predict_us) use it at
// once.
#include "devices/host_opencl.h"

#include <starpu_opencl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/files.h"
#include "devices/cpu_cores.h"
#include "devices/host_opencl_bus.h"

namespace peppher::detail {
namespace {

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// Devices of @p type over every OpenCL platform (0 when there is no OpenCL at all).
cl_uint count_devices(cl_device_type type) {
  cl_uint nplatforms = 0;
  if (clGetPlatformIDs(0, nullptr, &nplatforms) != CL_SUCCESS || nplatforms == 0) return 0;
  std::vector<cl_platform_id> platforms(nplatforms);
  if (clGetPlatformIDs(nplatforms, platforms.data(), nullptr) != CL_SUCCESS) return 0;
  cl_uint total = 0;
  for (cl_platform_id p : platforms) {
    cl_uint n = 0;
    if (clGetDeviceIDs(p, type, 0, nullptr, &n) == CL_SUCCESS) total += n;
  }
  return total;
}

// Whether the OpenCL devices StarPU will take are all host CPU devices: it takes CPU devices
// only when asked (STARPU_OPENCL_ON_CPUS), and GPUs and accelerators first.
bool only_host_devices(int nopencl) {
  if (nopencl == 0) return false;
  const char* on_cpus = std::getenv("STARPU_OPENCL_ON_CPUS");
  if (on_cpus == nullptr || *on_cpus == '\0' || std::strcmp(on_cpus, "0") == 0) return false;
  return count_devices(CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR) == 0 &&
         count_devices(CL_DEVICE_TYPE_CPU) > 0;
}

// Fresh-buffer bandwidth (bytes per microsecond, StarPU's unit) into each host OpenCL
// device's memory node this session; 0: none measured (StarPU's own model applies).
std::atomic<double> g_fresh_bandwidth[STARPU_MAXNODES];

double now_us() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

// Writes into three fresh buffers of @p devid: the median bandwidth, or 0. 4 MB each: the
// cost is the first touch of each page, the same per page for larger buffers (1 to 151 MB
// above).
double measure_fresh_bandwidth(int devid) {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  starpu_opencl_get_context(devid, &context);
  starpu_opencl_get_device(devid, &device);
  if (context == nullptr || device == nullptr) return 0;
  cl_int err = CL_SUCCESS;
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
  if (err != CL_SUCCESS) return 0;
  constexpr std::size_t kBytes = 4u << 20;
  std::vector<char> host(kBytes, 1);  // touched: a call's operand is
  std::vector<double> us;
  for (int trial = 0; trial < 3; ++trial) {
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, kBytes, nullptr, &err);
    if (err != CL_SUCCESS) break;
    const double start = now_us();
    err = clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, kBytes, host.data(), 0, nullptr, nullptr);
    const double end = now_us();
    clReleaseMemObject(buffer);
    if (err != CL_SUCCESS) break;
    us.push_back(end - start);
  }
  clReleaseCommandQueue(queue);
  if (us.size() != 3) return 0;
  std::sort(us.begin(), us.end());
  return us[1] > 0 ? static_cast<double>(kBytes) / us[1] : 0;
}

// StarPU's bus bandwidth file for this host (starpu_bus_print_filenames), or "".
std::string bandwidth_file() {
  char* text = nullptr;
  std::size_t size = 0;
  FILE* f = open_memstream(&text, &size);
  if (f == nullptr) return "";
  starpu_bus_print_filenames(f);
  std::fclose(f);
  std::string all(text != nullptr ? text : "");
  std::free(text);
  const std::string key = "bandwidth: <";
  const std::size_t at = all.find(key);
  if (at == std::string::npos) return "";
  const std::size_t end = all.find('>', at + key.size());
  return end == std::string::npos ? "" : all.substr(at + key.size(), end - at - key.size());
}

// The measurements kept for this STARPU_HOME: memory node -> bandwidth. A file not as this
// runtime writes it (a line other than "node N fresh_write_bytes_per_us B", a bandwidth
// outside 1 byte/us .. 10 TB/s) is ignored with a warning: the devices are measured again and
// the file written anew.
std::map<unsigned, double> read_kept(const std::string& path) {
  std::map<unsigned, double> kept;
  std::string text;
  std::string problem = files::read_file(path, 1u << 20, text);
  if (problem == files::kDoesNotExist) return kept;
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; problem.empty() && std::getline(lines, line);) {
    ++number;
    std::istringstream in(line);
    std::string node_word, unit, extra;
    long long node = -1;
    double bandwidth = 0;
    const bool parsed = static_cast<bool>(in >> node_word >> node >> unit >> bandwidth) &&
                        !(in >> extra) && node_word == "node" &&
                        unit == "fresh_write_bytes_per_us" && node >= 0 && node < STARPU_MAXNODES;
    if (!parsed)
      problem = "line " + std::to_string(number) + " is not 'node N fresh_write_bytes_per_us B'";
    else if (!std::isfinite(bandwidth) || bandwidth < 1 || bandwidth > 1e7)
      problem = "line " + std::to_string(number) + ": the bandwidth " + std::to_string(bandwidth) +
                " bytes/us is out of range (1 .. 1e7)";
    else
      kept[static_cast<unsigned>(node)] = bandwidth;
  }
  if (problem.empty()) return kept;
  std::cerr << "peppher: warning: '" << path << "' " << problem
            << ": ignored, the copy bandwidth is measured again\n";
  return {};
}

// Whether bandwidth @p value is @p target's, within 1 % (what the bus file's "%e" keeps).
bool close_to(double value, double target) {
  return value > 0 && std::abs(value - target) <= 0.01 * target;
}

// Writes @p text to @p path whole or not at all (files::write_file); a failure is said once
// (the measurement is then taken again at the next start).
void write_whole(const std::string& path, const std::string& text) {
  if (const std::string problem = files::write_file(path, text); !problem.empty())
    std::cerr << "peppher: warning: '" << path << "' " << problem << "\n";
}

// Sets the entries (CPU memory node -> @p node) of StarPU's bandwidth matrix file: rows are
// sources, tab-separated columns destinations, '#' lines comments.
void patch_bandwidth_file(const std::string& path, const std::map<unsigned, double>& into) {
  std::ifstream in(path);
  if (!in) return;
  std::ostringstream out;
  std::string line;
  unsigned row = 0;
  bool changed = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      out << line << '\n';
      continue;
    }
    const unsigned src = row++;
    if (src < starpu_memory_nodes_get_count() && starpu_node_get_kind(src) == STARPU_CPU_RAM) {
      std::vector<std::string> cells;
      std::size_t start = 0;
      for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
        cells.push_back(line.substr(start, tab - start));
      cells.push_back(line.substr(start));
      for (const auto& [node, bandwidth] : into) {
        if (node >= cells.size()) continue;
        if (close_to(std::atof(cells[node].c_str()), bandwidth)) continue;
        char number[32];
        std::snprintf(number, sizeof number, "%e", bandwidth);
        cells[node] = number;
        changed = true;
      }
      line.clear();
      for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "\t" : "") + cells[i];
    }
    out << line << '\n';
  }
  if (changed) write_whole(path, out.str());
}

// The factor m of StarPU's prediction from host memory to @p node (1 when it cannot tell).
double starpu_multiplier(unsigned node) {
  constexpr double kBytes = 1 << 30;
  const double bandwidth = starpu_transfer_bandwidth(STARPU_MAIN_RAM, node);
  const double time =
      starpu_transfer_predict(STARPU_MAIN_RAM, node, static_cast<std::size_t>(kBytes)) -
      starpu_transfer_latency(STARPU_MAIN_RAM, node);
  const double m = time * bandwidth / kBytes;
  return std::isfinite(m) && m > 0 ? m : 1;
}

}  // namespace

bool runs_on_host_cpu(int devid) {
  if (devid < 0 || devid >= STARPU_MAXOPENCLDEVS) return false;
  cl_device_id device = nullptr;
  starpu_opencl_get_device(devid, &device);
  cl_device_type type = 0;
  return device != nullptr &&
         clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS &&
         (type & CL_DEVICE_TYPE_CPU) != 0;
}

void configure_for_host_opencl(starpu_conf& conf) {
#ifdef STARPU_USE_CUDA
  if (conf.ncuda != 0) return;  // a CUDA driver may want its core: StarPU's default stays
#endif
  if (!only_host_devices(conf.nopencl)) return;
  write_host_opencl_bus_model();  // unless this host has one: StarPU then need not measure
  if (!env_set("STARPU_DISABLE_ASYNCHRONOUS_OPENCL_COPY"))
    conf.disable_asynchronous_opencl_copy = 1;
  if (conf.ncpus == -1) {  // neither STARPU_NCPU nor Config::ncpus
    const int cores = host_cores();
    if (cores > 0) conf.ncpus = cores;
  }
  // A CPU worker on every core and each device's driver thread: a core holds two of StarPU's
  // threads, and StarPU warns at the start and each time a combined worker's leader binds
  // itself back after a parallel task ("worker 0 was already bound to PU 0 ... This will
  // strongly degrade performance": 185 times in hotspot's 200 OpenMP calls). The driver waits
  // in clFinish, so the warning is wrong here; what it warns of was measured: unbound
  // (STARPU_WORKERS_NOBIND=1) a 64 x 64 hotspot step took 2 to 2.5 times as long on 2 cores.
  // So StarPU stays bound as it chooses, and quiet (configure_devices: STARPU_SILENT=0 shows
  // the warning).
}

void calibrate_host_opencl_links() {
  int ids[STARPU_NMAXWORKERS];
  const int n = starpu_worker_get_ids_by_type(STARPU_OPENCL_WORKER, ids, STARPU_NMAXWORKERS);
  std::map<unsigned, int> devices;  // memory node -> OpenCL device
  for (int i = 0; i < n; ++i) {
    const int devid = starpu_worker_get_devid(ids[i]);
    const unsigned node = starpu_worker_get_memory_node(static_cast<unsigned>(ids[i]));
    if (node < STARPU_MAXNODES && runs_on_host_cpu(devid)) devices[node] = devid;
  }
  if (devices.empty()) return;
  const std::string bus = bandwidth_file();
  const std::string kept_path =
      bus.empty() ? "" : bus.substr(0, bus.rfind(".bandwidth")) + ".peppher-host-opencl";
  std::map<unsigned, double> kept =
      kept_path.empty() ? std::map<unsigned, double>{} : read_kept(kept_path);
  const char* recalibrate = std::getenv("STARPU_BUS_CALIBRATE");
  const bool fresh = recalibrate != nullptr && std::atoi(recalibrate) > 0;
  bool measured = false, paused = false;
  for (const auto& [node, devid] : devices) {
    if (!fresh && kept.count(node) != 0) continue;
    double bandwidth = fresh_bandwidth_measured_at_start(devid);  // before StarPU's workers
    if (bandwidth <= 0) {
      if (!paused) starpu_pause();  // the workers' polling would slow the device's threads
      paused = true;
      bandwidth = measure_fresh_bandwidth(devid);
    }
    measured = true;
    if (bandwidth > 0) kept[node] = bandwidth;
  }
  if (paused) starpu_resume();
  // StarPU predicts latency + bytes / bandwidth * m (m = 2 x its device count, for the
  // devices' contention on the host bridge): the file gets bandwidth x m, so that its
  // prediction is the measured cost. StarPU read the file at this start (or calibrated and
  // wrote it): where what it holds is already that, the file is left unread.
  std::map<unsigned, double> into;
  for (const auto& [node, devid] : devices) {
    if (kept.count(node) == 0) continue;
    g_fresh_bandwidth[node].store(kept[node], std::memory_order_relaxed);
    const double target = kept[node] * starpu_multiplier(node);
    if (!close_to(starpu_transfer_bandwidth(STARPU_MAIN_RAM, node), target)) into[node] = target;
  }
  if (bus.empty()) return;
  if (measured && !kept.empty()) {
    std::ostringstream text;
    for (const auto& [node, bandwidth] : kept)
      text << "node " << node << " fresh_write_bytes_per_us " << bandwidth << '\n';
    write_whole(kept_path, text.str());
  }
  if (!into.empty()) patch_bandwidth_file(bus, into);
}

void forget_host_opencl_links() noexcept {
  for (auto& bandwidth : g_fresh_bandwidth) bandwidth.store(0, std::memory_order_relaxed);
}

double host_opencl_copy_us(unsigned src, unsigned dst, std::size_t bytes) noexcept {
  if (dst < STARPU_MAXNODES && src < starpu_memory_nodes_get_count() &&
      starpu_node_get_kind(src) == STARPU_CPU_RAM) {
    const double bandwidth = g_fresh_bandwidth[dst].load(std::memory_order_relaxed);
    if (bandwidth > 0)
      return starpu_transfer_latency(src, dst) + static_cast<double>(bytes) / bandwidth;
  }
  return -1;
}

}  // namespace peppher::detail
