// The program's own C++ sources as Clang should read them: the sources of main.xml that a
// C++ compiler compiles, with the flags that change what Clang sees. Read by the passes
// that look at how the program calls the interfaces (generic_calls.h, main_linkage.h).
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::verify {

// One source of the program: its path, its Clang flags (paths in them relative to
// `directory`, where its compiler runs: the output folder).
struct ProgramSource {
  std::string path;
  std::vector<std::string> flags;
  std::string directory;
};

/// The C++ sources of `app` (not those a C compiler compiles, nor CUDA ones): each with
/// clang_flags() of its compile flags and -isystem of each of `system_include_dirs` (the
/// runtime's and StarPU's headers), run in the output folder.
std::vector<ProgramSource> program_cxx_sources(const ir::Application& app,
                                               const std::vector<std::string>& system_include_dirs);

}  // namespace peppher::verify
