// The backends as one table, like StarPU's driver_info records: for each ir::Backend, its
// descriptor spelling, StarPU names, default compiler and flags, templates, and how its
// variants are built and verified. Stages ask here instead of switching on the backend.
#pragma once

#include <iterator>
#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::ir {

// What a backend's variant is, which decides how it is compiled and how verify/ checks it.
enum class VariantCode {
  Function,      // a C/C++ function, compiled by the host compiler (CPU, OPENMP)
  CudaFunction,  // a CUDA C++ function, compiled by nvcc, parsed by Clang as CUDA
  Kernel,        // an OpenCL kernel, built at run time (or a host-side function launching it)
};

// One backend. Backends sharing a codelet group (OPENMP shares CPU's cpu_funcs) repeat the
// group's fields; the group's own record is the one with codelet_group == backend.
struct BackendInfo {
  Backend backend = Backend::Cpu;
  const char* name = "";         // the descriptor's platform spelling (any case), to_string
  const char* label = "";        // in messages: "OpenMP", "CUDA"
  const char* prefix = "";       // backend wrapper names: peppher_<prefix>_<variant>
  const char* inline_kind = "";  // the runtime's peppher::InlineKind (peppher/inline_call.h)
  Backend codelet_group = Backend::Cpu;  // the backend whose codelet slots its variants share
  // Of the codelet group.
  const char* group_label = "";      // "CPU" for OPENMP too ("when CPU is disabled")
  const char* slots_label = "";      // in the slot-limit message: "CPU/OPENMP"
  const char* where = "";            // StarPU where-mask: "STARPU_CUDA"
  const char* worker_kind = "";      // starpu_worker_archtype: "STARPU_CUDA_WORKER"
  const char* worker_count = "";     // the run's worker count: "starpu_cuda_worker_get_count()"
  const char* worker_property = "";  // the platform name counting its workers: "num_cuda"
  const char* codelet_field = "";    // the starpu_codelet field of its functions: "cuda_funcs"
  const char* template_key = "";     // wrapper.cpp.mustache: <key>_variants, <key>_base
  bool accelerator = false;          // a device: disabled, the platform counts no workers of it
  // The switch that disables it: the interface attribute, the command-line option and the
  // --dump-ir field ("disableCUDA"), and where each is kept.
  const char* disable_switch = "";
  bool Options::*disabled_by_option = nullptr;
  bool Interface::*disabled_by_interface = nullptr;
  // Of the backend itself.
  VariantCode code = VariantCode::Function;
  const char* default_compiler = nullptr;  // a source naming none: nullptr, by its language
  const char* required_flag = nullptr;     // every source of a variant gets it: "-fopenmp"
  const char* instances_suffix = "";       // a generic variant's instantiations: "_instances.cu"
  bool parallel = false;                   // runs on combined workers (fork-join)
};

inline constexpr size_t kBackendCount = std::size(kAllBackends);

/// Every backend, in ir::Backend order (which is also codelet and selection order).
const std::vector<BackendInfo>& backends();

/// The record of backend b.
const BackendInfo& info(Backend b);

/// The backend a descriptor's platform names, in any case ("OpenCL", "cuda"), or null.
const BackendInfo* find_backend(const std::string& spelling);

/// The backends that own a codelet group (CPU, CUDA, OPENCL), in codelet order.
std::vector<Backend> codelet_groups();

/// Whether a and b share codelet slots (CPU and OPENMP do).
bool same_codelet_group(Backend a, Backend b);

/// Whether b's variant can run on the calling thread: a sequential host function (CPU).
bool sequential_host(Backend b);

/// The position of b in backends(): for arrays with one entry per backend.
inline int index(Backend b) {
  return static_cast<int>(b);
}

}  // namespace peppher::ir
