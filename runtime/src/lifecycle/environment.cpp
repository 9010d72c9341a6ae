// Checking the environment before StarPU starts (environment.h).
#include "lifecycle/environment.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lifecycle/model_files.h"
#include "peppher/error.h"

namespace peppher::detail {
namespace {

// StarPU's numeric variables (starpu_get_env_number: a whole number >= 0, or it asserts)
// that a user of this runtime sets: worker counts, calibration, copies, limits.
constexpr const char* kStarpuNumbers[] = {"STARPU_NCPU",
                                          "STARPU_NCPUS",
                                          "STARPU_NCUDA",
                                          "STARPU_NOPENCL",
                                          "STARPU_NMIC",
                                          "STARPU_NMPI_MS",
                                          "STARPU_NWORKER_PER_CUDA",
                                          "STARPU_OPENCL_ON_CPUS",
                                          "STARPU_OPENCL_ONLY_ON_CPUS",
                                          "STARPU_CALIBRATE",
                                          "STARPU_CALIBRATE_MINIMUM",
                                          "STARPU_BUS_CALIBRATE",
                                          "STARPU_PREFETCH",
                                          "STARPU_SINGLE_COMBINED_WORKER",
                                          "STARPU_MIN_WORKERSIZE",
                                          "STARPU_MAX_WORKERSIZE",
                                          "STARPU_NTHREADS_PER_CORE",
                                          "STARPU_WORKERS_NOBIND",
                                          "STARPU_SILENT",
                                          "STARPU_PROFILING",
                                          "STARPU_STATS",
                                          "STARPU_HISTORY_MAX_ERROR",
                                          "STARPU_DISABLE_ASYNCHRONOUS_COPY",
                                          "STARPU_DISABLE_ASYNCHRONOUS_OPENCL_COPY",
                                          "STARPU_DISABLE_ASYNCHRONOUS_CUDA_COPY",
                                          "STARPU_LIMIT_CPU_MEM",
                                          "STARPU_LIMIT_OPENCL_MEM",
                                          "STARPU_LIMIT_CUDA_MEM",
                                          "STARPU_CUDA_PIPELINE",
                                          "STARPU_OPENCL_PIPELINE",
                                          "STARPU_WATCHDOG_TIMEOUT"};

// Whether StarPU reads @p value as a number >= 0 (strtol to its end; "" is 0).
bool whole_number(const char* value) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(value, &end, 10);
  return *end == '\0' && errno == 0 && n >= 0 && n <= 0x7fffffff;
}

}  // namespace

void check_environment() {
  for (const char* name : kStarpuNumbers) {
    const char* value = std::getenv(name);
    if (value != nullptr && !whole_number(value))
      throw Error(std::string("init: ") + name + "='" + value +
                  "' is not a whole number 0 or more (unset it for StarPU's default)");
  }
  if (const std::string problem = model_folder_problem(); !problem.empty())
    throw Error("init: " + problem);
  const char* report = std::getenv("PEPPHER_REPORT");
  if (report != nullptr && *report != '\0' && std::strcmp(report, "0") != 0 &&
      std::strcmp(report, "1") != 0)
    throw Error(std::string("init: PEPPHER_REPORT='") + report +
                "' is neither 1 (print the execution report at shutdown) nor 0");
}

bool report_requested() noexcept {
  const char* report = std::getenv("PEPPHER_REPORT");
  return report != nullptr && std::strcmp(report, "1") == 0;
}

}  // namespace peppher::detail
