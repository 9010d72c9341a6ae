// Variant verification (compose and --check, after expansion): each enabled variant's
// source is parsed with Clang (source_parser.h) and compared with what its backend wrapper
// will declare and pass. A CPU/OpenMP (and, where Clang can parse CUDA, CUDA) function must
// exist with the interface's parameter types; an OpenCL kernel named by kernel= must exist
// in its file and take the wrapper's arguments in order and type. Mismatches are errors at
// the variant descriptor.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"
#include "compose/plan/plan.h"

namespace peppher::verify {

struct VerifySettings {
  // Searched after the variants' own -I folders: the runtime's and StarPU's headers.
  std::vector<std::string> system_include_dirs;
  // The CUDA toolkit Clang parses CUDA variants with; CUDA variants are verified only when
  // its include/cuda_runtime.h exists (otherwise a note with -v).
  std::string cuda_path = "/usr/local/cuda";
  int verbosity = 0;
};

/// How a verified CPU/OpenMP/CUDA variant's function is declared in its source, where the
/// backend wrapper must declare and call it the same way.
struct FoundFunction {
  bool c_linkage = false;  // extern "C" in a C++ or CUDA source
  std::string scope;       // its namespace ("blas"): the wrapper calls blas::name
};

/// Where an OpenCL kernel takes a localArg of its descriptor: the kernel parameter's index
/// and the size of its pointee type (what the wrapper multiplies the element count by).
struct LocalPlacement {
  const ir::LocalArg* arg = nullptr;
  size_t index = 0;
  int elem_bytes = 0;
};

struct VerifyResult {
  /// By variant name (the base name of tunable copies): the functions found with C linkage
  /// or in a namespace.
  std::map<std::string, FoundFunction> functions;
  /// By OpenCL variant (of the verified application): its kernel's __local arguments.
  std::map<const ir::Variant*, std::vector<LocalPlacement>> local_args;
};

/// Verifies every enabled variant of `app` (an expanded application: one tunable copy per
/// base variant and one instantiation per generic interface are enough, and are the ones
/// parsed; every copy of an OpenCL variant with localArgs, whose element sizes may differ).
/// Reports to `diags`.
VerifyResult verify_variants(const ir::Application& app, const VerifySettings& settings,
                             diag::Diagnostics& diags);

/// Verifies `app` and records what the backend wrappers of `plan` (planned from `app`) must
/// do as the sources say: declare and call a function with C linkage or in its namespace,
/// pass a kernel's __local arguments where it takes them.
void verify_plan(const ir::Application& app, plan::ApplicationPlan& plan,
                 const VerifySettings& settings, diag::Diagnostics& diags);

}  // namespace peppher::verify
