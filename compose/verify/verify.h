// Variant verification (compose and --check, after expansion): each enabled variant's
// source is parsed with Clang (source_parser.h) and compared with what its backend wrapper
// will declare and pass. A CPU/OpenMP (and, where Clang can parse CUDA, CUDA) function must
// exist with the interface's parameter types; an OpenCL kernel named by kernel= must exist
// in its file and take the wrapper's arguments in order and type, and its file must build
// (kernel_build.h). Mismatches are errors at the variant descriptor.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/facts/source_facts.h"
#include "compose/ir/ir.h"

namespace peppher::verify {

struct VerifySettings {
  // Searched after the variants' own -I folders: the runtime's and StarPU's headers.
  std::vector<std::string> system_include_dirs;
  // The CUDA toolkit Clang parses CUDA variants with; CUDA variants are verified only when
  // its include/cuda_runtime.h exists (otherwise a note with -v).
  std::string cuda_path = "/usr/local/cuda";
  // The helper that builds OpenCL kernel files with the machine's OpenCL platforms
  // (kernel_build.h); "" compiles them with Clang's OpenCL C front end instead. A build
  // taking more than the timeout is killed (a warning: not checked).
  std::string opencl_checker;
  int opencl_check_timeout_s = 60;
  int verbosity = 0;
};

using facts::FoundFunction;
using facts::LocalPlacement;
using VerifyResult = facts::VariantFacts;

/// Verifies every enabled variant of `app` (composed with `options`; an expanded application: one
/// tunable copy per base variant and one instantiation per generic interface are enough, and are
/// the ones parsed; every copy of an OpenCL variant with localArgs, whose element sizes may
/// differ). Reports to `diags`; returns what plan/ takes from the sources (facts/source_facts.h).
VerifyResult verify_variants(const ir::Application& app, const ir::Options& options,
                             const VerifySettings& settings, diag::Diagnostics& diags);

}  // namespace peppher::verify
