// Merge-style exhaustiveness at compose time: over the `range`s of an interface's scalar
// parameters, finds calls that no enabled variant's constraints accept and warns at the
// interface ("no variant of spmv accepts nrows >= 5000 when CUDA is disabled").
#include "compose/check/exhaustive.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "compose/check/predicates.h"
#include "compose/ir/backends.h"

namespace peppher::check {
namespace {

struct RangedParam {
  const ir::Parameter* param = nullptr;
  bool integral = true;
  std::vector<double> points;  // sorted sample points inside [lo, hi]
};

bool integral_type(const std::string& t) {
  return t.find("float") == std::string::npos && t.find("double") == std::string::npos;
}

// Constants the constraints compare `name` against, e.g. 1000 in `n < 1000`.
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

std::optional<RangedParam> ranged(const ir::Interface& iface, const ir::Parameter& p) {
  if (!p.range) return std::nullopt;
  std::optional<Value> lo = parse_number(p.range->lo), hi = parse_number(p.range->hi);
  if (!lo || !hi || lo->as_double() > hi->as_double()) return std::nullopt;
  RangedParam r;
  r.param = &p;
  r.integral = integral_type(p.type);
  std::set<double> constants;
  for (const ir::Variant& v : iface.variants) {
    for (const ir::Constraint& c : v.constraints) {
      if (c.expr.ast) collect_constants(*c.expr.ast, p.name, constants);
    }
  }
  std::set<double> pts = {lo->as_double(), hi->as_double()};
  for (double c : constants) {
    for (double x : r.integral ? std::vector<double>{std::floor(c) - 1, std::floor(c), std::ceil(c),
                                                     std::ceil(c) + 1}
                               : std::vector<double>{c}) {
      if (x >= lo->as_double() && x <= hi->as_double()) pts.insert(x);
    }
  }
  std::vector<double> sorted(pts.begin(), pts.end());
  for (size_t k = 0; k + 1 < sorted.size(); ++k) {  // a midpoint for each sub-interval
    double mid = (sorted[k] + sorted[k + 1]) / 2;
    if (r.integral) mid = std::floor(mid);
    pts.insert(mid);
  }
  r.points.assign(pts.begin(), pts.end());
  return r;
}

Value as_value(const RangedParam& r, double x) {
  return r.integral ? Value{true, static_cast<long long>(x), 0} : Value{false, 0, x};
}

// Whether v's constraints could hold at this point (unknown counts as yes).
bool accepts(const ir::Application& app, const ir::Options& options, const ir::Interface& iface,
             const ir::Variant& v, const std::vector<RangedParam>& params,
             const std::vector<double>& at) {
  Lookup lookup = [&](const std::string& n) -> std::optional<Value> {
    for (size_t k = 0; k < params.size(); ++k) {
      if (params[k].param->name == n) return as_value(params[k], at[k]);
    }
    if (std::optional<Value> t = tunable_value(v, n)) return t;
    return platform_value(app, options, iface, n);
  };
  for (const ir::Constraint& c : v.constraints) {
    if (!c.expr.ast) continue;
    std::optional<Value> r = evaluate(*c.expr.ast, lookup);
    if (r && !r->truth()) return false;
  }
  return true;
}

std::string number(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", x);
  return buf;
}

// "n >= 5000", "n <= 99", "10 <= n <= 20", "n == 7", "any n in 0..100".
std::string describe(const RangedParam& r, double from, double to) {
  const std::string& n = r.param->name;
  bool at_lo = from == r.points.front(), at_hi = to == r.points.back();
  if (at_lo && at_hi) return "any " + n + " in " + r.param->range->lo + ".." + r.param->range->hi;
  if (from == to) return n + " == " + number(from);
  if (at_hi) return n + " >= " + number(from);
  if (at_lo) return n + " <= " + number(to);
  return number(from) + " <= " + n + " <= " + number(to);
}

// " when CUDA is disabled": what left out the variants that would accept the point.
std::string why_none(const ir::Application& app, const ir::Options& options,
                     const ir::Interface& iface, const std::vector<RangedParam>& params,
                     const std::vector<double>& at) {
  std::vector<std::string> reasons;
  auto add = [&](const std::string& r) {
    if (std::find(reasons.begin(), reasons.end(), r) == reasons.end()) reasons.push_back(r);
  };
  for (const ir::Variant& v : iface.variants) {
    if (!accepts(app, options, iface, v, params, at)) continue;
    if (!ir::backend_enabled(options, iface, v.backend))
      add(std::string(ir::info(v.backend).group_label) + " is disabled");
    else if (v.disabled)
      add("'" + v.name + "' is disabled");
  }
  std::string out;
  for (size_t k = 0; k < reasons.size(); ++k) out += (k == 0 ? " when " : " and ") + reasons[k];
  return out;
}

void check_interface(const ir::Application& app, const ir::Options& options,
                     const ir::Interface& iface, diag::Diagnostics& diag) {
  std::vector<RangedParam> params;
  size_t combinations = 1;
  for (const ir::Parameter& p : iface.parameters) {
    if (std::optional<RangedParam> r = ranged(iface, p)) {
      combinations *= r->points.size();
      params.push_back(std::move(*r));
    }
  }
  std::vector<const ir::Variant*> variants = ir::enabled_variants(options, iface);
  if (params.empty() || variants.empty() || combinations > 100000) return;
  auto none_accepts = [&](const std::vector<double>& at) {
    for (const ir::Variant* v : variants) {
      if (accepts(app, options, iface, *v, params, at)) return false;
    }
    return true;
  };

  if (params.size() == 1) {  // report each maximal run of rejected sample points
    const RangedParam& r = params.front();
    for (size_t k = 0; k < r.points.size();) {
      if (!none_accepts({r.points[k]})) {
        ++k;
        continue;
      }
      size_t end = k;
      while (end + 1 < r.points.size() && none_accepts({r.points[end + 1]})) ++end;
      diag.warning(iface.loc, "no variant of " + iface.name + " accepts " +
                                  describe(r, r.points[k], r.points[end]) +
                                  why_none(app, options, iface, params, {r.points[k]}));
      k = end + 1;
    }
    return;
  }
  std::vector<size_t> index(params.size(), 0);  // odometer over the sample points
  while (true) {
    std::vector<double> at;
    for (size_t k = 0; k < params.size(); ++k) at.push_back(params[k].points[index[k]]);
    if (none_accepts(at)) {
      std::string values;
      for (size_t k = 0; k < params.size(); ++k)
        values += (k == 0 ? "" : ", ") + params[k].param->name + " = " + number(at[k]);
      diag.warning(iface.loc, "no variant of " + iface.name + " accepts the call with " + values +
                                  " (and maybe others in the parameters' ranges)" +
                                  why_none(app, options, iface, params, at));
      return;
    }
    size_t k = 0;
    while (k < params.size() && ++index[k] == params[k].points.size()) index[k++] = 0;
    if (k == params.size()) return;
  }
}

}  // namespace

void check_exhaustive(const ir::Application& app, const ir::Options& options,
                      diag::Diagnostics& diag) {
  for (const ir::Interface& iface : app.interfaces) check_interface(app, options, iface, diag);
}

}  // namespace peppher::check
