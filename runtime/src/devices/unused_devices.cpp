// Devices the program's last run did not need are not started (unused_devices.h).
//
// Why. Starting a device costs before any call: beside pocl 0.13 s of the start (loading its
// LLVM), a CUDA context 0.1-0.5 s; on a 2-core machine that work competes with the program's
// own set-up. A program whose calls all run best on the host (its history models measured
// every variant, device ones included, at the sizes it calls) pays it for nothing: PolyBench's
// GEMM beside pocl, 0.45 s whole, took 0.13 s more than on the CPU workers alone.
//
// How. At shutdown a run with devices keeps, per program (its executable's path), the list
// of calls (interface, data footprint) that ran best on the host, when every call of the run
// was decided by a complete model that way and nothing ran on a device. The next run of the
// program then starts without devices (unless anything asks for them). A run without
// devices keeps the list only if each of its calls is on it: a call at another size (another
// footprint), one left to the schedulers or still learning drops it, and the run after
// starts the devices again and measures. The record is a hint: damaged or absent, the
// devices start.
#include "devices/unused_devices.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "common/files.h"
#include "devices/devices.h"
#include "lifecycle/model_files.h"
#include "peppher/detail/distributed.h"
#include "peppher/selection.h"

namespace peppher::detail {
namespace {

// A call by its interface and the bytes of its operands (what makes a history model's
// footprint, and what a call run without a model's task also knows).
using HostCall = std::pair<std::string, std::uint64_t>;

std::mutex g_mutex;
std::atomic<bool> g_skipped{false};  // this run started no device because of the record
std::set<HostCall> g_record;         // the record this run started with (when skipped)
// (Runs with devices) calls that ran best on the host, by their selector's interface name
// (generated selectors live as long as the program): no string copied per call.
std::set<std::pair<const std::string*, std::uint64_t>> g_host_calls;
std::uint64_t g_notes = 0;   // calls noted (tasks a model chose for; skipped runs:
                             // calls a model prepared)
bool g_all_on_host = true;   // every noted call ran best on the host
bool g_all_recorded = true;  // (skipped runs) every noted call was on the record

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

// The record's path: <sampling>/peppher-devices/<host>.<executable name>-<path hash>; "" when
// StarPU keeps no models or the executable is unknown.
std::string record_path() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::string sampling = sampling_folder();
  const std::string host = starpu_host_name();
  if (ec || exe.empty() || sampling.empty() || host.empty()) return "";
  std::uint64_t hash = 1469598103934665603ull;  // FNV-1a of the full path
  for (unsigned char c : exe.string()) hash = (hash ^ c) * 1099511628211ull;
  char suffix[24];
  std::snprintf(suffix, sizeof suffix, "-%016llx", static_cast<unsigned long long>(hash));
  return sampling + "peppher-devices/" + host + "." + exe.filename().string() + suffix;
}

// The record's calls; false when there is none or it is not as written here (then ignored
// with a warning naming it: the devices start, and this run writes it anew or removes it).
bool read_record(const std::string& path, std::set<HostCall>& calls) {
  std::string text;
  const std::string problem = files::read_file(path, 1u << 20, text);
  if (problem == files::kDoesNotExist) return false;
  auto ignored = [&](const std::string& why) {
    std::cerr << "peppher: warning: '" << path << "' " << why
              << ": ignored, this run starts its devices\n";
    return false;
  };
  if (!problem.empty()) return ignored(problem);
  std::istringstream lines(text);
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string bytes, name, extra;
    char* end = nullptr;
    errno = 0;
    const unsigned long long value =
        (in >> bytes >> name) && !(in >> extra) && !bytes.empty() && bytes[0] != '-'
            ? std::strtoull(bytes.c_str(), &end, 10)
            : 0;
    if (end == nullptr || *end != '\0' || errno != 0)
      return ignored("line " + std::to_string(number) + " is not '<operand bytes> <interface>'");
    calls.emplace(name, value);
  }
  return true;  // no call at all: a run that made none (then any call drops it)
}

// Whether something asks this run for devices, or a call could not run without them.
bool devices_asked(const starpu_conf& conf) {
  if (distributed() != nullptr) return true;  // ranks must agree on their workers
  if (env_set("PEPPHER_VARIANT") || env_set("PEPPHER_PLACEMENT")) return true;
  if (env_set("STARPU_NOPENCL") || conf.nopencl != -1) return true;
#ifdef STARPU_USE_CUDA
  if (env_set("STARPU_NCUDA") || conf.ncuda != -1) return true;
#endif
  for (const VariantSelector* s : selectors()) {
    bool host = false;
    for (std::size_t k = 0; k < s->variants().size(); ++k)
      host = host || s->backend(k).worker == STARPU_CPU_WORKER;
    if (!host) return true;
  }
  return false;
}

}  // namespace

void skip_devices_unused_last_run(starpu_conf& conf) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_skipped = false;
  g_record.clear();
  g_host_calls.clear();
  g_notes = 0;
  g_all_on_host = g_all_recorded = true;
#ifndef STARPU_SIMGRID
  if (devices_asked(conf)) return;
  std::set<HostCall> record;
  if (!read_record(record_path(), record)) return;
  conf.nopencl = 0;
#ifdef STARPU_USE_CUDA
  conf.ncuda = 0;
#endif
  g_record = std::move(record);
  g_skipped = true;
#else
  (void)conf;
#endif
}

bool devices_skipped_this_run() noexcept {
  return g_skipped.load(std::memory_order_relaxed);
}

void note_call_outcome(const std::string& interface, std::uint64_t bytes,
                       bool best_on_host) noexcept {
  if (devices_skipped_this_run()) return;  // noted when prepared (note_call_without_devices)
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_notes;
    g_all_on_host = g_all_on_host && best_on_host;
    if (best_on_host && g_host_calls.size() < 10000) g_host_calls.emplace(&interface, bytes);
  } catch (...) {
    g_all_on_host = false;  // no memory for the note: the devices start next time
  }
}

bool calls_noted_best_on_host() noexcept {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_all_on_host;
}

void note_call_without_devices(const std::string& interface, std::uint64_t bytes) noexcept {
  if (!devices_skipped_this_run()) return;
  try {
    std::lock_guard<std::mutex> lock(g_mutex);
    ++g_notes;
    if (g_record.count({interface, bytes}) == 0) g_all_recorded = false;
  } catch (...) {
    g_all_recorded = false;
  }
}

void keep_device_record(std::uint64_t runs, std::uint64_t device_runs, bool had_devices) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const std::string path = record_path();
  if (path.empty()) return;
  // Every call of the run was decided by a complete model for the host (no call forced,
  // statically dispatched or placed without a model: those are runs without a note). A run
  // without any call needed no device either.
  const bool host_only = g_notes == runs && device_runs == 0 && g_all_on_host;
  if (g_skipped) {
    if (host_only && g_all_recorded) return;  // every call on the record: kept
    std::remove(path.c_str());                // the next run starts the devices and measures
    return;
  }
  if (!had_devices) return;  // nothing learnt about devices
  if (!host_only) {
    std::remove(path.c_str());
    return;
  }
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::string text =
      "# Calls (operand bytes, interface) that ran best on the host, every device variant\n"
      "# measured: the next run of this program starts no device (docs/SELECTION.md,\n"
      "# \"Devices the last run did not need\")\n";
  for (const auto& [interface, bytes] : g_host_calls)
    text += std::to_string(bytes) + " " + *interface + "\n";
  if (const std::string problem = files::write_file(path, text); !problem.empty())
    std::cerr << "peppher: warning: '" << path << "' " << problem
              << ": the next run starts the devices\n";
}

}  // namespace peppher::detail
