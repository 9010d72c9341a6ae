// The selection part of a wrapper's template data (see selection_emitter.h).
#include "compose/emit/selection_emitter.h"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "compose/emit/cpp_expr.h"
#include "compose/emit/render.h"
#include "compose/ir/backends.h"
#include "compose/names/names.h"

namespace peppher::emit {
namespace {

using Data = TemplateData;
using plan::WrapperPlan;

std::string join_numbers(const std::vector<long long>& xs) {
  std::vector<std::string> parts;
  for (long long x : xs) parts.push_back(std::to_string(x));
  return comma_list(parts);
}

std::string microseconds(double us) {
  if (std::isnan(us)) return "NAN";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", us);
  return text;
}

}  // namespace

void add_selection_data(const WrapperPlan& plan, TemplateData& d) {
  const plan::SelectionPlan& sel = plan.selection;
  Data list{Data::type::list};
  Data costs{Data::type::list};
  Data predictions{Data::type::list};
  int index = 0;
  for (const std::vector<plan::VariantSlot>& group : plan.slots) {
    for (const plan::VariantSlot& slot : group) {
      const ir::Variant& v = *slot.variant;
      const ir::BackendInfo& backend = ir::info(v.backend);
      Data item;
      item.set("index", std::to_string(index));
      item.set("slot", std::to_string(slot.slot));
      item.set("variant", v.name);
      item.set("backend", ir::to_string(v.backend));
      item.set("where", backend.where);
      const std::string wrapper = names::backend_wrapper(v);
      item.set("cuda", flag(backend.code == ir::VariantCode::CudaFunction));
      item.set("func_name", wrapper);
      item.set("parallel", backend.parallel ? "true" : "false");
      item.set("workers", cpp::worker_count(v.backend));
      item.set("predicates", make_list(slot.predicates, [&](const plan::RuntimePredicate& p) {
                 Data pd;
                 pd.set("in_call", cpp::in_call(plan, p));
                 if (plan.partitioned) pd.set("in_block", cpp::in_block(plan, p));
                 return pd;
               }));
      item.set("inline_kind", slot.slot < 0 ? "Training" : backend.inline_kind);
      if (sel.specific) {
        char mask[32];
        std::snprintf(mask, sizeof mask, "0x%llxULL", sel.specializes[index]);
        item.set("specializes", mask);
        item.set("priority", std::to_string(sel.priority[index]));
      }
      list.push_back(item);
      const bool predicted = !v.prediction_function.empty();
      // A CUDA variant's prediction function is in its .cu file, linked only where StarPU
      // has CUDA (as the variant itself): named only there.
      const bool cuda = v.backend == ir::Backend::Cuda;
      Data cost;
      cost.set("cuda", flag(cuda));
      cost.set("predicted", flag(predicted));
      cost.set("interpolated", flag(!predicted && sel.trained != nullptr));
      cost.set("unknown", flag(!predicted && sel.trained == nullptr));
      cost.set("function", v.prediction_function);
      if (predicted) {
        Data f;
        f.set("name", v.prediction_function);
        f.set("cuda", flag(cuda));
        f.set("variant", v.name);
        predictions.push_back(f);
      }
      cost.set("index", std::to_string(index));
      cost.set("variant", v.name);
      costs.push_back(cost);
      ++index;
    }
  }
  d.set("selection", list);
  d.set("prediction_functions", predictions);
  d.set("costs", costs);
  d.set("nvariants", std::to_string(index));
  // Where each codelet group's variants start in selection order (cuda_base, ...).
  size_t base = 0;
  for (ir::Backend b : ir::codelet_groups()) {
    d.set(std::string(ir::info(b).template_key) + "_base", std::to_string(base));
    base += plan.slots_of(b).size();
  }

  d.set("specific", flag(sel.specific));
  d.set("no_model_choice", plan.forkjoin && !plan.partitioned ? "true" : "false");
  d.set("has_trained_grid", flag(sel.trained != nullptr));
  d.set("static_dispatch", flag(sel.static_dispatch));
  d.set("cost_model", flag(sel.cost_model));
  d.set("cost_why", sel.trained != nullptr ? "interpolated from the training table"
                                           : "the variants' prediction functions");
  d.set("table_file", std::filesystem::path(sel.table_file).filename().string());
  std::vector<std::string> context_names, cell_params, cell_args;
  Data axes{Data::type::list};
  for (const plan::SelectionAxis& a : sel.axes) {
    context_names.push_back(a.param);
    cell_params.push_back("[[maybe_unused]] long long " + a.param);  // one trained value: unread
    cell_args.push_back("static_cast<long long>(" + a.param + ")");
    Data ad;
    ad.set("param", a.param);
    ad.set("in_task", cpp::task_argument(plan.operands[a.operand]));
    ad.set("size", std::to_string(a.values.size()));
    ad.set("values", join_numbers(a.values));
    Data thresholds{Data::type::list};
    for (size_t i = 0; i < a.thresholds.size(); ++i) {
      Data t;
      t.set("value", std::to_string(a.thresholds[i]) + "LL");
      t.set("index", std::to_string(i + 1));
      thresholds.push_back(t);
    }
    ad.set("thresholds", thresholds);
    axes.push_back(ad);
  }
  d.set("axes", axes);
  d.set("dims", std::to_string(sel.axes.size()));
  d.set("context_names", comma_list(context_names));
  d.set("cell_params", comma_list(cell_params));
  d.set("cell_args", comma_list(cell_args));
  Data cells{Data::type::list};
  std::vector<size_t> at(sel.axes.size(), 0);  // the cell's index along each axis
  for (size_t c = 0; c < sel.rankings.size(); ++c) {
    std::vector<std::string> point, us, ranking;
    for (size_t k = 0; k < sel.axes.size(); ++k) {
      point.push_back(sel.axes[k].param + "=" + std::to_string(sel.axes[k].values[at[k]]));
    }
    for (double t : sel.cell_us[c]) us.push_back(microseconds(t));
    for (int k : sel.rankings[c]) ranking.push_back(std::to_string(k));
    while (static_cast<int>(ranking.size()) < index) ranking.push_back("-1");
    Data cell;
    cell.set("point", comma_list(point));
    cell.set("us", comma_list(us));
    cell.set("ranking", comma_list(ranking));
    cells.push_back(cell);
    for (size_t k = sel.axes.size(); k-- > 0;) {  // row-major: the last axis fastest
      if (++at[k] < sel.axes[k].values.size()) break;
      at[k] = 0;
    }
  }
  d.set("cells", cells);
}

}  // namespace peppher::emit
