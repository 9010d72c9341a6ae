// Generic component expansion (paper section IV.B), the first step of the expand stage:
// each kind="generic" interface becomes one concrete interface per instantiation the
// application asks for, with the template arguments substituted in its parameter types.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::expand {

/// Replaces every generic interface of `app` by its instantiations, in place and in
/// order. Instantiations come from `instantiate="..."` on the requiredInterface elements
/// that name the interface (main.xml's or a variant's), else from the interface's
/// <peppher:genericParameter types="..."> (every combination). Warns about a generic
/// interface nobody instantiates (dropped, like an unused template); reports an
/// instantiation with the wrong number of types and `instantiate` on a non-generic one.
void expand_generics(ir::Application& app, diag::Diagnostics& diag);

/// `type` with each whole-word template parameter name replaced by its argument:
/// ("const T *", {"T"}, {"float"}) -> "const float *".
std::string substitute_types(const std::string& type, const std::vector<std::string>& names,
                             const std::vector<std::string>& args);

}  // namespace peppher::expand
