// Shared helpers of the runtime tests: a two-CPU configuration, a runtime session with the
// test kernels loaded, and the bus transfer counter used to check data movements.
#pragma once

#include <starpu.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernels.h"
#include "peppher/runtime.h"

namespace peppher_test {

/// Two CPU workers and no device under @p scheduler, whatever the ctest configuration says.
inline peppher::Config two_cpus(const std::string& scheduler = peppher::Config{}.scheduler) {
  peppher::Config config = peppher::Config::with_scheduler(scheduler);
  config.ncpus = 2;
  config.nopencl = 0;
  config.ncuda = 0;
  return config;
}

/// A runtime session (StarPU workers from the ctest environment) with the kernels loaded.
struct Session {
  peppher::Runtime runtime;
  Session() { load_kernels(); }
};

/// Total number of transfers over every bus since the previous call (StarPU resets the
/// counters when they are read). Needs profiling enabled before the transfers happen.
inline int bus_transfers() {
  int total = 0;
  for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
    starpu_profiling_bus_info info;
    if (starpu_bus_get_profiling_info(bus, &info) == 0) total += info.transfer_count;
  }
  return total;
}

// A history model of its own for this process (nothing left from an earlier run), its
// symbol "<prefix><name>_<pid>"; its file, which StarPU writes at shutdown, is removed when
// it goes (so it must outlive the runtime session).
struct HistoryModel {
  std::string symbol;
  starpu_perfmodel model{};
  HistoryModel(const char* prefix, const char* name)
      : symbol(std::string(prefix) + name + "_" + std::to_string(getpid())) {
    model.type = STARPU_HISTORY_BASED;
    model.symbol = symbol.c_str();
  }
  ~HistoryModel() {
    char path[1024];
    starpu_perfmodel_get_model_path(symbol.c_str(), path, sizeof path);
    std::remove(path);
  }
};

// Sets an environment variable for one scope, restoring the previous value afterwards.
struct ScopedEnv {
  std::string name;
  bool had = false;
  std::string old;
  ScopedEnv(const char* n, const char* value) : name(n) {
    if (const char* o = std::getenv(n)) {
      had = true;
      old = o;
    }
    if (value != nullptr)
      setenv(n, value, 1);
    else
      unsetenv(n);
  }
  ~ScopedEnv() {
    if (had)
      setenv(name.c_str(), old.c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

/// @brief What this process writes to stderr (fd 2) while @p f runs.
template <typename F>
std::string stderr_of(F&& f) {
  std::fflush(stderr);
  char name[] = "/tmp/peppher-stderr-XXXXXX";
  const int capture = mkstemp(name);
  const int saved = dup(2);
  dup2(capture, 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(capture);
  std::string text;
  if (FILE* in = std::fopen(name, "r")) {
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, in)) > 0;) text.append(buffer, n);
    std::fclose(in);
  }
  std::remove(name);
  return text;
}

}  // namespace peppher_test
