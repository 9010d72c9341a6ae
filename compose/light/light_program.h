// The light form's program: `compose main.cpp [more sources] [-I.. -L.. -l..]` without
// main.xml. The interfaces are the annotated declarations of the headers the sources
// include; the application is what a main.xml naming those sources would give.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::light {

// Whether the command line asks for the light form (sources given, no main.xml).
bool light_form(const ir::Options& options);

// The load stage of the light form (explore::load's counterpart): the application of
// options.sources with its interfaces (not yet resolved or checked: check/ does that).
ir::Application load(const ir::Options& options, diag::Diagnostics& diag);

}  // namespace peppher::light
