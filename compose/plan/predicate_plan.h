// The plan stage, for constraints: which of each variant's constraints are left to run
// time, what each of their identifiers stands for (a parameter, an operand's extent, a
// compose-time value, a worker count), and whether the entry wrapper tests them before
// submitting (every variant constrained).
#pragma once

#include "compose/plan/wrapper_plan.h"

namespace peppher::plan {

/// Fills the predicates of every slot of `plan`, and plan.can_execute,
/// plan.constraints_in_can_execute, plan.check_call and plan.checked_values. Identifiers
/// stand for: by-value parameters themselves; pointer and container parameters their element
/// counts; M.rows / M.cols the extents of a peppher::Matrix parameter (of the block, in a
/// partitioned call's task); tunables of an expanded variant their value;
/// platform.num_cpus/num_cuda/num_opencl and their XPDL names (xpdl::system::num_of_gpus,
/// num_of_cpus, num_opencl, ...) StarPU's worker counts unless known at compose time. Constraints
/// shared by every variant are tested by the entry wrapper only (when it tests calls at all): a
/// call that fails them never becomes a task.
void plan_predicates(const ir::Application& app, const ir::Options& options, WrapperPlan& plan);

}  // namespace peppher::plan
