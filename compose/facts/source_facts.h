// The facts stage's record: what Clang read in the program's and the variants' sources
// (facts/' readers and verify/verify.cpp read them), as plain data. expand/ and plan/ take
// it as input; nothing writes into it after the reading, and it holds no Clang type.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::facts {

/// The instantiations of generic interfaces the program calls that no descriptor lists, by
/// interface name: each call's template arguments (canonical spellings), each list once.
/// expand/ takes them as the instantiate lists of the requiredInterfaces naming them.
using CalledInstantiations = std::map<std::string, std::vector<std::vector<std::string>>>;

/// How a verified CPU/OpenMP/CUDA variant's function is declared in its source, where the
/// backend wrapper must declare and call it the same way.
struct FoundFunction {
  bool c_linkage = false;  // extern "C" in a C++ or CUDA source
  std::string scope;       // its namespace ("blas"): the wrapper calls blas::name
};

/// Where an OpenCL kernel takes a localArg of its descriptor: the kernel parameter's index
/// and the size of its pointee type (what the wrapper multiplies the element count by).
struct LocalPlacement {
  const ir::LocalArg* arg = nullptr;
  size_t index = 0;
  int elem_bytes = 0;
};

/// What the variants' sources say (verify::verify_variants reads them).
struct VariantFacts {
  /// By variant name (the base name of tunable copies): the functions found with C linkage
  /// or in a namespace.
  std::map<std::string, FoundFunction> functions;
  /// By OpenCL variant (of the expanded application): its kernel's __local arguments.
  std::map<const ir::Variant*, std::vector<LocalPlacement>> local_args;
};

/// Everything plan/ takes from the sources of an expanded application.
struct SourceFacts {
  /// The interfaces the program's C++ sources declare extern "C" (a C library's header):
  /// their entry wrappers get C linkage (facts/main_linkage.h).
  std::set<std::string> c_declared;
  /// The first program source that names StarPU (starpu_callers.h), "" when none does.
  std::string starpu_caller;
  /// Empty when the variants are not read (--explain).
  VariantFacts variants;
};

}  // namespace peppher::facts
