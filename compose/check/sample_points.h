// Sample calls of an interface, for the checks that ask "does some call make these
// constraints disagree?" (exhaustive.cpp: no variant accepts it; specializes.cpp: the
// specialising variant accepts it and the general one does not): values of its scalar
// parameters around the constants the constraints compare them with, and every combination.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "compose/expr/ast.h"
#include "compose/ir/ir.h"

namespace peppher::check {

/// One scalar parameter's sample values.
struct SampleAxis {
  const ir::Parameter* param = nullptr;
  bool integral = true;        // not a float or double parameter
  std::vector<double> points;  // sorted
};

/// True unless @p type is a floating-point type.
bool integral_type(const std::string& type);

/// The constants the constraints of @p variants compare @p name with (1000 in `n < 1000`).
std::set<double> compared_constants(const std::vector<const ir::Variant*>& variants,
                                    const std::string& name);

/// Whether every constraint of @p v holds at the point @p at (one value per axis), one fails,
/// or neither is known (a constraint on something the axes do not give).
enum class Verdict { Rejects, Unknown, Accepts };
Verdict constraints_at(const ir::Application& app, const ir::Options& options,
                       const ir::Interface& iface, const ir::Variant& v,
                       const std::vector<SampleAxis>& axes, const std::vector<double>& at);

/// @p x as compose prints a sample value ("%.15g").
std::string number(double x);

/// The call at @p at, "n = 3, m = 0".
std::string call_at(const std::vector<SampleAxis>& axes, const std::vector<double>& at);

/// Calls @p visit with every combination of the axes' points (the first axis fastest) until it
/// returns true; returns whether it did.
bool find_point(const std::vector<SampleAxis>& axes,
                const std::function<bool(const std::vector<double>&)>& visit);

}  // namespace peppher::check
