// Parses expression attributes and checks their identifiers against parameters,
// tunables and platform properties, with "did you mean" suggestions.
#include "compose/check/expressions.h"

#include <algorithm>

#include "compose/check/platform_queries.h"
#include "compose/check/predicates.h"
#include "compose/expr/parser.h"

namespace peppher::check {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A `/` or `%` whose divisor is a constant zero (`n/0`, `n%(2-2)`), or a constant part that
// overflows: the composed program would divide by zero (SIGFPE, or a made-up length)
// whatever the call's values. Reported at the first such operator.
void check_constant_parts(const expr::Node& node, const ir::Expression& e, const std::string& what,
                          diag::Diagnostics& diag) {
  const Lookup unknown = [](const std::string&) { return std::optional<Value>(); };
  if (node.kind == expr::NodeKind::Binary && (node.text == "/" || node.text == "%")) {
    EvalProblem problem;
    const std::optional<Value> divisor = evaluate(*node.operands[1], unknown, &problem);
    if (divisor && divisor->as_double() == 0) {
      diag.error(ir::loc_at(e, node.offset),
                 what + " divides by zero ('" + e.text + "': a divisor is always 0)");
      return;
    }
  }
  EvalProblem problem;
  bool constant = true;
  const Lookup note_unknown = [&](const std::string&) {
    constant = false;
    return std::optional<Value>();
  };
  evaluate(node, note_unknown, &problem);
  if (constant && problem.node != nullptr && problem.node == &node) {
    diag.error(ir::loc_at(e, node.offset), what + " " + problem.message);
    return;
  }
  for (const auto& operand : node.operands) check_constant_parts(*operand, e, what, diag);
}

}  // namespace

void resolve_expression(ir::Expression& e, const std::string& what, const Scope& scope,
                        diag::Diagnostics& diag) {
  expr::ParseResult r = expr::parse(e.text);
  if (r.error) {
    diag.error(ir::loc_at(e, r.error->offset), what + " does not parse: " + r.error->message);
    return;
  }
  std::vector<const expr::Node*> ids;
  expr::collect_identifiers(*r.root, ids);
  for (const expr::Node* id : ids) {
    const std::string& n = id->text;
    ir::SourceLoc at = ir::loc_at(e, id->offset);
    if (n == scope.self && !n.empty()) {
      diag.error(at, what + " refers to the parameter itself");
      continue;
    }
    if (contains(scope.parameters, n) || contains(scope.tunables, n)) continue;
    const size_t dot = n.find('.');
    if (dot != std::string::npos && contains(scope.parameters, n.substr(0, dot))) {
      const std::string param = n.substr(0, dot), member = n.substr(dot + 1);
      if (!contains(scope.matrices, param)) {
        diag.error(at, what + " uses '" + n + "', but only peppher::Matrix parameters have " +
                           "members (.rows, .cols); '" + param + "' is not one");
      } else if (member != "rows" && member != "cols") {
        diag.error(at, what + " uses '" + n + "': a matrix parameter has .rows and .cols" +
                           diag::did_you_mean(diag::closest_match_in(
                               member, std::vector<std::string>{"rows", "cols"})));
      }
      continue;
    }
    if (n.compare(0, 9, "platform.") == 0 && scope.allow_platform) {
      std::string prop = n.substr(9);
      if (contains(scope.platform, prop)) continue;
      std::string known;
      for (const std::string& k : scope.platform)
        known += (known.empty() ? "" : ", ") + std::string("platform.") + k;
      diag.error(at, what + " uses unknown platform property '" + n + "' (known: " + known + ")");
      continue;
    }
    if (scope.allow_platform) {
      if (std::optional<InstalledQuery> q = installed_query(n)) {
        if (installed_set(q->set).empty()) {
          std::vector<std::string> sets;
          std::string listed;
          for (const ir::XpdlSet& s : ir::kXpdlSets) {
            listed += (sets.empty() ? "" : &s == std::end(ir::kXpdlSets) - 1 ? " and " : ", ");
            sets.push_back(std::string("xpdl::system::") + s.set);
            listed += sets.back();
          }
          diag.error(at, what + " asks whether '" + q->name + "' is installed in '" + q->set +
                             "'; XPDL's sets are " + listed +
                             diag::did_you_mean(diag::closest_match_in(q->set, sets)));
        }
        continue;
      }
      if (std::optional<std::string> prop = xpdl_system_property(n)) {
        if (contains(scope.platform, *prop)) continue;
        diag.error(at, what + " uses '" + n + "', which only a platform descriptor can give: " +
                           "add <peppher:property name=\"" + *prop + "\" value=\"...\"/> " +
                           "to it (known without one: xpdl::system::num_of_gpus, " +
                           "xpdl::system::num_of_cpus)");
        continue;
      }
    }
    std::vector<std::string> all = scope.parameters;
    all.insert(all.end(), scope.tunables.begin(), scope.tunables.end());
    std::string kind = scope.tunables.empty() ? "parameter" : "parameter or tunable";
    diag.error(at, what + " names unknown " + kind + " '" + n + "'" +
                       diag::did_you_mean(diag::closest_match_in(n, all)));
  }
  if (scope.refuse_constant_faults) check_constant_parts(*r.root, e, what, diag);
  e.ast = std::shared_ptr<const expr::Node>(std::move(r.root));
}

}  // namespace peppher::check
