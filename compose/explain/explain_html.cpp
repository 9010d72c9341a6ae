// compose --explain --format=html (see explain.h): the explanation as perfdata::PageInput,
// rendered by the reports' page (common/) with the training table's curves as inline SVG.
#include <algorithm>
#include <filesystem>
#include <set>

#include "common/curves.h"
#include "common/figures.h"
#include "common/page.h"
#include "common/report_error.h"
#include "common/summary.h"
#include "compose/explain/explain.h"

namespace peppher::explain {

bool explain_html(const ir::Application& app, const plan::ApplicationPlan& plan, std::ostream& out,
                  std::ostream& err) {
  perfdata::PageInput in;
  in.title = "PEPPHER composition of " +
             std::filesystem::path(app.descriptor_file).filename().string() +
             ": variants kept and left out";
  for (const plan::WrapperPlan& wrapper : plan.wrappers) {
    const ir::Interface& iface = *wrapper.iface;
    perfdata::ExplainedInterface e;
    e.name = ir::display_name(iface);
    e.descriptor = std::filesystem::path(iface.descriptor_file).filename().string();
    const ir::TrainedInterface* t = app.table ? app.table->find(e.name) : nullptr;
    if (t == nullptr) {
      e.note = "not trained: the runtime chooses among the variants kept";
    } else {
      e.note = std::string("trained (platform ") + app.table->platform + "), " +
               (plan.options.static_dispatch ? "dispatched statically" : "seeding the cost model");
      perfdata::Curve c = perfdata::curve_of(*t, app.table->file);
      if (!c.us.empty()) in.curves.push_back(std::move(c));
    }
    for (const ir::Variant& v : iface.variants)
      e.variants.push_back(
          {v.name, ir::to_string(v.backend), left_out_because(plan.options, iface, v)});
    in.explained.push_back(std::move(e));
  }
  std::vector<std::string> names;
  for (const perfdata::ExplainedInterface& e : in.explained)
    for (const perfdata::ExplainedVariant& v : e.variants) names.push_back(v.name);
  std::vector<std::string> palette = perfdata::variant_palette(nullptr, in.curves);
  for (const std::string& n : names)
    if (std::find(palette.begin(), palette.end(), n) == palette.end()) palette.push_back(n);
  in.palette = palette;
  try {
    for (const perfdata::Curve& c : in.curves)
      in.curve_svgs.push_back(perfdata::curve_svg(c, palette));
  } catch (const perfdata::ReportError& e) {
    err << e.what() << "\n";
    return false;
  }
  out << perfdata::render_html(in);
  return true;
}

}  // namespace peppher::explain
