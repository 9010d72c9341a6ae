// The header scanner: parses one C/C++ header with Clang LibTooling and returns the
// functions it declares itself, as plain structs (scanned.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/utility/scan/scanned.h"

namespace peppher::scan {

struct ScanSettings {
  // Compiler flags in command-line order (-I, -D, and whatever followed `--`); they come
  // after the scanner's defaults (-x c++-header -std=c++17), so they override them.
  std::vector<std::string> clang_args;
  // Folder of a compile_commands.json (-p); empty: none. A header missing from it gets the
  // command of the most similar file (as clangd does).
  std::string compile_commands_dir;
};

// Parses `header`. Parse errors go to diag as `file:line:col: error: ...` and give
// std::nullopt.
std::optional<ScannedHeader> scan_header(const std::string& header, const ScanSettings& settings,
                                         diag::Diagnostics& diag);

}  // namespace peppher::scan
