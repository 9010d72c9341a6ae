// Classifies a parameter's C/C++ type as written in the descriptor: by-value scalar or
// struct, raw pointer, or one of the smart containers, with its element type.
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::check {

struct TypeInfo {
  ir::ParamKind kind = ir::ParamKind::ScalarValue;
  std::string elem_type;  // without const
  bool is_const = false;
  std::string problem;  // non-empty: why this type cannot be a component parameter
};

/// Whether `t` spells a built-in arithmetic type (`bool`, `int`, `unsigned long`, `double`,
/// `int64_t`, ...), `const` aside.
bool is_arithmetic_type(const std::string& t);

TypeInfo classify_type(const std::string& type, const std::vector<std::string>& template_types);

}  // namespace peppher::check
