// The linkage the program gives its calls: a C++ main source that includes a C library's
// header (`extern "C" void saxpy(...)`, the usual way C functions reach C++) calls the
// interface with C linkage, so its entry wrapper must be declared and defined extern "C"
// too, or the program does not compile (the wrapper header's C++ declaration conflicts
// with the library's) or does not link (the wrapper's symbol is mangled).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::verify {

/// The interfaces that the application's C++ main sources declare with C linkage, found by
/// parsing each with Clang (function bodies skipped; the generated headers, which do not
/// exist yet, read as empty). A source Clang cannot read contributes what it declared
/// before the problem. `system_include_dirs`: the runtime's and StarPU's headers.
std::set<std::string> c_declared_interfaces(const ir::Application& app,
                                            const std::vector<std::string>& system_include_dirs);

}  // namespace peppher::verify
