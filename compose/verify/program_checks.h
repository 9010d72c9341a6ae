// Checks of the program's own sources (main.xml's), over what the facts stage read in them
// (facts/main_linkage.h) and the files around them: a definition the entry wrapper replaces,
// a file Clang refused to open, a header of an earlier composition that shadows this one's.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/facts/main_linkage.h"
#include "compose/ir/ir.h"

namespace peppher::verify {

/// Reports each of @p d's definitions as an error at the definition, and each refused file
/// at its #include.
void report_program_definitions(const facts::ProgramDeclarations& d, diag::Diagnostics& diag);

/// Warns at each source of the program that would include a header of another composition
/// instead of this one's: a peppher.h or wrapper header (by name) in the source's folder or
/// in one of its -I / -iquote folders other than the output folder, as an earlier compose
/// into that folder leaves them. A quoted #include finds them before the output folder's.
void warn_shadowed_headers(const ir::Application& app, const ir::Options& options,
                           diag::Diagnostics& diag);

}  // namespace peppher::verify
