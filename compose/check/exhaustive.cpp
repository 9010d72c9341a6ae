// Merge-style exhaustiveness at compose time: over the `range`s of an interface's scalar
// parameters, finds calls that no enabled variant's constraints accept and warns at the
// interface ("no variant of spmv accepts nrows >= 5000 when CUDA is disabled").
#include "compose/check/exhaustive.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "compose/check/predicates.h"
#include "compose/check/sample_points.h"
#include "compose/ir/backends.h"

namespace peppher::check {
namespace {

// Sample points inside the parameter's range: its ends, around each constant the variants'
// constraints compare it with, and a midpoint between each two.
std::optional<SampleAxis> ranged(const ir::Interface& iface, const ir::Parameter& p) {
  if (!p.range) return std::nullopt;
  std::optional<Value> lo = parse_number(p.range->lo), hi = parse_number(p.range->hi);
  if (!lo || !hi || lo->as_double() > hi->as_double()) return std::nullopt;
  SampleAxis r;
  r.param = &p;
  r.integral = integral_type(p.type);
  std::vector<const ir::Variant*> all;
  for (const ir::Variant& v : iface.variants) all.push_back(&v);
  const std::set<double> constants = compared_constants(all, p.name);
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

// Whether v's constraints could hold at this point (unknown counts as yes).
bool accepts(const ir::Application& app, const ir::Options& options, const ir::Interface& iface,
             const ir::Variant& v, const std::vector<SampleAxis>& params,
             const std::vector<double>& at) {
  return constraints_at(app, options, iface, v, params, at) != Verdict::Rejects;
}

// "n >= 5000", "n <= 99", "10 <= n <= 20", "n == 7", "any n in 0..100".
std::string describe(const SampleAxis& r, double from, double to) {
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
                     const ir::Interface& iface, const std::vector<SampleAxis>& params,
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
  std::vector<SampleAxis> params;
  size_t combinations = 1;
  for (const ir::Parameter& p : iface.parameters) {
    if (std::optional<SampleAxis> r = ranged(iface, p)) {
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
    const SampleAxis& r = params.front();
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
  find_point(params, [&](const std::vector<double>& at) {
    if (!none_accepts(at)) return false;
    diag.warning(iface.loc, "no variant of " + iface.name + " accepts the call with " +
                                call_at(params, at) +
                                " (and maybe others in the parameters' ranges)" +
                                why_none(app, options, iface, params, at));
    return true;
  });
}

}  // namespace

void check_exhaustive(const ir::Application& app, const ir::Options& options,
                      diag::Diagnostics& diag) {
  for (const ir::Interface& iface : app.interfaces) check_interface(app, options, iface, diag);
}

}  // namespace peppher::check
