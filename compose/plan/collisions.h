// Generated names that would collide or that a generated Makefile cannot hold, found before
// anything is printed: two interfaces generating one wrapper file (a generic `g<float>` and
// an interface `g__float`), two tunable copies of one name (`1.5` and `1p5`), two sources
// compiled to one object (`a/util.cpp` and `b/util.cpp`), a program named like a Makefile
// target, paths and an output folder the Makefile would misread.
#pragma once

#include <string>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::plan {

/// Reports every collision of generated names in the expanded `app` (composed with
/// `options`), whose files go to `out_dir` (absolute).
void check_collisions(const ir::Application& app, const ir::Options& options,
                      const std::string& out_dir, diag::Diagnostics& diags);

}  // namespace peppher::plan
