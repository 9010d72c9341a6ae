// StarPU's bus model for host OpenCL devices, written by the runtime (host_opencl_bus.h).
//
// Why. On a STARPU_HOME without a bus model, starpu_init() calibrates the bus: per OpenCL
// device, 32 writes and 32 reads of 16 MB (a CPU device gets half of StarPU's 32 MB) and 64
// one-byte copies, in a context of its own (perfmodel_bus.c). For pocl that is memcpy and
// took 0.3 s of a first run on this project's 2 cores (0.5 s PolyBench's GEMM became 0.8 s),
// paid again by every run that finds another number of OpenCL devices than the model. The
// same figures come from 5 copies each way and 9 one-byte copies each way: a few ms.
//
// What is written is what StarPU 1.3 and 1.4 write themselves for this configuration
// (perfmodel_bus.c of 1.3.10 and 1.4.7): the config file with the CPU, NUMA and device
// counts, the devices' NUMA affinity, the latency and bandwidth matrices (memory node 0 is
// the host's NUMA node, then the OpenCL devices in StarPU's order: every platform but SOCL's,
// at most STARPU_MAXOPENCLDEVS; a copy between two devices goes through the host), and the
// SimGrid platform files, which only a simulated StarPU reads. Each file is written whole
// (files::write_file), the config file last: StarPU looks for it first, so a start stopped
// half-way leaves StarPU to calibrate. A config file that disagrees with what StarPU finds
// (another count of cores) makes StarPU calibrate and rewrite all of them, as before.
#include "devices/host_opencl_bus.h"

#include <dirent.h>
#include <starpu.h>
#include <starpu_opencl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "common/files.h"
#include "devices/cpu_cores.h"
#include "lifecycle/model_files.h"

namespace peppher::detail {
namespace {

#if STARPU_MAJOR_VERSION == 1 && (STARPU_MINOR_VERSION == 3 || STARPU_MINOR_VERSION == 4)
constexpr bool kKnownFormat = true;
#else
constexpr bool kKnownFormat = false;  // another StarPU: it calibrates, as it always did
#endif
constexpr bool kStarPU14 = STARPU_MAJOR_VERSION == 1 && STARPU_MINOR_VERSION == 4;

// The config file's last line: what tells a model written here from StarPU's own.
constexpr const char* kMarker =
    "# Written by the PEPPHER runtime from its own measurement of the host OpenCL devices";

// One host OpenCL device's copies to and from host memory, in StarPU's units.
struct Link {
  double htod_us_per_byte = 0;
  double dtoh_us_per_byte = 0;
  double htod_latency_us = 0;
  double dtoh_latency_us = 0;
  double fresh_bytes_per_us = 0;  // into a buffer just made (host_opencl.cpp says why)
  unsigned long long memory_bytes = 0;
  std::string name;
};

// The NUMA nodes Linux lists (a kernel without NUMA lists none: one node).
int numa_nodes() {
  DIR* dir = opendir("/sys/devices/system/node");
  if (dir == nullptr) return 1;
  int nodes = 0;
  while (const dirent* entry = readdir(dir))
    if (std::strncmp(entry->d_name, "node", 4) == 0 && entry->d_name[4] >= '0' &&
        entry->d_name[4] <= '9')
      ++nodes;
  closedir(dir);
  return std::max(nodes, 1);
}

// The OpenCL devices StarPU takes, in its order (_starpu_opencl_init): every platform's but
// "SOCL Platform", GPUs and accelerators and, asked (STARPU_OPENCL_ON_CPUS, the caller's
// condition), CPUs; at most STARPU_MAXOPENCLDEVS.
std::vector<cl_device_id> starpu_opencl_devices() {
  std::vector<cl_device_id> devices;
  cl_uint nplatforms = 0;
  if (clGetPlatformIDs(0, nullptr, &nplatforms) != CL_SUCCESS || nplatforms == 0) return devices;
  std::vector<cl_platform_id> platforms(nplatforms);
  if (clGetPlatformIDs(nplatforms, platforms.data(), nullptr) != CL_SUCCESS) return {};
  const char* only_cpus = std::getenv("STARPU_OPENCL_ONLY_ON_CPUS");
  const cl_device_type type =
      only_cpus != nullptr && std::atoi(only_cpus) > 0
          ? CL_DEVICE_TYPE_CPU
          : CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CPU;
  for (cl_platform_id platform : platforms) {
    char name[1024] = {};
    if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr) !=
            CL_SUCCESS ||
        std::strcmp(name, "SOCL Platform") == 0)
      continue;
    cl_uint n = 0;
    if (clGetDeviceIDs(platform, type, 0, nullptr, &n) != CL_SUCCESS || n == 0) continue;
    std::vector<cl_device_id> found(n);
    if (clGetDeviceIDs(platform, type, n, found.data(), nullptr) != CL_SUCCESS) continue;
    for (cl_device_id d : found)
      if (devices.size() < STARPU_MAXOPENCLDEVS) devices.push_back(d);
  }
  return devices;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

// A context, queue and buffer on one device, released whatever happens.
struct DeviceSession {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_mem buffer = nullptr;
  ~DeviceSession() {
    if (buffer != nullptr) clReleaseMemObject(buffer);
    if (queue != nullptr) clReleaseCommandQueue(queue);
    if (context != nullptr) clReleaseContext(context);
  }
};

// Measures @p device's copies as StarPU does (blocking copies from one host buffer into one
// device buffer, warm after the first; medians of a few), and the first copy into each of
// three fresh buffers (the median: what host_opencl.cpp keeps); false when OpenCL refuses.
// 4 MB a copy: StarPU's 16 MB for a CPU device measure the same memcpy, and a fresh buffer's
// cost is its pages' first touch, the same per page at either size (4 MB: 1,024 pages).
bool measure(cl_device_id device, Link& link) {
  cl_ulong max_alloc = 0, memory = 0;
  char name[256] = {};
  if (clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                      nullptr) != CL_SUCCESS ||
      clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof memory, &memory, nullptr) !=
          CL_SUCCESS ||
      clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr) != CL_SUCCESS)
    return false;
  const std::size_t bytes = std::min<std::size_t>(4u << 20, max_alloc / 4);
  if (bytes == 0) return false;
  DeviceSession s;
  cl_int err = CL_SUCCESS;
  s.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  if (err != CL_SUCCESS) return false;
  s.queue = clCreateCommandQueue(s.context, device, 0, &err);
  if (err != CL_SUCCESS) return false;
  std::vector<unsigned char> host(bytes, 0);
  bool ok = true;
  // The microseconds of one blocking copy of @p n bytes between host and s.buffer.
  auto copy_us = [&](bool to_device, std::size_t n) {
    const auto start = std::chrono::steady_clock::now();
    err = to_device ? clEnqueueWriteBuffer(s.queue, s.buffer, CL_TRUE, 0, n, host.data(), 0,
                                           nullptr, nullptr)
                    : clEnqueueReadBuffer(s.queue, s.buffer, CL_TRUE, 0, n, host.data(), 0, nullptr,
                                          nullptr);
    ok = ok && err == CL_SUCCESS && clFinish(s.queue) == CL_SUCCESS;
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
        .count();
  };
  auto median_us = [&](bool to_device, std::size_t n, int trials) {
    std::vector<double> us;
    for (int t = 0; t < trials && ok; ++t) us.push_back(copy_us(to_device, n));
    return median(us);
  };
  std::vector<double> fresh_us;
  for (int trial = 0; trial < 3 && ok; ++trial) {
    if (s.buffer != nullptr) clReleaseMemObject(s.buffer);
    s.buffer = clCreateBuffer(s.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    if (err != CL_SUCCESS) {
      s.buffer = nullptr;
      return false;
    }
    fresh_us.push_back(copy_us(true, bytes));
  }
  // The last buffer, its pages touched: the warm copies StarPU's model is made of.
  link.htod_us_per_byte = median_us(true, bytes, 5) / static_cast<double>(bytes);
  link.dtoh_us_per_byte = median_us(false, bytes, 5) / static_cast<double>(bytes);
  link.htod_latency_us = median_us(true, 1, 9);
  link.dtoh_latency_us = median_us(false, 1, 9);
  const double fresh = median(fresh_us);
  link.fresh_bytes_per_us = fresh > 0 ? static_cast<double>(bytes) / fresh : 0;
  link.memory_bytes = memory;
  link.name = name;
  return ok && link.htod_us_per_byte > 0 && link.dtoh_us_per_byte > 0;
}

std::string number(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// StarPU's latency (us) or bandwidth (bytes/us) matrix: STARPU_MAXNODES rows of as many
// tab-separated cells, node 0 the host, 1.. the devices; a copy between devices is the sum
// of its two halves (StarPU adds their slownesses); unused nodes nan, a node to itself 0.
std::string matrix_file(const std::vector<Link>& links, bool bandwidth) {
  const std::size_t nodes = links.size() + 1;
  std::string text = "# ";
  for (int dst = 0; dst < STARPU_MAXNODES; ++dst) text += "to " + std::to_string(dst) + "\t\t";
  text += "\n";
  for (std::size_t src = 0; src < STARPU_MAXNODES; ++src) {
    for (std::size_t dst = 0; dst < STARPU_MAXNODES; ++dst) {
      double value = NAN;
      if (src < nodes && dst < nodes) {
        double sum = 0;  // slowness (us/byte) or latency (us)
        if (src > 0)
          sum += bandwidth ? links[src - 1].dtoh_us_per_byte : links[src - 1].dtoh_latency_us;
        if (dst > 0)
          sum += bandwidth ? links[dst - 1].htod_us_per_byte : links[dst - 1].htod_latency_us;
        value = src == dst ? 0 : bandwidth ? 1 / sum : sum;
      }
      text += (dst ? "\t" : "") + number("%e", value);
    }
    text += "\n";
  }
  return text;
}

std::string config_file(int cpus, std::size_t devices) {
  const std::string n = std::to_string(devices);
  std::string text = "# Current configuration\n" + std::to_string(cpus) + " # Number of CPUs\n";
  if (kStarPU14)  // one line per kind of memory node, in starpu_node_kind's order
    text += "1 # Number of NUMA nodes\n0 # Number of CUDA nodes\n" + n +
            " # Number of OpenCL nodes\n0 # Number of FPGA nodes\n0 # Number of Disk nodes\n"
            "0 # Number of MPI_MS nodes\n0 # Number of TCPIP_MS nodes\n0 # Number of HIP nodes\n";
  else
    text += "1 # Number of NUMA nodes\n0 # Number of CUDA devices\n" + n +
            " # Number of OpenCL devices\n0 # Number of MIC devices\n0 # Number of MPI devices\n";
  return text + kMarker + "\n";
}

std::string affinity_file(std::size_t devices) {
  std::string text = "# GPU\tNUMA0\t\n";
  for (std::size_t i = 0; i < devices; ++i) text += std::to_string(i) + "\t0\t\n";
  return text;
}

// The SimGrid platform StarPU writes beside its bus model (version 3 or 4 of SimGrid's
// format), for a simulated StarPU that would replay this machine.
std::string platform_file(int version, int cpus, const std::vector<Link>& links) {
  const bool v3 = version == 3;
  const std::string speed = v3 ? "power" : "speed", flops = v3 ? "" : "f", bps = v3 ? "" : "Bps",
                    s = v3 ? "" : "s", dash = v3 ? "_" : "-";
  double host_bandwidth = 0;  // bytes/s: the fastest copy
  for (const Link& l : links)
    host_bandwidth = std::max({host_bandwidth, 1e6 / l.htod_us_per_byte, 1e6 / l.dtoh_us_per_byte});
  std::string text = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM '" +
                     std::string(v3 ? "http://simgrid.gforge.inria.fr/simgrid.dtd"
                                    : "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd") +
                     "'>\n <platform version=\"" + std::to_string(version) +
                     "\">\n <config id=\"General\">\n"
                     "   <prop id=\"network/TCP" +
                     dash +
                     "gamma\" value=\"-1\"></prop>\n"
                     "   <prop id=\"network/latency" +
                     dash +
                     "factor\" value=\"1\"></prop>\n"
                     "   <prop id=\"network/bandwidth" +
                     dash +
                     "factor\" value=\"1\"></prop>\n"
                     "   <prop id=\"network/crosstraffic\" value=\"0\"></prop>\n"
                     "   <prop id=\"network/weight" +
                     dash +
                     "S\" value=\"0.0\"></prop>\n"
                     " </config>\n <AS  id=\"AS0\"  routing=\"Full\">\n"
                     "   <host id=\"MAIN\" " +
                     speed + "=\"1" + flops + "\"/>\n";
  for (int i = 0; i < cpus; ++i)
    text += "   <host id=\"CPU" + std::to_string(i) + "\" " + speed + "=\"2000000000" + flops +
            "\"/>\n";
  for (std::size_t i = 0; i < links.size(); ++i) {
    text += "   <host id=\"OpenCL" + std::to_string(i) + "\" " + speed + "=\"2000000000" + flops +
            "\">\n";
    if (kStarPU14) text += "     <prop id=\"model\" value=\"" + links[i].name + "\"/>\n";
    text += "     <prop id=\"memsize\" value=\"" + std::to_string(links[i].memory_bytes) +
            "\"/>\n   </host>\n";
  }
  text += "\n   <host id=\"RAM\" " + speed + "=\"1" + flops + "\"/>\n";
  const std::string host_link = number("%f", host_bandwidth) + bps;
  // StarPU 1.4 names the host's links NUMA0 and Interconnect; 1.3 has one, Host.
  const std::string hub = kStarPU14 ? "Interconnect" : "Host";
  if (kStarPU14)
    text += "   <link id=\"NUMA0\" bandwidth=\"" + host_link + "\" latency=\"0.000000" + s +
            "\"/>\n   <link id=\"Interconnect\" bandwidth=\"" + host_link +
            "\" latency=\"0.000000" + s + "\"/>\n\n";
  else
    text += "\n   <link id=\"Host\" bandwidth=\"" + host_link + "\" latency=\"0.000000" + s +
            "\"/>\n\n";
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string dev = "OpenCL" + std::to_string(i);
    text += "   <link id=\"RAM-" + dev + "\" bandwidth=\"" +
            number("%f", 1e6 / links[i].htod_us_per_byte) + bps + "\" latency=\"" +
            number("%f", links[i].htod_latency_us / 1e6) + s + "\"/>\n";
    text += "   <link id=\"" + dev + "-RAM\" bandwidth=\"" +
            number("%f", 1e6 / links[i].dtoh_us_per_byte) + bps + "\" latency=\"" +
            number("%f", links[i].dtoh_latency_us / 1e6) + s + "\"/>\n";
  }
  text += "\n";
  for (std::size_t i = 0; i < links.size(); ++i) {
    const std::string dev = "OpenCL" + std::to_string(i);
    text += "   <route src=\"RAM\" dst=\"" + dev + "\" symmetrical=\"NO\"><link_ctn id=\"RAM-" +
            dev + "\"/><link_ctn id=\"" + hub + "\"/></route>\n";
    text += "   <route src=\"" + dev + "\" dst=\"RAM\" symmetrical=\"NO\"><link_ctn id=\"" + dev +
            "-RAM\"/><link_ctn id=\"" + hub + "\"/></route>\n";
  }
  return text + " </AS>\n </platform>\n";
}

// The fresh-buffer bandwidths measured at this start, per StarPU OpenCL device id (its
// order of devices); 0: none.
double g_fresh_at_start[STARPU_MAXOPENCLDEVS] = {};

}  // namespace

double fresh_bandwidth_measured_at_start(int devid) {
  return devid >= 0 && devid < STARPU_MAXOPENCLDEVS ? g_fresh_at_start[devid] : 0;
}

void write_host_opencl_bus_model() {
  for (double& b : g_fresh_at_start) b = 0;
#ifdef STARPU_USE_CUDA
  return;  // a CUDA-enabled StarPU counts (and measures) the machine's GPUs too
#else
  if (!kKnownFormat) return;
  const char* recalibrate = std::getenv("STARPU_BUS_CALIBRATE");
  if (recalibrate != nullptr && std::atoi(recalibrate) > 0) return;
  const char* use_numa = std::getenv("STARPU_USE_NUMA");
  if ((use_numa != nullptr && std::atoi(use_numa) > 0) || numa_nodes() != 1) return;
  const std::string sampling = sampling_folder();
  const std::string host = starpu_host_name();
  const int cpus = host_cores();
  if (sampling.empty() || host.empty() || cpus <= 0) return;
  const std::vector<cl_device_id> devices = starpu_opencl_devices();
  if (devices.empty()) return;
  // A model measured with these devices: StarPU loads it (or decides itself that it must
  // calibrate again).
  if (bus_model_opencl_devices() == static_cast<int>(devices.size())) return;
  std::vector<Link> links(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (!measure(devices[i], links[i])) return;
  for (std::size_t i = 0; i < devices.size(); ++i)
    g_fresh_at_start[i] = links[i].fresh_bytes_per_us;
  const std::string bus = sampling + "bus/" + host + ".";
  const std::vector<std::pair<std::string, std::string> > files_in_order = {
      {"affinity", affinity_file(devices.size())},
      {"latency", matrix_file(links, false)},
      {"bandwidth", matrix_file(links, true)},
      {"platform.xml", platform_file(3, cpus, links)},
      {"platform.v4.xml", platform_file(4, cpus, links)},
      {"config", config_file(cpus, devices.size())}};
  for (const auto& [kind, text] : files_in_order) {
    if (const std::string problem = files::write_file(bus + kind, text); !problem.empty()) {
      std::cerr << "peppher: warning: '" << bus + kind << "' " << problem
                << ": StarPU measures the bus itself\n";
      return;
    }
  }
#endif
}

}  // namespace peppher::detail
