// What a constraint means before the program runs: a three-valued evaluator of expression
// trees (true, false, or unknown until run time) and the compose-time values of platform
// names. Shared by the exhaustiveness check, static pruning (expand/) and emit/.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "compose/expr/ast.h"
#include "compose/ir/ir.h"

namespace peppher::check {

// A known value: integers keep C's integer arithmetic (division truncates).
struct Value {
  bool is_int = true;
  long long i = 0;
  double d = 0;
  double as_double() const { return is_int ? static_cast<double>(i) : d; }
  bool truth() const { return is_int ? i != 0 : d != 0; }
};

// The value of an identifier, or nullopt when it is only known at run time.
using Lookup = std::function<std::optional<Value>(const std::string&)>;

// What went wrong evaluating known values: integer overflow or division by zero (the
// result is then nullopt, never a trap), with the operator node at fault.
struct EvalProblem {
  std::string message;  // "overflows (long long)", "divides by zero"
  const expr::Node* node = nullptr;
};

// Evaluates `node`; nullopt when the result depends on an unknown identifier, overflows or
// divides by zero (then `problem`, if given, says which; the first one found is kept).
// Integer arithmetic is overflow-checked. `false && unknown` is false and
// `true || unknown` is true, as in C.
std::optional<Value> evaluate(const expr::Node& node, const Lookup& lookup,
                              EvalProblem* problem = nullptr);

// The value of a platform name (`platform.X`, `xpdl::system::num_of_gpus`) at compose
// time for interface `iface`: the platform descriptor's property when it gives one; else
// 0 for the CUDA / OpenCL counts when that backend is disabled for the interface (the
// composed program uses no such worker for it); else nullopt (read from StarPU at run time).
std::optional<Value> platform_value(const ir::Application& app, const ir::Options& options,
                                    const ir::Interface& iface, const std::string& name);

// The compose-time value of a tunable of an expanded variant (its one value), else nullopt.
std::optional<Value> tunable_value(const ir::Variant& v, const std::string& name);

// Parses a number ("5000", "-3", "0.5"); nullopt when `text` is not one.
std::optional<Value> parse_number(const std::string& text);

// Whether the constraint is false whatever the call: the variant can never run here.
bool statically_false(const ir::Application& app, const ir::Options& options,
                      const ir::Interface& iface, const ir::Variant& v, const ir::Constraint& c);

// Whether the constraint is true whatever the call: nothing to test at run time.
bool statically_true(const ir::Application& app, const ir::Options& options,
                     const ir::Interface& iface, const ir::Variant& v, const ir::Constraint& c);

}  // namespace peppher::check
