// compose --explain: for each interface, which variants the composition keeps, which it
// leaves out and why, and (after training) which variant the table expects to win where.
// Reads the plan and the expanded IR it was made from; writes text only.
#pragma once

#include <ostream>
#include <string>

#include "compose/plan/plan.h"

namespace peppher::explain {

/// Prints the explanation of `plan` (the plan stage's output for the expanded `app`) to `out`.
void explain(const ir::Application& app, const plan::ApplicationPlan& plan, std::ostream& out);

/// The same explanation as one self-contained HTML page on `out` (compose --explain
/// --format=html): the variants kept and left out with the reason, next to the training
/// table's time-vs-size curve of each trained interface (inline SVG drawn by gnuplot).
/// Returns false, with the reason on `err`, when a figure cannot be drawn.
bool explain_html(const ir::Application& app, const plan::ApplicationPlan& plan, std::ostream& out,
                  std::ostream& err);

/// Why expanded variant `v` of `iface` is not generated, or "" when it is.
std::string left_out_because(const ir::Options& options, const ir::Interface& iface,
                             const ir::Variant& v);

}  // namespace peppher::explain
