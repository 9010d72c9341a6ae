// Repository exploration (paper section III): from the main descriptor, follow required
// interfaces, each interface's implementation folder and each variant's own required
// interfaces, recursively; order the interfaces bottom-up and report cycles.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::explore {

// Reads everything reachable from options.main_xml. The result's interfaces hold their
// variants (attached by provided interface) in bottom-up order; names and kinds are not
// yet resolved or checked (check/ does that).
ir::Application explore(const ir::Options& options, diag::Diagnostics& diag);

// The load stage: explore(), then the training table (load_table) unless exploring failed
// or --train asks for the variants as composed without a table's influence.
ir::Application load(const ir::Options& options, diag::Diagnostics& diag);

}  // namespace peppher::explore
