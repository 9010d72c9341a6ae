// `specializes="other"` (see specializes.h): resolved within the variant's interface, checked
// for cycles, then implication: each of the other's constraint conjuncts written among the
// variant's (proved), else a call the sample points find that the variant accepts and the
// other rejects (an error), else a warning that compose cannot tell.
#include "compose/check/specializes.h"

#include <cmath>
#include <optional>
#include <set>

#include "compose/check/predicates.h"
#include "compose/check/sample_points.h"

namespace peppher::check {
namespace {

const ir::Variant* find_variant(const ir::Interface& iface, const std::string& name) {
  for (const ir::Variant& v : iface.variants)
    if (v.name == name) return &v;
  return nullptr;
}

// The spelling of an expression with its structure made explicit, blanks dropped: "a<b" and
// "a < b" compare equal.
std::string canonical(const expr::Node& n) {
  if (n.kind == expr::NodeKind::Unary) return n.text + "(" + canonical(*n.operands[0]) + ")";
  if (n.kind == expr::NodeKind::Binary)
    return "(" + canonical(*n.operands[0]) + n.text + canonical(*n.operands[1]) + ")";
  return n.text;
}

// `a && b && c` as its terms.
void conjuncts(const expr::Node& n, std::vector<const expr::Node*>& out) {
  if (n.kind == expr::NodeKind::Binary && n.text == "&&") {
    conjuncts(*n.operands[0], out);
    conjuncts(*n.operands[1], out);
  } else {
    out.push_back(&n);
  }
}

std::set<std::string> conjunct_texts(const ir::Variant& v) {
  std::set<std::string> out;
  std::vector<const expr::Node*> terms;
  for (const ir::Constraint& c : v.constraints)
    if (c.expr.ast) conjuncts(*c.expr.ast, terms);
  for (const expr::Node* t : terms) out.insert(canonical(*t));
  return out;
}

// The first constraint of `general` with a conjunct that `special` does not write, or null.
const ir::Constraint* unwritten(const ir::Variant& special, const ir::Variant& general) {
  const std::set<std::string> have = conjunct_texts(special);
  for (const ir::Constraint& c : general.constraints) {
    if (!c.expr.ast) continue;
    std::vector<const expr::Node*> terms;
    conjuncts(*c.expr.ast, terms);
    for (const expr::Node* t : terms)
      if (!have.count(canonical(*t))) return &c;
  }
  return nullptr;
}

// Sample values of each scalar parameter the two variants' constraints compare: around every
// constant they name, and 0 and 1, inside the parameter's range when it has one.
std::vector<SampleAxis> sample_axes(const ir::Interface& iface, const ir::Variant& a,
                                    const ir::Variant& b) {
  std::vector<SampleAxis> axes;
  for (const ir::Parameter& p : iface.parameters) {
    if (p.kind != ir::ParamKind::ScalarValue) continue;
    const std::set<double> constants = compared_constants({&a, &b}, p.name);
    if (constants.empty()) continue;
    const bool integral = integral_type(p.type);
    std::optional<Value> lo, hi;
    if (p.range) {
      lo = parse_number(p.range->lo);
      hi = parse_number(p.range->hi);
    }
    std::set<double> points = {0, 1};
    for (double c : constants) {
      for (double x : integral ? std::vector<double>{std::floor(c) - 1, std::floor(c), std::ceil(c),
                                                     std::ceil(c) + 1, 2 * c}
                               : std::vector<double>{c - 0.5, c, c + 0.5})
        points.insert(x);
    }
    SampleAxis axis{&p, integral, {}};
    for (double x : points)
      if ((!lo || x >= lo->as_double()) && (!hi || x <= hi->as_double())) axis.points.push_back(x);
    if (!axis.points.empty()) axes.push_back(std::move(axis));
  }
  return axes;
}

// A call (its values, "n = 3, m = 0") that `special` accepts and `general` rejects, or "".
std::string counterexample(const ir::Application& app, const ir::Options& options,
                           const ir::Interface& iface, const ir::Variant& special,
                           const ir::Variant& general) {
  const std::vector<SampleAxis> axes = sample_axes(iface, special, general);
  size_t combinations = 1;
  for (const SampleAxis& a : axes) combinations *= a.points.size();
  if (combinations > 100000) return "";
  std::string call;
  find_point(axes, [&](const std::vector<double>& at) {
    if (constraints_at(app, options, iface, special, axes, at) != Verdict::Accepts ||
        constraints_at(app, options, iface, general, axes, at) != Verdict::Rejects)
      return false;
    call = axes.empty() ? "any call" : call_at(axes, at);
    return true;
  });
  return call;
}

void check_implication(const ir::Application& app, const ir::Options& options,
                       const ir::Interface& iface, const ir::Variant& special,
                       const ir::Variant& general, diag::Diagnostics& diag) {
  const ir::Constraint* missing = unwritten(special, general);
  if (missing == nullptr) return;  // each of the general's conditions is one of its own
  const std::string call = counterexample(app, options, iface, special, general);
  if (!call.empty()) {
    diag.error(special.specializes_loc,
               "implementation '" + special.name + "' specializes '" + general.name +
                   "', but its constraints do not imply those of '" + general.name + "': with " +
                   call + " it accepts the call and '" + general.name +
                   "' does not (a specialization accepts only calls the general variant "
                   "accepts)");
    diag.note(missing->expr.loc, "the constraint of '" + general.name + "' that fails there");
    return;
  }
  diag.warning(special.specializes_loc,
               "cannot tell whether the constraints of '" + special.name + "' imply those of '" +
                   general.name + "' ('" + missing->expr.text + "' is not among its own); '" +
                   special.name + "' runs first wherever it accepts a call");
}

void check_interface(const ir::Application& app, const ir::Options& options,
                     const ir::Interface& iface, diag::Diagnostics& diag) {
  std::vector<const ir::Variant*> general(iface.variants.size(), nullptr);
  for (size_t k = 0; k < iface.variants.size(); ++k) {
    const ir::Variant& v = iface.variants[k];
    if (v.specializes.empty()) continue;
    if (v.specializes == v.name) {
      diag.error(v.specializes_loc, "implementation '" + v.name + "' specializes itself");
      continue;
    }
    if (const ir::Variant* g = find_variant(iface, v.specializes)) {
      general[k] = g;
      continue;
    }
    std::string elsewhere;
    for (const ir::Interface& other : app.interfaces)
      if (&other != &iface && find_variant(other, v.specializes)) elsewhere = other.name;
    std::vector<std::string> names;
    for (const ir::Variant& w : iface.variants)
      if (&w != &v) names.push_back(w.name);
    diag.error(v.specializes_loc,
               "implementation '" + v.name + "' specializes '" + v.specializes + "', " +
                   (elsewhere.empty()
                        ? "which is no implementation of interface '" + iface.name + "'" +
                              diag::did_you_mean(diag::closest_match_in(v.specializes, names))
                        : "an implementation of interface '" + elsewhere + "', not of '" +
                              iface.name + "' (a variant specializes one of its own interface)"));
  }
  // Cycles: each reported once, at its first variant in declaration order.
  const size_t n = iface.variants.size();
  bool cyclic = false;
  for (size_t k = 0; k < n; ++k) {
    std::string path = iface.variants[k].name;
    const ir::Variant* at = general[k];
    size_t steps = 0;
    bool first = true;
    while (at != nullptr && at != &iface.variants[k] && steps++ < n) {
      const size_t j = static_cast<size_t>(at - iface.variants.data());
      first = first && j > k;
      path += " -> " + at->name;
      at = general[j];
    }
    if (at != &iface.variants[k]) continue;
    cyclic = true;
    if (first) {
      diag.error(iface.variants[k].specializes_loc,
                 "'specializes' makes a cycle: " + path + " -> " + iface.variants[k].name +
                     " (each variant must be more specific than the one it names)");
    }
  }
  if (cyclic) return;
  for (size_t k = 0; k < n; ++k)
    if (general[k] != nullptr)
      check_implication(app, options, iface, iface.variants[k], *general[k], diag);
}

}  // namespace

void check_specializations(const ir::Application& app, const ir::Options& options,
                           diag::Diagnostics& diag) {
  for (const ir::Interface& iface : app.interfaces) check_interface(app, options, iface, diag);
}

}  // namespace peppher::check
