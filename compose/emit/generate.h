// The emit stage: from the checked IR to every generated file's text (wrappers, peppher.h,
// Makefile, peppher.cmake). It never touches the filesystem; the driver writes the result.
#pragma once

#include <string>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"
#include "compose/output/output_context.h"

namespace peppher::emit {

/// Facts about this installation that end up in the generated Makefile.
struct EmitSettings {
  std::string peppher_cflags;  // how to find the runtime headers, e.g. "-I/usr/include"
  std::string peppher_libs;    // how to link the runtime, e.g. "-L/usr/lib -lpeppher"
  std::string peppher_lib_file;  // the library itself: programs relink when it changes
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
};

/// Takes every decision `generate` would take and reports what cannot be generated to
/// `diags`, without rendering anything (what `compose --check` runs).
void plan_only(const ir::Application& app, diag::Diagnostics& diags);

/// Generates everything for `app` into `out` (paths relative to the output folder).
/// Reports what cannot be generated to `diags`; `out` must not be written when `diags` has
/// errors.
void generate(const ir::Application& app, const EmitSettings& settings,
              output::OutputContext& out, diag::Diagnostics& diags);

}  // namespace peppher::emit
