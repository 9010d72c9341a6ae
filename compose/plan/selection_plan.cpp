// Selection decisions (see selection_plan.h).
#include "compose/plan/selection_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "compose/expand/combinations.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::plan {
namespace {

// Where the trained values a and b split: geometric for sizes, arithmetic around zero.
long long threshold(long long a, long long b) {
  if (a > 0) return static_cast<long long>(std::ceil(std::sqrt(double(a) * double(b))));
  return a + (b - a + 1) / 2;
}

bool plan_axes(const WrapperPlan& plan, SelectionPlan& s, diag::Diagnostics& diags) {
  const ir::TrainedInterface& t = *s.trained;
  for (size_t d = 0; d < t.context.size(); ++d) {
    const Operand* found = nullptr;
    for (const Operand& o : plan.operands) {
      if (o.param->name == t.context[d] && o.kind == OperandKind::Value &&
          o.param->kind == ir::ParamKind::ScalarValue) {
        found = &o;
      }
    }
    if (found == nullptr) {
      diags.error(t.loc, "the training table's context '" + t.context[d] + "' of interface '" +
                             t.name + "' is not a scalar parameter of it; train again");
      return false;
    }
    SelectionAxis axis;
    axis.param = found->param->name;
    axis.operand = static_cast<int>(found - plan.operands.data());
    axis.values = t.axes[d];
    for (size_t i = 0; i + 1 < axis.values.size(); ++i) {
      axis.thresholds.push_back(threshold(axis.values[i], axis.values[i + 1]));
    }
    s.axes.push_back(std::move(axis));
  }
  return true;
}

// Every grid cell, row-major: its times per selector index and its ranking.
void plan_cells(SelectionPlan& s) {
  std::vector<std::vector<long long>> axes;
  for (const SelectionAxis& a : s.axes) axes.push_back(a.values);
  for (const auto& point : expand::all_combinations(axes)) {
    std::vector<double> us(s.variants.size(), std::numeric_limits<double>::quiet_NaN());
    auto found = s.trained->us.find(point);
    for (size_t k = 0; k < s.variants.size() && found != s.trained->us.end(); ++k) {
      auto t = found->second.find(s.variants[k]->name);
      if (t != found->second.end()) us[k] = t->second;
    }
    std::vector<int> ranking;
    for (size_t k = 0; k < us.size(); ++k) {
      if (!std::isnan(us[k])) ranking.push_back(static_cast<int>(k));
    }
    std::stable_sort(ranking.begin(), ranking.end(), [&](int a, int b) { return us[a] < us[b]; });
    s.cell_us.push_back(std::move(us));
    s.rankings.push_back(std::move(ranking));
  }
}

// The descriptor's name of a variant (a tunable copy's base function).
const std::string& written_name(const ir::Variant& v) {
  return v.base_name.empty() ? v.name : v.base_name;
}

// Merge's rule: each variant's transitive `specializes` as a mask of selector indices.
void plan_specificity(const ir::Interface& iface, SelectionPlan& s) {
  auto target = [&](const std::string& name) -> std::string {
    for (const ir::Variant& v : iface.variants)
      if (written_name(v) == name) return v.specializes;
    return "";
  };
  const size_t n = s.variants.size();
  for (size_t k = 0; k < n; ++k) {
    std::set<std::string> general;  // every variant it specializes, through the chain
    for (std::string g = s.variants[k]->specializes; !g.empty() && general.insert(g).second;)
      g = target(g);
    unsigned long long mask = 0;
    for (size_t j = 0; j < n && j < 64; ++j)
      if (j != k && general.count(written_name(*s.variants[j]))) mask |= 1ULL << j;
    s.specializes.push_back(mask);
    s.priority.push_back(s.variants[k]->priority);
    s.specific = s.specific || mask != 0 || s.priority.back() != s.priority.front();
  }
}

}  // namespace

void plan_selection(const ir::Application& app, const ir::Options& options, WrapperPlan& plan,
                    diag::Diagnostics& diags) {
  SelectionPlan& s = plan.selection;
  for (const std::vector<VariantSlot>& group : plan.slots) {
    for (const VariantSlot& slot : group) {
      s.variants.push_back(slot.variant);
    }
  }
  plan_specificity(*plan.iface, s);
  if (app.table) {
    s.trained = app.table->find(ir::display_name(*plan.iface));
    s.table_file = app.table->file;
  }
  if (s.trained && !s.trained->context.empty() && plan_axes(plan, s, diags)) {
    plan_cells(s);
    s.static_dispatch = options.static_dispatch;
  } else {
    s.trained = nullptr;
  }
  const bool predicted =
      std::any_of(s.variants.begin(), s.variants.end(),
                  [](const ir::Variant* v) { return !v->prediction_function.empty(); });
  s.cost_model = predicted || (s.trained != nullptr && !s.static_dispatch);
  if (s.cost_model && predicted && s.trained == nullptr) {
    for (const ir::Variant* v : s.variants) {
      if (!v->prediction_function.empty()) continue;
      diags.warning(v->loc, "implementation '" + v->name +
                                "' has no predictionFunction "
                                "while other variants of '" +
                                plan.iface->name +
                                "' do: StarPU will see it as "
                                "uncalibrated and try it first");
    }
  }
}

}  // namespace peppher::plan
