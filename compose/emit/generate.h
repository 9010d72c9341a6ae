// The emit stage: from the checked IR to every generated file's text (wrappers, peppher.h,
// Makefile, peppher.cmake). It never touches the filesystem; the driver writes the result.
#pragma once

#include <map>
#include <string>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::emit {

/// Facts about this installation that end up in the generated Makefile.
struct EmitSettings {
  std::string peppher_cflags;  // how to find the runtime headers, e.g. "-I/usr/include"
  std::string peppher_libs;    // how to link the runtime, e.g. "-L/usr/lib -lpeppher"
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
};

/// Generated files: path relative to the output folder -> text. Sorted, so deterministic.
using GeneratedFiles = std::map<std::string, std::string>;

/// Generates everything for `app`. Reports what cannot be generated to `diags`; the result
/// must not be written when `diags` has errors.
GeneratedFiles generate(const ir::Application& app, const EmitSettings& settings,
                        diag::Diagnostics& diags);

}  // namespace peppher::emit
