// Utility mode (`compose -generateCompFiles="a.h,b.h"`): component skeletons from C/C++
// headers. Scans each header (scan/), plans and prints the skeletons (skeleton/), then
// writes them, never over an existing file unless forced. The driver's only entry here.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::utility {

struct UtilityOptions {
  std::vector<std::string> headers;    // -generateCompFiles="a.h,b.h"
  std::string output_dir;              // -o DIR; empty: next to each header
  std::vector<std::string> functions;  // --functions a,b: only these (empty: all)
  bool force = false;                  // --force: overwrite existing files
  bool light = false;  // --light: the header annotated and variant skeletons (docs/FORMAT.md)
  // Compiler flags in command-line order: -I DIR / -D NAME[=V] (as "-IDIR", "-DNAME=V")
  // and everything after `--`.
  std::vector<std::string> clang_args;
  std::string compile_commands_dir;  // -p DIR (holding compile_commands.json)
  // The runtime's and StarPU's header folders, searched after the user's -I folders (as
  // -isystem) and left out of the skeletons' flags: the generated Makefile adds them itself.
  std::vector<std::string> system_include_dirs;
  int verbosity = 0;  // -v >= 1: time per header
};

// The options from the parsed command line (headers, -o, -v); the caller sets the rest.
UtilityOptions utility_options(const ir::Options& options,
                               const std::vector<std::string>& clang_args);

// Runs utility mode. Diagnostics (GCC format) go to diag; progress (kept files, -v timings)
// to out. Returns the exit code: 1 when any error was reported (then nothing is written).
int run_utility_mode(const UtilityOptions& options, diag::Diagnostics& diag, std::ostream& out);

// Same, with only what ir::Options holds (no --functions / --force / -p).
int run_utility_mode(const ir::Options& options, const std::vector<std::string>& clang_args,
                     diag::Diagnostics& diag, std::ostream& out);

}  // namespace peppher::utility
