// Three-valued evaluation of constraint expressions and the compose-time values of
// platform names and tunables (see predicates.h).
#include "compose/check/predicates.h"

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "compose/check/platform_queries.h"
#include "compose/ir/backends.h"

namespace peppher::check {
namespace {

Value of_int(long long i) {
  return Value{true, i, 0};
}
Value of_bool(bool b) {
  return of_int(b ? 1 : 0);
}

void note(EvalProblem* problem, const expr::Node& node, const char* message) {
  if (problem != nullptr && problem->node == nullptr) *problem = EvalProblem{message, &node};
}

std::optional<Value> arithmetic(const expr::Node& node, const Value& a, const Value& b,
                                EvalProblem* problem) {
  const std::string& op = node.text;
  if (a.is_int && b.is_int) {
    long long r = 0;
    bool overflow = false;
    if (op == "+")
      overflow = __builtin_add_overflow(a.i, b.i, &r);
    else if (op == "-")
      overflow = __builtin_sub_overflow(a.i, b.i, &r);
    else if (op == "*")
      overflow = __builtin_mul_overflow(a.i, b.i, &r);
    else if (op == "/" || op == "%") {
      if (b.i == 0) {
        note(problem, node, "divides by zero");
        return std::nullopt;
      }
      if (a.i == LLONG_MIN && b.i == -1) {  // the one quotient that does not fit (SIGFPE)
        overflow = true;
      } else {
        r = op == "/" ? a.i / b.i : a.i % b.i;
      }
    } else {
      return std::nullopt;
    }
    if (overflow) {
      note(problem, node, "overflows (the result does not fit in 64 bits)");
      return std::nullopt;
    }
    return of_int(r);
  }
  double x = a.as_double(), y = b.as_double();
  if (op == "+") return Value{false, 0, x + y};
  if (op == "-") return Value{false, 0, x - y};
  if (op == "*") return Value{false, 0, x * y};
  if ((op == "/" || op == "%") && y == 0) {
    note(problem, node, "divides by zero");
    return std::nullopt;
  }
  if (op == "/") return Value{false, 0, x / y};
  return std::nullopt;  // % on floating values is not C
}

template <typename T>
std::optional<Value> compare(const std::string& op, T x, T y) {
  if (op == "==") return of_bool(x == y);
  if (op == "!=") return of_bool(x != y);
  if (op == "<") return of_bool(x < y);
  if (op == "<=") return of_bool(x <= y);
  if (op == ">") return of_bool(x > y);
  if (op == ">=") return of_bool(x >= y);
  return std::nullopt;
}

std::optional<Value> comparison(const std::string& op, const Value& a, const Value& b) {
  if (a.is_int && b.is_int) return compare(op, a.i, b.i);
  return compare(op, a.as_double(), b.as_double());
}

}  // namespace

std::optional<Value> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long long i = std::strtoll(text.c_str(), &end, 10);
  if (*end == '\0' && errno != ERANGE) return of_int(i);
  if (*end == '\0') return Value{false, 0, std::strtod(text.c_str(), nullptr)};  // too big
  double d = std::strtod(text.c_str(), &end);
  if (*end == '\0') return Value{false, 0, d};
  return std::nullopt;
}

std::optional<Value> evaluate(const expr::Node& node, const Lookup& lookup, EvalProblem* problem) {
  switch (node.kind) {
    case expr::NodeKind::IntLiteral: {
      std::optional<Value> v = parse_number(node.text);
      if (!v || !v->is_int) note(problem, node, "does not fit in 64 bits");
      return v && v->is_int ? v : std::nullopt;
    }
    case expr::NodeKind::FloatLiteral:
      return parse_number(node.text);
    case expr::NodeKind::Identifier:
      return lookup(node.text);
    case expr::NodeKind::Unary: {
      std::optional<Value> v = evaluate(*node.operands[0], lookup, problem);
      if (!v) return std::nullopt;
      if (node.text == "!") return of_bool(!v->truth());
      if (node.text == "-") {
        if (!v->is_int) return Value{false, 0, -v->d};
        if (v->i == LLONG_MIN) {
          note(problem, node, "overflows (the result does not fit in 64 bits)");
          return std::nullopt;
        }
        return of_int(-v->i);
      }
      return v;
    }
    case expr::NodeKind::Binary:
      break;
  }
  const std::string& op = node.text;
  std::optional<Value> a = evaluate(*node.operands[0], lookup, problem);
  if (op == "&&" && a && !a->truth()) return of_bool(false);
  if (op == "||" && a && a->truth()) return of_bool(true);
  std::optional<Value> b = evaluate(*node.operands[1], lookup, problem);
  if (op == "&&" || op == "||") {
    if (b && (op == "&&") != b->truth()) return of_bool(op == "||");
    if (a && b) return of_bool(b->truth());
    return std::nullopt;
  }
  if ((op == "/" || op == "%") && b && !b->truth()) {
    note(problem, node, "divides by zero");
    return std::nullopt;
  }
  if (!a || !b) return std::nullopt;
  if (op == "+" || op == "-" || op == "*" || op == "/" || op == "%") {
    return arithmetic(node, *a, *b, problem);
  }
  return comparison(op, *a, *b);
}

std::optional<Value> platform_value(const ir::Application& app, const ir::Options& options,
                                    const ir::Interface& iface, const std::string& name) {
  if (auto fact = app.installed.find(name); fact != app.installed.end()) {
    return of_bool(fact->second.installed);
  }
  const std::optional<std::string> property = platform_property(name);
  if (!property) return std::nullopt;
  const std::string& prop = *property;
  if (app.platform) {
    auto it = app.platform->properties.find(prop);
    if (it == app.platform->properties.end() && prop == "num_cuda")
      it = app.platform->properties.find("num_of_gpus");
    if (it == app.platform->properties.end() && prop == "num_cpus")
      it = app.platform->properties.find("num_of_cpus");
    if (it != app.platform->properties.end()) return parse_number(it->second);
  }
  // A disabled device's workers do not count.
  const std::optional<ir::Backend> workers = worker_backend(prop);
  if (workers && ir::info(*workers).accelerator && !ir::backend_enabled(options, iface, *workers))
    return of_int(0);
  return std::nullopt;
}

std::optional<Value> tunable_value(const ir::Variant& v, const std::string& name) {
  for (const ir::Tunable& t : v.tunables) {
    if (t.name == name && t.values.size() == 1) return parse_number(t.values.front());
  }
  return std::nullopt;
}

namespace {

std::optional<Value> static_result(const ir::Application& app, const ir::Options& options,
                                   const ir::Interface& iface, const ir::Variant& v,
                                   const ir::Constraint& c) {
  if (!c.expr.ast) return std::nullopt;
  return evaluate(*c.expr.ast, [&](const std::string& n) -> std::optional<Value> {
    if (std::optional<Value> t = tunable_value(v, n)) return t;
    return platform_value(app, options, iface, n);
  });
}

}  // namespace

bool statically_false(const ir::Application& app, const ir::Options& options,
                      const ir::Interface& iface, const ir::Variant& v, const ir::Constraint& c) {
  std::optional<Value> r = static_result(app, options, iface, v, c);
  return r && !r->truth();
}

bool statically_true(const ir::Application& app, const ir::Options& options,
                     const ir::Interface& iface, const ir::Variant& v, const ir::Constraint& c) {
  std::optional<Value> r = static_result(app, options, iface, v, c);
  return r && r->truth();
}

}  // namespace peppher::check
