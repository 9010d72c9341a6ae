// Resolution of expression attributes: parse each into its tree (errors point at the
// column inside the attribute value) and check every name it uses against a scope.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

// The names an expression may use.
struct Scope {
  std::vector<std::string> parameters;  // interface parameters
  std::vector<std::string> matrices;    // peppher::Matrix parameters: M.rows, M.cols usable
  std::vector<std::string> tunables;    // tunables in reach (variant's, or all variants')
  std::vector<std::string> platform;    // property names usable as platform.<name>
  bool allow_platform = true;           // platform.* and xpdl::system::*
  std::string self;                     // a parameter that must not use itself
  // A constant zero divisor or overflowing constant part is an error here; constraints leave
  // it to their own evaluation (predicates.h), which names the part.
  bool refuse_constant_faults = true;
};

// Parses e (filling e.ast) and checks its names; `what` names the expression in messages,
// e.g. "constraint 'small_only'" or "numElements of parameter 'arr'".
void resolve_expression(ir::Expression& e, const std::string& what, const Scope& scope,
                        diag::Diagnostics& diag);

}  // namespace peppher::check
