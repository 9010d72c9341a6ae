// The plan stage's entry point (see plan.h).
#include "compose/plan/plan.h"

#include <algorithm>

namespace peppher::plan {

ApplicationPlan plan_application(const ir::Application& app, diag::Diagnostics& diags) {
  ApplicationPlan plan;
  plan.app = &app;
  plan.output_dir = output_dir(app);
  for (const ir::Interface& iface : app.interfaces) {
    plan.wrappers.push_back(plan_wrapper(app, iface, diags));
  }
  plan.cost_models = std::any_of(plan.wrappers.begin(), plan.wrappers.end(),
                                 [](const WrapperPlan& w) { return w.selection.cost_model; });
  return plan;
}

}  // namespace peppher::plan
