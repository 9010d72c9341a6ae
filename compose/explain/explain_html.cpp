// compose --explain --format=html (see explain.h): the explanation as report::PageInput,
// rendered by the report's page with the training table's curves as inline SVG.
#include <algorithm>
#include <filesystem>
#include <set>

#include "compose/explain/curves.h"
#include "compose/explain/explain.h"
#include "report/figures.h"
#include "report/page.h"
#include "report/summary.h"
#include "report/trace_reader.h"

namespace peppher::explain {

bool explain_html(const plan::ApplicationPlan& plan, std::ostream& out, std::ostream& err) {
  const ir::Application& app = *plan.app;
  report::PageInput in;
  in.title = "PEPPHER composition of " +
             std::filesystem::path(app.descriptor_file).filename().string() +
             ": variants kept and left out";
  for (const plan::WrapperPlan& wrapper : plan.wrappers) {
    const ir::Interface& iface = *wrapper.iface;
    report::ExplainedInterface e;
    e.name = ir::display_name(iface);
    e.descriptor = std::filesystem::path(iface.descriptor_file).filename().string();
    const ir::TrainedInterface* t = app.table ? app.table->find(e.name) : nullptr;
    if (t == nullptr) {
      e.note = "not trained: the runtime chooses among the variants kept";
    } else {
      e.note = std::string("trained (platform ") + app.table->platform + "), " +
               (plan.options.static_dispatch ? "dispatched statically" : "seeding the cost model");
      report::Curve c = curve_of(*t, app.table->file);
      if (!c.us.empty()) in.curves.push_back(std::move(c));
    }
    for (const ir::Variant& v : iface.variants)
      e.variants.push_back(
          {v.name, ir::to_string(v.backend), left_out_because(plan.options, iface, v)});
    in.explained.push_back(std::move(e));
  }
  std::vector<std::string> names;
  for (const report::ExplainedInterface& e : in.explained)
    for (const report::ExplainedVariant& v : e.variants) names.push_back(v.name);
  std::vector<std::string> palette = report::variant_palette(nullptr, in.curves);
  for (const std::string& n : names)
    if (std::find(palette.begin(), palette.end(), n) == palette.end()) palette.push_back(n);
  in.palette = palette;
  try {
    for (const report::Curve& c : in.curves) in.curve_svgs.push_back(report::curve_svg(c, palette));
  } catch (const report::ReportError& e) {
    err << e.what() << "\n";
    return false;
  }
  out << report::render_html(in);
  return true;
}

}  // namespace peppher::explain
