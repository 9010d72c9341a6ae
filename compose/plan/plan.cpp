// The plan stage's entry point (see plan.h).
#include "compose/plan/plan.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "compose/ir/backends.h"
#include "compose/ir/toolchain.h"
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

// The scheduler PEPPHER_INITIALIZE() starts, and why.
std::pair<std::string, std::string> choose_scheduler(const ir::Application& app,
                                                     const ir::Options& options, bool cost_models) {
  if (!app.composition.scheduler.empty()) {
    return {app.composition.scheduler, "set in the main descriptor"};
  }
  bool models = cost_models, openmp = false, openmp_whole = false;
  for (const ir::Interface& i : app.interfaces) {
    models = models || ir::effective_perf_model(app, options, i) != ir::PerfModel::None;
    const bool partitioned = std::any_of(
        i.parameters.begin(), i.parameters.end(),
        [](const ir::Parameter& p) { return p.partition.kind != ir::PartitionKind::None; });
    for (const ir::Variant* v : ir::enabled_variants(options, i)) {
      openmp = openmp || ir::info(v->backend).parallel;
      openmp_whole = openmp_whole || (ir::info(v->backend).parallel && !partitioned);
    }
  }
  // Without models, lws: dmda would count only queued tasks, so a call submitted while an
  // independent one runs went to the same, busy worker (independent calls did not overlap:
  // e2e_test's overlap case); lws steals. With models, dmda weighs predictions and transfers.
  // OPENMP variants are parallel tasks: only a parallel-aware scheduler gives them combined
  // workers, and only models tell it when they are faster (without models peager and pheft
  // take the sequential variant every time), so pheft replaces dmda when both exist. With
  // no models, peager: it makes combined workers, and the entry wrapper of an unpartitioned
  // interface with an OPENMP variant and no model picks that variant for data at home
  // (docs/SELECTION.md); partitioned calls' blocks are placed by lws.
  if (openmp && models) {
    return {"pheft",
            "an OPENMP variant and models: pheft runs it on combined workers when fastest"};
  }
  if (openmp_whole) {
    return {"peager",
            "an OPENMP variant and no models: peager runs it on all CPU cores (a combined "
            "worker)"};
  }
  if (models) return {"dmda", "the default; models predict each variant, dmda adds transfer costs"};
  return {"lws", "no performance models: locality-aware work stealing"};
}

}  // namespace

ApplicationPlan plan_application(const ir::Application& app, const ir::Options& options,
                                 const std::vector<std::string>& main_source_flags,
                                 const facts::SourceFacts& facts, diag::Diagnostics& diags) {
  ApplicationPlan plan;
  plan.options = options;
  plan.output_dir = ir::output_dir(app, options);
  plan.build = plan_build(app, options, main_source_flags, plan.output_dir);
  check_collisions(app, options, plan.output_dir, diags);
  bool trainable = false;
  for (const ir::Interface& iface : app.interfaces) {
    plan.wrappers.push_back(plan_wrapper(app, options, facts, iface, diags));
    WrapperPlan& w = plan.wrappers.back();
    w.training = plan_training(w);
    trainable = trainable || w.training.untrainable.empty();
    if (options.train && !w.training.untrainable.empty()) {
      diags.warning(iface.loc, "interface '" + ir::display_name(iface) +
                                   "' is not trained: " + w.training.untrainable);
    }
  }
  if (options.train && !trainable) {
    diags.error(
        "--train: no interface can be trained (see the warnings above); nothing would "
        "be timed");
  }
  plan.cost_models = std::any_of(plan.wrappers.begin(), plan.wrappers.end(),
                                 [](const WrapperPlan& w) { return w.selection.cost_model; });
  std::tie(plan.scheduler, plan.scheduler_why) = choose_scheduler(app, options, plan.cost_models);
  plan.starpu_caller = facts.starpu_caller;
  return plan;
}

}  // namespace peppher::plan
