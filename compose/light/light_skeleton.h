// Utility mode's light form (`-generateCompFiles=h --light`): the header annotated with what
// the skeleton planner guessed (access modes the types do not give, raw pointers' lengths),
// so the header and the variant skeletons named after its functions compose without XML.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/utility/scan/scanned.h"
#include "compose/utility/skeleton/plan.h"

namespace peppher::light {

// Which of `plans` the light form can describe: a void function at file scope (a function
// template with type parameters only: a generic interface), named like its function (not a
// renamed overload). The others get a warning that says why (XML can describe them: utility
// mode without --light) and are dropped.
std::vector<skeleton::ComponentPlan> light_plans(const scan::ScannedHeader& header,
                                                 std::vector<skeleton::ComponentPlan> plans,
                                                 diag::Diagnostics& diag);

// `text`, the header's source, with each planned parameter's annotations inserted after its
// name (PEPPHER_WRITE, PEPPHER_SIZE(n), ...) and, unless it includes <peppher/annotate.h> or
// <peppher/runtime.h> (which includes it), `#include <peppher/annotate.h>` before its first
// #include (or after its #pragma once / include guard); unchanged when no parameter needs an
// annotation.
std::string annotated_header(const std::string& text, const scan::ScannedHeader& header,
                             const std::vector<skeleton::ComponentPlan>& plans);

// A C, C++ or CUDA skeleton's source with `// PEPPHER_FLAGS(flags)` after its opening
// comment: the -I / -D flags the skeletons need, which the light form's default (-O2) lacks.
std::string with_flags(const std::string& source, const std::string& flags);

}  // namespace peppher::light
