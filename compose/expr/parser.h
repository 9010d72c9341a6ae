// The expression language of descriptors (constraints, numElements, partition,
// globalSize): a tokenizer and recursive-descent parser producing expr::Node trees, and
// the printer that turns a tree back into C++ for code generation.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compose/expr/ast.h"

namespace peppher::expr {

struct ParseError {
  int offset = 0;  // 0-based offset into the expression text
  std::string message;
};

struct ParseResult {
  std::unique_ptr<Node> root;  // null iff error is set
  std::optional<ParseError> error;
};

// Parses `text`; on failure reports the first error with its offset.
ParseResult parse(const std::string& text);

// C++ spelling of the tree, parenthesised only where precedence needs it. `rename`, if
// given, maps each identifier to the C++ text to emit for it.
std::string to_cpp(const Node& node,
                   const std::function<std::string(const std::string&)>& rename = nullptr);

// A predicate's C++ spelling in which a division or remainder by zero makes the whole
// predicate false instead of trapping: when the tree divides, an immediately invoked
// lambda whose divisions test their divisor; else to_cpp.
std::string to_cpp_guarded(const Node& node,
                           const std::function<std::string(const std::string&)>& rename = nullptr);

// Every identifier node in the tree, left to right.
void collect_identifiers(const Node& node, std::vector<const Node*>& out);

}  // namespace peppher::expr
