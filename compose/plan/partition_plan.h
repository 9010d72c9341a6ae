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

/// The row dimension of an OpenCL launch is the last one globalSize gives (a row-major
/// matrix's slowest index: PolyBench's get_global_id(1) for rows i in "nj,ni"). In a
/// partitioned call each block's task evaluates globalSize with its block's values, so that
/// dimension follows the blocks when it names the by-value parameter receiving a block's
/// length or `M.rows` of a split Matrix; a constant (a kernel striding over its block) is
/// fine too. Warns at a row dimension that names only values every block's task shares:
/// each block would launch the whole call's rows over its own block. Needs the plan's OpenCL slots.
void check_launch_rows(const ir::Interface& iface, const WrapperPlan& plan,
                       diag::Diagnostics& diags);

}  // namespace peppher::plan
