// Plans run-time constraints (see predicate_plan.h): each identifier of a constraint is
// bound to what it stands for; constraints decided at compose time are left out.
#include "compose/plan/predicate_plan.h"

#include <algorithm>
#include <cassert>
#include <optional>

#include "compose/check/platform_queries.h"
#include "compose/check/predicates.h"
#include "compose/expr/parser.h"

namespace peppher::plan {
namespace {

int operand_named(const WrapperPlan& plan, const std::string& name) {
  for (size_t k = 0; k < plan.operands.size(); ++k) {
    if (plan.operands[k].param->name == name) return static_cast<int>(k);
  }
  return -1;
}

// "M.rows" / "M.cols" of a peppher::Matrix operand M (check/ allowed no other member).
std::optional<Term> matrix_extent(const WrapperPlan& plan, const std::string& name) {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const int o = operand_named(plan, name.substr(0, dot));
  if (o < 0 || plan.operands[o].kind != OperandKind::Matrix) return std::nullopt;
  Term t;
  t.kind = name.compare(dot + 1, std::string::npos, "rows") == 0 ? TermKind::Rows : TermKind::Cols;
  t.operand = o;
  return t;
}

// What a parameter's name stands for: its value (by-value) or its element count.
Term operand_term(const WrapperPlan& plan, int o) {
  Term t;
  t.kind = plan.operands[o].kind == OperandKind::Value ? TermKind::Value : TermKind::Elements;
  t.operand = o;
  return t;
}

// A platform name read from StarPU when the program runs: a worker count (check/ has
// reported any other platform name that has no compose-time value).
Term worker_count(const std::string& name) {
  const std::optional<std::string> prop = check::platform_property(name);
  const std::optional<ir::Backend> backend = prop ? check::worker_backend(*prop) : std::nullopt;
  assert(backend && "a platform name without a compose-time value is a worker count");
  Term t;
  t.kind = TermKind::Workers;
  t.backend = backend.value_or(ir::Backend::Cpu);
  return t;
}

Term literal(const check::Value& v) {
  Term t;
  t.kind = TermKind::Literal;
  t.literal = v;
  return t;
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

void remember(std::vector<std::string>& used, const std::string& name) {
  if (std::find(used.begin(), used.end(), name) == used.end()) used.push_back(name);
}

void plan_slot(const ir::Application& app, const ir::Options& options, const WrapperPlan& plan,
               VariantSlot& slot, std::vector<std::string>& used) {
  const ir::Interface& iface = *plan.iface;
  const ir::Variant& v = *slot.variant;
  for (const ir::Constraint& c : v.constraints) {
    if (!c.expr.ast || check::statically_true(app, options, iface, v, c)) continue;
    RuntimePredicate p;
    p.label = one_line((c.name.empty() ? "constraint" : "constraint '" + c.name + "'") + ": " +
                       c.expr.text);
    p.expr = c.expr.ast.get();
    std::vector<const expr::Node*> ids;
    expr::collect_identifiers(*p.expr, ids);
    for (const expr::Node* id : ids) {
      const std::string& n = id->text;
      Term t;
      if (std::optional<Term> extent = matrix_extent(plan, n)) {
        remember(used, n);
        t = *extent;
      } else if (const int o = operand_named(plan, n); o >= 0) {
        remember(used, n);
        t = operand_term(plan, o);
      } else if (std::optional<check::Value> tv = check::tunable_value(v, n)) {
        t = literal(*tv);
      } else if (std::optional<check::Value> pv = check::platform_value(app, options, iface, n)) {
        t = literal(*pv);
      } else {
        t = worker_count(n);
      }
      p.bindings.push_back({n, t});
    }
    slot.predicates.push_back(std::move(p));
  }
}

// Whether two predicates test the same thing in the entry wrapper: the same tree over
// identifiers that stand for the same values.
bool same_test(const expr::Node& a, const RuntimePredicate& pa, const expr::Node& b,
               const RuntimePredicate& pb) {
  if (a.kind != b.kind || a.operands.size() != b.operands.size()) return false;
  if (a.kind == expr::NodeKind::Identifier) {
    if (!(pa.term(a.text) == pb.term(b.text))) return false;
  } else if (a.text != b.text) {
    return false;
  }
  for (size_t k = 0; k < a.operands.size(); ++k) {
    if (!same_test(*a.operands[k], pa, *b.operands[k], pb)) return false;
  }
  return true;
}

// One helper per distinct test: predicates that test the same thing share it.
void plan_helpers(WrapperPlan& plan) {
  for (std::vector<VariantSlot>& group : plan.slots) {
    for (VariantSlot& s : group) {
      for (RuntimePredicate& p : s.predicates) {
        auto same = [&](const RuntimePredicate& h) { return same_test(*h.expr, h, *p.expr, p); };
        auto found =
            std::find_if(plan.predicate_helpers.begin(), plan.predicate_helpers.end(), same);
        p.helper = static_cast<int>(found - plan.predicate_helpers.begin());
        if (found == plan.predicate_helpers.end()) plan.predicate_helpers.push_back(p);
      }
    }
  }
}

// With the entry wrapper testing every call, a constraint that all variants share holds for
// every task (else no variant accepted the call); can_execute leaves it out.
void skip_shared_predicates(WrapperPlan& plan) {
  std::vector<VariantSlot*> slots;
  for (std::vector<VariantSlot>& group : plan.slots) {
    for (VariantSlot& s : group) slots.push_back(&s);
  }
  if (slots.empty()) return;
  for (const RuntimePredicate& p : slots.front()->predicates) {
    auto same = [&](const RuntimePredicate& q) { return same_test(*q.expr, q, *p.expr, p); };
    const bool shared = std::all_of(slots.begin(), slots.end(), [&](const VariantSlot* s) {
      return std::any_of(s->predicates.begin(), s->predicates.end(), same);
    });
    if (!shared) continue;
    for (VariantSlot* s : slots) {
      for (RuntimePredicate& q : s->predicates) {
        if (same(q)) q.in_can_execute = false;
      }
    }
  }
}

}  // namespace

bool Term::operator==(const Term& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case TermKind::Value:
    case TermKind::Elements:
    case TermKind::Rows:
    case TermKind::Cols:
      return operand == o.operand;
    case TermKind::Literal:
      return literal.is_int == o.literal.is_int &&
             (literal.is_int ? literal.i == o.literal.i : literal.d == o.literal.d);
    case TermKind::Workers:
      return backend == o.backend;
  }
  return false;
}

const Term& RuntimePredicate::term(const std::string& name) const {
  for (const Binding& b : bindings) {
    if (b.name == name) return b.term;
  }
  assert(false && "every identifier of a predicate is bound");
  return bindings.front().term;
}

std::vector<Binding> RuntimePredicate::operand_bindings() const {
  std::vector<Binding> out;
  for (const Binding& b : bindings) {
    if (b.term.kind == TermKind::Literal || b.term.kind == TermKind::Workers) continue;
    auto seen = [&](const Binding& o) { return o.name == b.name; };
    if (std::none_of(out.begin(), out.end(), seen)) out.push_back(b);
  }
  return out;
}

namespace {

// Whether can_execute tests any constraint (after the slots' predicates are planned).
bool tests_constraints_in_can_execute(const WrapperPlan& plan) {
  for (const std::vector<VariantSlot>& group : plan.slots) {
    for (const VariantSlot& s : group) {
      for (const RuntimePredicate& p : s.predicates) {
        if (p.in_can_execute) return true;
      }
    }
  }
  return false;
}

}  // namespace

void plan_predicates(const ir::Application& app, const ir::Options& options, WrapperPlan& plan) {
  std::vector<std::string> used;  // parameters the constraints read, in first-use order
  bool all_constrained = true, any_constrained = false;
  for (std::vector<VariantSlot>& group : plan.slots) {
    for (VariantSlot& s : group) {
      plan_slot(app, options, plan, s, used);
      all_constrained = all_constrained && !s.predicates.empty();
      any_constrained = any_constrained || !s.predicates.empty();
    }
  }
  plan.check_call = any_constrained && all_constrained && !plan.partitioned;
  if (plan.check_call) skip_shared_predicates(plan);
  plan_helpers(plan);
  plan.constraints_in_can_execute = tests_constraints_in_can_execute(plan);
  plan.can_execute = plan.forkjoin || plan.constraints_in_can_execute;
  for (const std::string& n : used) {
    if (std::optional<Term> extent = matrix_extent(plan, n)) {
      plan.checked_values.push_back({n, *extent});
      continue;
    }
    const int o = operand_named(plan, n);
    const Term t = operand_term(plan, o);
    plan.checked_values.push_back({t.kind == TermKind::Value ? n : "elements of " + n, t});
  }
}

}  // namespace peppher::plan
