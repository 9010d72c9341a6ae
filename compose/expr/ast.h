// Expression AST shared by the expression parser and the IR: constraint, numElements,
// descRowWidth, partition and globalSize/localSize expressions. Plain data, printable back
// to C++ (expr/print.h) so code generation can emit it.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace peppher::expr {

enum class NodeKind {
  IntLiteral,    // text holds the spelling, e.g. "42"
  FloatLiteral,  // text holds the spelling, e.g. "0.5", "1e3"
  Identifier,    // text holds the full name: "size", "platform.num_cuda",
                 // "xpdl::system::num_of_gpus", and XPDL's library query
                 // "xpdl::is_installed<xpdl::system::libraries,xpdl_cublas_5_0>::value"
  Unary,         // text is the operator ("!", "-", "+"); operands[0]
  Binary,        // text is the operator ("&&", "<=", "*", ...); operands[0], operands[1]
};

struct Node {
  NodeKind kind = NodeKind::IntLiteral;
  std::string text;
  std::vector<std::unique_ptr<Node>> operands;
  int offset = 0;  // 0-based offset of this node's first character inside the expression text
};

}  // namespace peppher::expr
