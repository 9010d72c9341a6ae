// The plan stage, for a partitioned interface: how each buffer operand splits, what each
// by-value parameter holds in a block's task (its block's length or first row), and the
// diagnostics that explain why a call cannot be split.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::plan {

/// Fills the split of every operand of `plan` and plan.partitioned / plan.auto_split, and
/// the block value of its by-value operands; reports partitions that cannot be generated.
/// Needs plan.operands (and the expression trees check/ filled in).
void plan_partition(const ir::Interface& iface, WrapperPlan& plan, diag::Diagnostics& diags);

}  // namespace peppher::plan
