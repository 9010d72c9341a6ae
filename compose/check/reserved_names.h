// check/ rules on names that become C/C++ identifiers. Interface parameters may not take a
// name the generated code declares next to them (names/names.h): the reserved `peppher_`
// prefix and PeppherArgs, or an extent derived from another parameter's name (`x_size`
// beside a peppher::Vector `x`). No name may be a C or C++ keyword or a macro of the headers
// the generated code includes; functions the generated code declares at global scope
// (interfaces, variants) may not be named like what those headers declare (docs/FORMAT.md).
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

/// Reports each parameter of `iface` (kinds resolved) whose name the generated code
/// reserves, at the parameter.
void check_reserved_names(const ir::Interface& iface, diag::Diagnostics& diag);

/// Why `name` cannot be an identifier of generated code (a parameter, a template type, a
/// tunable's macro, a kernel), said after "'<name>' is reserved: " ("'class' is a C++
/// keyword"), or "" when it can: C and C++ keywords and alternative tokens, the macros of
/// the headers every wrapper includes (errno, NULL, EOF), StarPU's prefixes.
std::string reserved_identifier(const std::string& name);

/// As reserved_identifier, for a function the generated code declares at global scope (an
/// interface's entry wrapper, a variant): also `main`, the namespaces `peppher` and `std`,
/// names with a leading '_' (the implementation's), and every name the included headers
/// declare (malloc, printf, exit, starpu_init, pthread_create: system_names.inc, found by
/// compiling such a declaration after them).
std::string reserved_function_name(const std::string& name);

/// Every name reserved_identifier or reserved_function_name refuses by list (keywords,
/// system names, `main`, `peppher`, `std`): for the tests that compose each.
std::vector<std::string> listed_reserved_names();

}  // namespace peppher::check
