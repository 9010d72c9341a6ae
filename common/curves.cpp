// Training tables as curves (see curves.h).
#include "common/curves.h"

namespace peppher::perfdata {

Curve curve_of(const TrainedInterface& t, const std::string& source) {
  Curve c;
  c.iface = t.name;
  c.source = source;
  if (t.context.empty() || t.axes.empty()) return c;
  c.axis = t.context[0];
  std::vector<long long> middle;
  for (const auto& axis : t.axes) middle.push_back(axis.empty() ? 0 : axis[axis.size() / 2]);
  for (const auto& [point, times] : t.us) {
    bool on_line = true;
    for (std::size_t k = 1; k < point.size() && k < middle.size(); ++k)
      on_line = on_line && point[k] == middle[k];
    if (!on_line) continue;
    for (const auto& [variant, us] : times) c.us[variant][static_cast<double>(point[0])] = us;
  }
  for (std::size_t k = 1; k < t.context.size() && k < middle.size(); ++k)
    c.axis += (k == 1 ? " (" : ", ") + t.context[k] + "=" + std::to_string(middle[k]);
  if (t.context.size() > 1) c.axis += ")";
  return c;
}

std::vector<Curve> curves_of(const TrainingTable& table) {
  std::vector<Curve> curves;
  for (const TrainedInterface& t : table.interfaces) {
    Curve c = curve_of(t, table.file);
    if (!c.us.empty()) curves.push_back(std::move(c));
  }
  return curves;
}

}  // namespace peppher::perfdata
