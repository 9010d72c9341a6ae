// The plan stage: every static decision about the generated code, taken from the expanded
// IR before anything is printed, with the user errors those decisions find. emit/ prints
// the plan; --check and --explain read it. It knows nothing of emit/.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::plan {

/// The decisions for one application, in interface order.
struct ApplicationPlan {
  const ir::Application* app = nullptr;
  std::vector<WrapperPlan> wrappers;  // one per interface (instantiation), in app order
  std::string output_dir;             // absolute: where the generated files go
  bool cost_models = false;           // some interface has a per-arch cost model
};

/// Plans every interface of `app` (expanded), reporting what cannot be generated to
/// `diags`. The plan points into `app`, which must outlive it.
ApplicationPlan plan_application(const ir::Application& app, diag::Diagnostics& diags);

}  // namespace peppher::plan
