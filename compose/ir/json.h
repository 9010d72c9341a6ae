// The resolved IR as deterministic, indented JSON (`compose --print-ir`), for users who
// want to see what the composer understood and for tests.
#pragma once

#include <string>

#include "compose/ir/ir.h"

namespace peppher::ir {

std::string to_json(const Application& app, const Options& options);

}  // namespace peppher::ir
