// Value checks over resolved parameters and constraints (see untrusted_text.h): numbers
// where compose and the generated code need numbers, and no constant arithmetic that
// overflows or divides by zero.
#include <vector>

#include "compose/check/predicates.h"
#include "compose/check/untrusted_text.h"
#include "compose/expr/parser.h"

namespace peppher::check {
namespace {

const ir::Parameter* parameter_named(const ir::Interface& iface, const std::string& name) {
  for (const ir::Parameter& p : iface.parameters) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool is_floating(const std::string& type) {
  return type == "float" || type == "double" || type == "long double";
}

void check_range(const ir::Parameter& p, diag::Diagnostics& diag) {
  if (!p.range) return;
  std::optional<Value> lo = parse_number(p.range->lo), hi = parse_number(p.range->hi);
  for (const auto& [text, v] : {std::pair{p.range->lo, lo}, std::pair{p.range->hi, hi}}) {
    if (!v || !v->is_int) {
      diag.error(p.loc, "range bound '" + text + "' of parameter '" + p.name +
                            "' is not an integer (expected lo..hi, e.g. 1..4096)");
    }
  }
  if (lo && hi && lo->is_int && hi->is_int && lo->i > hi->i) {
    diag.error(p.loc, "range '" + p.range->lo + ".." + p.range->hi + "' of parameter '" + p.name +
                          "' is empty (lo > hi)");
  }
}

// numElements / descRowWidth: a length made of integer by-value parameters.
void check_length(const ir::Interface& iface, const ir::Parameter& p,
                  const std::optional<ir::Expression>& e, const char* attr,
                  diag::Diagnostics& diag) {
  if (!e || !e->ast) return;
  std::vector<const expr::Node*> ids;
  expr::collect_identifiers(*e->ast, ids);
  for (const expr::Node* id : ids) {
    const ir::Parameter* q = parameter_named(iface, id->text);
    if (q == nullptr) continue;  // reported by resolution
    std::string why;
    // A by-value type the tool does not know (cl_uint, size_type, an enum) may well be an
    // integer typedef: the C++ compiler judges it, as utility-mode skeletons of real headers need.
    if (q->kind != ir::ParamKind::ScalarValue && q->kind != ir::ParamKind::StructValue) {
      why = std::string("a ") + ir::to_string(q->kind) + " ('" + q->type + "')";
    } else if (is_floating(q->elem_type)) {
      why = "floating-point ('" + q->type + "')";
    }
    if (!why.empty()) {
      diag.error(ir::loc_at(*e, id->offset),
                 std::string(attr) + " of parameter '" + p.name + "' uses '" + q->name +
                     "', which is " + why + "; a length is made of integer by-value parameters");
    }
  }
}

const ir::Tunable* tunable_named(const ir::Variant& v, const std::string& name) {
  for (const ir::Tunable& t : v.tunables) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

void check_constraint(const ir::Application& app, const ir::Variant& v, const ir::Constraint& c,
                      diag::Diagnostics& diag) {
  if (!c.expr.ast) return;
  const std::string what = c.name.empty() ? "constraint" : "constraint '" + c.name + "'";
  std::vector<const expr::Node*> ids;
  expr::collect_identifiers(*c.expr.ast, ids);
  for (const expr::Node* id : ids) {
    if (const ir::Tunable* t = tunable_named(v, id->text)) {
      for (const std::string& value : t->values) {
        if (!parse_number(value)) {
          diag.error(ir::loc_at(c.expr, id->offset),
                     what + " uses tunable '" + t->name + "', whose value '" + value +
                         "' is not a number; constraints compare numbers");
          break;
        }
      }
    } else if (app.platform && id->text.compare(0, 9, "platform.") == 0) {
      auto it = app.platform->properties.find(id->text.substr(9));
      if (it != app.platform->properties.end() && !parse_number(it->second)) {
        diag.error(ir::loc_at(c.expr, id->offset),
                   what + " uses '" + id->text + "', whose value '" + it->second + "' (in " +
                       app.platform->file + ") is not a number; constraints compare numbers");
      }
    }
  }
  // Constant arithmetic: with every name unknown, whatever evaluates is constant.
  EvalProblem problem;
  evaluate(
      *c.expr.ast, [](const std::string&) { return std::optional<Value>(); }, &problem);
  if (problem.node != nullptr) {
    diag.error(ir::loc_at(c.expr, problem.node->offset),
               what + ": '" + expr::to_cpp(*problem.node) + "' " + problem.message);
  }
}

}  // namespace

void check_values(const ir::Application& app, diag::Diagnostics& diag) {
  for (const ir::Interface& iface : app.interfaces) {
    for (const ir::Parameter& p : iface.parameters) {
      check_range(p, diag);
      check_length(iface, p, p.num_elements, "numElements", diag);
      check_length(iface, p, p.desc_row_width, "descRowWidth", diag);
    }
    for (const ir::Variant& v : iface.variants) {
      for (const ir::Constraint& c : v.constraints) check_constraint(app, v, c, diag);
    }
  }
}

}  // namespace peppher::check
