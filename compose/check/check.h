// Resolve and check: completes the explored IR (parameter kinds and element types, parsed
// expressions, -disableImpls applied) and reports every semantic mistake in it. After
// this stage later stages may rely on the IR being consistent when no error was reported.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

/// The check stage: the loaded application, resolved (returned) and checked.
ir::Application resolve_and_check(ir::Application app, const ir::Options& options,
                                  diag::Diagnostics& diag);

// Parts, for tests and for resolve_and_check.
void resolve_interface(const ir::Application& app, ir::Interface& iface, diag::Diagnostics& diag);
void resolve_variants(ir::Application& app, const ir::Options& options, diag::Diagnostics& diag);
void check_main(const ir::Application& app, diag::Diagnostics& diag);

/// Reports source file `f` (of main.xml or of a variant) at its element when it is not a
/// regular file: missing, a folder, a FIFO, a device, a link to one (Clang must not read it).
void check_source_file(const ir::SourceFile& f, diag::Diagnostics& diag);

}  // namespace peppher::check
