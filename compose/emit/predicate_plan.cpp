// Plans run-time constraints (see predicate_plan.h): each identifier of a constraint is
// renamed to its C++ in can_execute (task arguments, handle sizes) and in the entry
// wrapper (parameters); constraints decided at compose time are left out.
#include "compose/emit/predicate_plan.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "compose/check/predicates.h"
#include "compose/expr/parser.h"

namespace peppher::emit {
namespace {

const Operand* operand_named(const WrapperPlan& plan, const std::string& name) {
  for (const Operand& o : plan.operands)
    if (o.param->name == name) return &o;
  return nullptr;
}

std::string as_long(const std::string& cpp) { return "static_cast<long long>(" + cpp + ")"; }

std::string task_handle(const Operand& o) {
  return "STARPU_TASK_GET_HANDLE(peppher_task, " + std::to_string(o.buffer) + ")";
}

// "M.rows" / "M.cols" of a peppher::Matrix operand M (check/ allowed no other member), inside
// can_execute (the task's handle: a partitioned call's block) or the entry wrapper.
std::optional<std::string> matrix_extent(const WrapperPlan& plan, const std::string& name,
                                         bool task) {
  const size_t dot = name.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const Operand* o = operand_named(plan, name.substr(0, dot));
  if (o == nullptr || o->kind != OperandKind::Matrix) return std::nullopt;
  const bool rows = name.compare(dot + 1, std::string::npos, "rows") == 0;
  if (!task) return as_long(o->param->name + (rows ? ".rows()" : ".cols()"));
  return as_long(std::string(rows ? "starpu_matrix_get_ny(" : "starpu_matrix_get_nx(") +
                 task_handle(*o) + ")");
}

// An operand's value (by-value) or element count, inside can_execute.
std::string in_task(const Operand& o) {
  const std::string handle = task_handle(o);
  switch (o.kind) {
    case OperandKind::Value: return "peppher_args->" + o.param->name;
    case OperandKind::RawVector:
    case OperandKind::Vector: return as_long("starpu_vector_get_nx(" + handle + ")");
    case OperandKind::RawMatrix:
    case OperandKind::Matrix:
      return "(" + as_long("starpu_matrix_get_nx(" + handle + ")") + " * " +
             as_long("starpu_matrix_get_ny(" + handle + ")") + ")";
    case OperandKind::ScalarContainer:
    case OperandKind::Reference: break;
  }
  return "1LL";
}

// The same in the entry wrapper, over its parameters.
std::string in_call(const Operand& o) {
  switch (o.kind) {
    case OperandKind::Value: return o.param->name;
    case OperandKind::RawVector:
    case OperandKind::RawMatrix:
      return o.param->num_elements ? as_long(o.param->num_elements->text) : "0LL";
    case OperandKind::Vector:
    case OperandKind::Matrix: return as_long(o.param->name + ".size()");
    case OperandKind::ScalarContainer:
    case OperandKind::Reference: break;
  }
  return "1LL";
}

std::string literal(const check::Value& v) {
  if (v.is_int) return std::to_string(v.i) + "LL";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v.d);
  std::string s = buf;
  return s.find_first_of(".eEn") == std::string::npos ? s + ".0" : s;
}

// A platform name read from StarPU when the program runs (expand/ has reported any other
// name that has no value here).
std::string worker_count(const std::string& name) {
  if (name == "platform.num_cpus") return as_long("starpu_cpu_worker_get_count()");
  if (name == "platform.num_opencl") return as_long("starpu_opencl_worker_get_count()");
  return as_long("starpu_cuda_worker_get_count()");  // platform.num_cuda, num_of_gpus
}

std::string backend_workers(ir::Backend b) {
  switch (b) {
    case ir::Backend::Cpu:
    case ir::Backend::OpenMp: return "starpu_cpu_worker_get_count()";
    case ir::Backend::Cuda: return "starpu_cuda_worker_get_count()";
    case ir::Backend::OpenCl: return "starpu_opencl_worker_get_count()";
  }
  return "0";
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

void plan_slot(const ir::Application& app, WrapperPlan& plan, VariantSlot& slot,
               std::vector<std::string>& used) {
  const ir::Interface& iface = *plan.iface;
  const ir::Variant& v = *slot.variant;
  slot.workers = backend_workers(v.backend);
  for (const ir::Constraint& c : v.constraints) {
    if (!c.expr.ast || check::statically_true(app, iface, v, c)) continue;
    auto rename = [&](bool task) {
      return [&, task](const std::string& n) -> std::string {
        if (std::optional<std::string> extent = matrix_extent(plan, n, task)) {
          if (std::find(used.begin(), used.end(), n) == used.end()) used.push_back(n);
          return *extent;
        }
        if (const Operand* o = operand_named(plan, n)) {
          if (std::find(used.begin(), used.end(), n) == used.end()) used.push_back(n);
          return task ? in_task(*o) : in_call(*o);
        }
        if (std::optional<check::Value> t = check::tunable_value(v, n)) return literal(*t);
        if (std::optional<check::Value> p = check::platform_value(app, iface, n)) return literal(*p);
        return worker_count(n);
      };
    };
    RuntimePredicate p;
    p.label = one_line((c.name.empty() ? "constraint" : "constraint '" + c.name + "'") + ": " + c.expr.text);
    p.in_task = expr::to_cpp(*c.expr.ast, rename(true));
    p.in_call = expr::to_cpp(*c.expr.ast, rename(false));
    slot.predicates.push_back(std::move(p));
  }
}

// With the entry wrapper testing every call, a constraint that all variants share holds for
// every task (else no variant accepted the call); can_execute leaves it out.
void skip_shared_predicates(WrapperPlan& plan) {
  std::vector<VariantSlot*> slots;
  for (std::vector<VariantSlot>* group : {&plan.cpu_like, &plan.cuda, &plan.opencl})
    for (VariantSlot& s : *group) slots.push_back(&s);
  if (slots.empty()) return;
  for (const RuntimePredicate& p : slots.front()->predicates) {
    auto same = [&](const RuntimePredicate& q) { return q.in_call == p.in_call; };
    const bool shared = std::all_of(slots.begin(), slots.end(), [&](const VariantSlot* s) {
      return std::any_of(s->predicates.begin(), s->predicates.end(), same);
    });
    if (!shared) continue;
    for (VariantSlot* s : slots)
      for (RuntimePredicate& q : s->predicates)
        if (same(q)) q.in_can_execute = false;
  }
}

}  // namespace

bool tests_constraints_in_can_execute(const WrapperPlan& plan) {
  for (const std::vector<VariantSlot>* group : {&plan.cpu_like, &plan.cuda, &plan.opencl})
    for (const VariantSlot& s : *group)
      for (const RuntimePredicate& p : s.predicates)
        if (p.in_can_execute) return true;
  return false;
}

void plan_predicates(const ir::Application& app, WrapperPlan& plan) {
  std::vector<std::string> used;  // parameters the constraints read, in first-use order
  bool all_constrained = true, any_constrained = false;
  for (std::vector<VariantSlot>* group : {&plan.cpu_like, &plan.cuda, &plan.opencl}) {
    for (VariantSlot& s : *group) {
      plan_slot(app, plan, s, used);
      all_constrained = all_constrained && !s.predicates.empty();
      any_constrained = any_constrained || !s.predicates.empty();
    }
  }
  plan.check_call = any_constrained && all_constrained && !plan.partitioned;
  if (plan.check_call) skip_shared_predicates(plan);
  plan.can_execute = plan.forkjoin || tests_constraints_in_can_execute(plan);
  for (const std::string& n : used) {
    if (std::optional<std::string> extent = matrix_extent(plan, n, false)) {
      plan.checked_values.push_back({n, *extent});
      continue;
    }
    const Operand* o = operand_named(plan, n);
    plan.checked_values.push_back(
        {o->kind == OperandKind::Value ? n : "elements of " + n, in_call(*o)});
  }
}

}  // namespace peppher::emit
