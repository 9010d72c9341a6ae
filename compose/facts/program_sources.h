// The program's own C++ sources as Clang should read them: the sources of main.xml that a
// C++ compiler compiles, with the flags that change what Clang sees. Read by the passes
// that look at how the program calls the interfaces (generic_calls.h, main_linkage.h).
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::facts {

// One source of the program: its path, its Clang flags (paths in them relative to
// `directory`, where its compiler runs: the output folder).
struct ProgramSource {
  std::string path;
  std::vector<std::string> flags;
  std::string directory;
  bool c = false;  // compiled by a C compiler
};

/// The C++ sources of `app` (composed with `options`), and with @p with_c those a C compiler
/// compiles too (never CUDA ones): each with clang_flags() of its compile flags
/// (`main_source_flags`, one per `app.sources`: plan::main_source_flags) and -isystem of each of
/// `system_include_dirs` (the runtime's and StarPU's headers), run in the output folder.
std::vector<ProgramSource> program_sources(const ir::Application& app, const ir::Options& options,
                                           const std::vector<std::string>& main_source_flags,
                                           const std::vector<std::string>& system_include_dirs,
                                           bool with_c);

}  // namespace peppher::facts
