// What descriptor text may contain before it reaches generated code and build files.
// Descriptors come from third parties: names become C++ identifiers and file names, types
// are pasted into C++, file names and flags into the Makefile, peppher.cmake and OpenCL
// build options. These checks (docs/FORMAT.md "Names") keep all of that inert.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

/// `[A-Za-z_][A-Za-z0-9_]*`.
bool is_identifier(const std::string& s);

/// Why `type` is not a type spelling compose understands (letters, digits, `_`, `::`,
/// `<>`, `,`, `*`, `&` and blanks, balanced `<>`), or "" when it is one.
std::string type_spelling_problem(const std::string& type);

/// Why `word` cannot go into a generated build file (whitespace, `$`, `#`, `;`, quotes,
/// backslash, backtick, control characters), or "" when it can (quoted where needed).
std::string build_word_problem(const std::string& word);

/// Why compile or link flags cannot go into generated build files ("'WORD' contains ..."),
/// or "" when they can: each word as build_word_problem, except that a `$` may start a plain
/// reference to a variable, `$(NAME)` or `${NAME}`, which the Makefile keeps for make to
/// expand and peppher.cmake reads from the environment; not to a variable the generated
/// Makefile or make sets itself (variables_not_from_outside).
std::string flags_problem(const std::string& flags);

/// The variables a flag may not refer to: those the generated Makefile sets (LINK,
/// OBJECTS, ...) and those make sets itself (MAKE, CURDIR, ...). Their values are not the
/// environment's, so peppher.cmake could not reproduce them.
const std::vector<std::string>& variables_not_from_outside();

/// Checks every name, type spelling, file name, compiler word, flag, tunable value and
/// platform name of the explored application; reports each mistake at its element.
void check_untrusted_text(const ir::Application& app, diag::Diagnostics& diag);

/// Value checks that need resolved parameters: numeric and ordered `range` bounds;
/// `numElements` / `descRowWidth` naming only integer by-value parameters; tunables and
/// platform properties used in constraints holding numbers; constant sub-expressions of
/// constraints that overflow or divide by zero.
void check_values(const ir::Application& app, diag::Diagnostics& diag);

}  // namespace peppher::check
