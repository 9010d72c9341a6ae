// The emit stage: prints the plan (plan/) as every generated file's text (wrappers,
// peppher.h, Makefile, peppher.cmake). It decides nothing the plan decides, reports no user
// error, and never touches the filesystem; the driver writes the result.
#pragma once

#include <string>

#include "compose/output/output_context.h"
#include "compose/plan/plan.h"

namespace peppher::emit {

/// Facts about this installation that end up in the generated Makefile.
struct EmitSettings {
  std::string peppher_cflags;    // how to find the runtime headers, e.g. "-I/usr/include"
  std::string peppher_libs;      // how to link the runtime, e.g. "-L/usr/lib -lpeppher"
  std::string peppher_lib_file;  // the library itself: programs relink when it changes
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
  std::string mpicxx = "mpicxx";  // the MPI C++ compiler of programs composed with --mpi
  // The pkg-config module of the StarPU the program builds with (the runtime's): the
  // generated Makefile's default for PEPPHER_STARPU.
  std::string starpu_module;
  // The composition's identity in the generated headers and build files: its output folder
  // (absolute; empty: the plan's).
  std::string composition_dir;
};

/// Prints everything `plan` decided into `out` (paths relative to the output folder). The
/// plan must be free of errors (plan::plan_application reported none).
void generate(const plan::ApplicationPlan& plan, const EmitSettings& settings,
              output::OutputContext& out);

}  // namespace peppher::emit
