// Skipping the OpenCL platforms when a run cannot use them (opencl_platforms.h).
//
// Measured on this project's 2-core machine (Debian 12, pocl 3.1): an empty composed program
// on 2 CPU workers took 145 ms from exec to exit, 100 of them in the dynamic loader
// relocating libLLVM and libclang-cpp, which StarPU's OpenCL discovery pulls in through
// pocl's ICD even with STARPU_NOPENCL=0; with the platforms hidden, 42 ms (the same program
// without the runtime: 9 ms). Loading pocl also installs its SIGFPE handler (docs/SECURITY.md).
//
// The ICD loader (ocl-icd, and Khronos' loader) reads its vendor list from OCL_ICD_VENDORS
// when set: a path that does not exist gives no platform. A variant's kind is known before
// init() from the generated selectors (selection.h), which register before main().
#include "devices/opencl_platforms.h"

#include <cstdlib>

#include "devices/devices.h"
#include "devices/start_environment.h"
#include "lifecycle/model_files.h"
#include "peppher/selection.h"

namespace peppher::detail {
namespace {

constexpr const char* kNoVendors = "/nonexistent/peppher-run-without-opencl-variants";

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

bool some_variant_runs_on_opencl() {
  for (const VariantSelector* s : selectors())
    for (std::size_t k = 0; k < s->variants().size(); ++k)
      if (s->backend(k).worker == STARPU_OPENCL_WORKER) return true;
  return false;
}

}  // namespace

void skip_unused_opencl_platforms(const starpu_conf& conf) {
  if (env_set("OCL_ICD_VENDORS") || env_set("OCL_ICD_FILENAMES")) return;
  // nopencl > 0: workers asked for by count (a program's own codelets may use them).
  const bool wanted = conf.nopencl > 0 || (conf.nopencl < 0 && some_variant_runs_on_opencl());
  if (wanted) return;
  // StarPU compares the devices it finds with those its bus model was measured with, and
  // measures the bus again when they differ (every process sharing the model then rewrites
  // it at once: runs that alternated hid and found pocl recalibrated at every start, and 4
  // MPI ranks read a half-written file). So the platforms are hidden only where the bus
  // model was measured without OpenCL devices, or not yet; or where the program's last run
  // needed no device (unused_devices.cpp): loading pocl is the cost saved, and StarPU's bus
  // model without devices is quick to write (no copy to measure), the runtime's for pocl too
  // (host_opencl_bus.cpp).
  if (bus_model_opencl_devices() > 0 && !devices_skipped_this_run()) return;
  set_for_start("OCL_ICD_VENDORS", kNoVendors);  // the program gets its own back after
}

}  // namespace peppher::detail
