// The expand stage: between check and emit. Instantiates generic interfaces (generics.h),
// turns each variant with tunables into one variant per combination of tunable values,
// removes variants whose constraints are false on this platform (static pruning), and
// keeps each backend within StarPU's slot limit.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/facts/source_facts.h"
#include "compose/ir/ir.h"

namespace peppher::expand {

/// The most tunable value combinations expanded for one implementation.
inline constexpr size_t kMaxCombinations = 4096;

/// Expands and prunes a checked application under `options`, instantiating each generic interface
/// the program calls without a descriptor's list as `called` says (facts/). Reports, as notes with
/// -v, each pruned variant, and as warnings the expanded variants dropped for the slot limit. The
/// input is not changed; its expressions' trees are shared with the result.
ir::Application expand(const ir::Application& app, const ir::Options& options,
                       const facts::CalledInstantiations& called, diag::Diagnostics& diag);

/// The name of an expanded variant: `<base>__<TUNABLE>_<value>` per tunable, the value's
/// characters other than letters and digits spelled `_` ('-' as `m`, '.' as `p`).
std::string expanded_name(const std::string& base, const std::vector<ir::Tunable>& fixed);

}  // namespace peppher::expand
