// The plan stage's entry point (see plan.h).
#include "compose/plan/plan.h"

#include <algorithm>

#include "compose/plan/collisions.h"

namespace peppher::plan {
namespace {

// Whether training can make the operands of `w` from its ranges (see TrainingPlan).
TrainingPlan plan_training(const WrapperPlan& w) {
  TrainingPlan t;
  for (const ir::Parameter& p : w.iface->parameters) t.ranged = t.ranged || p.range.has_value();
  if (!t.ranged) {
    t.untrainable =
        "it has no ranged parameter; give a by-value size parameter a range, "
        "e.g. range=\"16..4096\"";
    return t;
  }
  for (const Operand& o : w.operands) {
    const ir::Parameter& p = *o.param;
    if (o.kind == OperandKind::Vector && !p.num_elements) {
      t.untrainable = "parameter '" + p.name +
                      "' is a Vector with no training length; give "
                      "it numElements=\"<expression over ranged parameters>\"";
    } else if (o.kind == OperandKind::Matrix && (!p.num_elements || !p.desc_row_width)) {
      t.untrainable = "parameter '" + p.name +
                      "' is a Matrix with no training shape; give "
                      "it numElements=\"<rows*cols>\" and descRowWidth=\"<cols>\" over "
                      "ranged parameters";
    }
    if (!t.untrainable.empty()) break;
  }
  return t;
}

}  // namespace

ApplicationPlan plan_application(const ir::Application& app, diag::Diagnostics& diags) {
  ApplicationPlan plan;
  plan.app = &app;
  plan.output_dir = output_dir(app);
  check_collisions(app, plan.output_dir, diags);
  bool trainable = false;
  for (const ir::Interface& iface : app.interfaces) {
    plan.wrappers.push_back(plan_wrapper(app, iface, diags));
    WrapperPlan& w = plan.wrappers.back();
    w.training = plan_training(w);
    trainable = trainable || w.training.untrainable.empty();
    if (app.options.train && !w.training.untrainable.empty()) {
      diags.warning(iface.loc, "interface '" + ir::display_name(iface) +
                                   "' is not trained: " + w.training.untrainable);
    }
  }
  if (app.options.train && !trainable) {
    diags.error(
        "--train: no interface can be trained (see the warnings above); nothing would "
        "be timed");
  }
  plan.cost_models = std::any_of(plan.wrappers.begin(), plan.wrappers.end(),
                                 [](const WrapperPlan& w) { return w.selection.cost_model; });
  return plan;
}

}  // namespace peppher::plan
