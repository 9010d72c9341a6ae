// Finds and loads the training table of an application (compose --train writes it next to
// main.xml as peppher_perf.<platform>.xml): part of exploration, since it reads a file.
#pragma once

#include <string>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::explore {

/// The platform a training table is for: main.xml's platform descriptor name, else this
/// machine's host name.
std::string platform_name(const ir::Application& app);

/// `<main.xml's folder>/peppher_perf.<platform>.xml`.
std::string default_table_path(const ir::Application& app);

/// Loads app.table: the -staticDispatch=TABLE file if given; else the default table when
/// -staticDispatch or --explain asks for it (an error if -staticDispatch finds none) or
/// when it simply exists (it then seeds the performance models).
void load_table(ir::Application& app, const ir::Options& options, diag::Diagnostics& diag);

}  // namespace peppher::explore
