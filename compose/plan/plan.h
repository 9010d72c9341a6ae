// The plan stage: every static decision about the generated code, taken from the expanded
// IR before anything is printed, with the user errors those decisions find. emit/ prints
// the plan; --check and --explain read it. It knows nothing of emit/.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/facts/source_facts.h"
#include "compose/ir/ir.h"
#include "compose/plan/build_plan.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::plan {

/// The decisions for one application, in interface order.
struct ApplicationPlan {
  ir::Options options;                // the command line it was planned under
  std::vector<WrapperPlan> wrappers;  // one per interface (instantiation), in app order
  std::string output_dir;             // absolute: where the generated files go
  BuildPlan build;                    // the Makefile's and peppher.cmake's decisions
  bool cost_models = false;           // some interface has a per-arch cost model
  std::string scheduler;              // the one PEPPHER_INITIALIZE() starts (peppher.h)
  std::string scheduler_why;          // why, for peppher.h's comment
  // Where PEPPHER_INITIALIZE() starts StarPU: on a thread of its own (init_in_background),
  // unless this source of the program calls StarPU itself (then on the program's thread).
  std::string starpu_caller;
};

/// Plans every interface of `app` (expanded, composed with `options`) with what its sources say
/// (`facts`, read from `app`) and the flags of main's sources (main_source_flags(), decided before
/// expansion), reporting what cannot be generated to `diags`. The plan points into `app` (its
/// interfaces and variants) and `facts`'s variants, which must outlive it.
ApplicationPlan plan_application(const ir::Application& app, const ir::Options& options,
                                 const std::vector<std::string>& main_source_flags,
                                 const facts::SourceFacts& facts, diag::Diagnostics& diags);

}  // namespace peppher::plan
