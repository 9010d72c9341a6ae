// The linkage the program gives its calls: a C++ main source that includes a C library's
// header (`extern "C" void saxpy(...)`, the usual way C functions reach C++) calls the
// interface with C linkage, so its entry wrapper must be declared and defined extern "C"
// too, or the program does not compile (the wrapper header's C++ declaration conflicts
// with the library's) or does not link (the wrapper's symbol is mangled).
#pragma once

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::facts {

/// What the application's own sources (main.xml's, C and C++) say of its interfaces, found
/// by parsing each with Clang (function bodies skipped; the generated headers, which do not
/// exist yet, read as empty). A source Clang cannot read contributes what it declared
/// before the problem. `main_source_flags`: their flags (program_sources);
/// `system_include_dirs`: the runtime's and StarPU's headers.
struct ProgramDeclarations {
  /// The interfaces its C++ sources declare with C linkage (none when a C source calls
  /// them: every C-typed entry wrapper is extern "C" then, plan::has_c_callers).
  std::set<std::string> c_declared;
  /// Where a source defines a function named like an interface, at global scope: the
  /// legacy kernel that the composition's entry wrapper replaces (its code now lives in the
  /// variants). Left in, the program does not compile or does not link.
  std::vector<std::pair<std::string, ir::SourceLoc>> definitions;  // (interface, where)
  /// What a source includes that is no regular file (a FIFO, a device: never opened, and
  /// the compiler would block on it): "'PATH' is not a regular file (a FIFO)" at the #include.
  std::vector<std::pair<ir::SourceLoc, std::string>> refused;
};
ProgramDeclarations read_program_declarations(const ir::Application& app,
                                              const ir::Options& options,
                                              const std::vector<std::string>& main_source_flags,
                                              const std::vector<std::string>& system_include_dirs);

}  // namespace peppher::facts
