// The one mapping from Clang's AST to the scanner's plain structs (scanned.h): which
// declarations are components, and what each parameter is. Only scan/ includes this.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include "compose/utility/scan/scanned.h"

namespace peppher::scan {

class FunctionMapper {
 public:
  FunctionMapper(clang::ASTContext& ctx, std::vector<ScannedFunction>& out)
      : ctx_(ctx), out_(out) {}

  // Whether the visitor should descend into d at all: only declarations written in the
  // scanned header (not in headers it includes, not in system headers).
  bool worth_visiting(const clang::Decl& d) const;
  // Maps d into a ScannedFunction when it is a component candidate: a free function
  // (or function template) first declared in the header itself.
  void add(const clang::FunctionDecl& d);

 private:
  ir::SourceLoc location(clang::SourceLocation loc) const;
  ScannedParam map_param(const clang::ParmVarDecl& p) const;
  std::vector<ScannedAnnotation> annotations(const clang::Decl& d) const;

  clang::ASTContext& ctx_;
  std::vector<ScannedFunction>& out_;
};

}  // namespace peppher::scan
