// Sample calls of an interface (see sample_points.h).
#include "compose/check/sample_points.h"

#include <cstdio>
#include <optional>

#include "compose/check/predicates.h"

namespace peppher::check {
namespace {

void collect_constants(const expr::Node& node, const std::string& name, std::set<double>& out) {
  if (node.kind == expr::NodeKind::Binary && node.operands.size() == 2) {
    for (int side = 0; side < 2; ++side) {
      const expr::Node& id = *node.operands[side];
      const expr::Node& other = *node.operands[1 - side];
      if (id.kind != expr::NodeKind::Identifier || id.text != name) continue;
      std::optional<Value> c = evaluate(other, [](const std::string&) { return std::nullopt; });
      if (c) out.insert(c->as_double());
    }
  }
  for (const auto& child : node.operands) collect_constants(*child, name, out);
}

}  // namespace

bool integral_type(const std::string& type) {
  return type.find("float") == std::string::npos && type.find("double") == std::string::npos;
}

std::set<double> compared_constants(const std::vector<const ir::Variant*>& variants,
                                    const std::string& name) {
  std::set<double> out;
  for (const ir::Variant* v : variants)
    for (const ir::Constraint& c : v->constraints)
      if (c.expr.ast) collect_constants(*c.expr.ast, name, out);
  return out;
}

Verdict constraints_at(const ir::Application& app, const ir::Options& options,
                       const ir::Interface& iface, const ir::Variant& v,
                       const std::vector<SampleAxis>& axes, const std::vector<double>& at) {
  Lookup lookup = [&](const std::string& n) -> std::optional<Value> {
    for (size_t k = 0; k < axes.size(); ++k) {
      if (axes[k].param->name != n) continue;
      return axes[k].integral ? Value{true, static_cast<long long>(at[k]), 0}
                              : Value{false, 0, at[k]};
    }
    if (std::optional<Value> t = tunable_value(v, n)) return t;
    return platform_value(app, options, iface, n);
  };
  Verdict result = Verdict::Accepts;
  for (const ir::Constraint& c : v.constraints) {
    if (!c.expr.ast) continue;
    std::optional<Value> r = evaluate(*c.expr.ast, lookup);
    if (r && !r->truth()) return Verdict::Rejects;
    if (!r) result = Verdict::Unknown;
  }
  return result;
}

std::string number(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%.15g", x);
  return text;
}

std::string call_at(const std::vector<SampleAxis>& axes, const std::vector<double>& at) {
  std::string values;
  for (size_t k = 0; k < axes.size(); ++k)
    values += (k == 0 ? "" : ", ") + axes[k].param->name + " = " + number(at[k]);
  return values;
}

bool find_point(const std::vector<SampleAxis>& axes,
                const std::function<bool(const std::vector<double>&)>& visit) {
  std::vector<size_t> index(axes.size(), 0);  // odometer over the sample points
  while (true) {
    std::vector<double> at;
    for (size_t k = 0; k < axes.size(); ++k) at.push_back(axes[k].points[index[k]]);
    if (visit(at)) return true;
    size_t k = 0;
    while (k < axes.size() && ++index[k] == axes[k].points.size()) index[k++] = 0;
    if (k == axes.size()) return false;
  }
}

}  // namespace peppher::check
