// Command-line parsing: the original single-dash, case-insensitive PEPPHER options
// (-disableImpls=a,b) and their double-dash spellings (--disable-impls a,b) into ir::Options.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::cli {

// Parses args (without argv[0]); reports mistakes to diag. Returns false on any error.
bool parse_options(const std::vector<std::string>& args, ir::Options& out, diag::Diagnostics& diag);

std::string usage_text();
std::string version_text();

}  // namespace peppher::cli
