// Where the runtime library and headers are, for the generated Makefile: the build tree
// when compose runs from it, else the installation prefix compose was installed into.
#pragma once

#include "compose/emit/generate.h"

namespace peppher {

/// The EmitSettings of this compose binary (build tree or installation).
emit::EmitSettings locate_runtime();

}  // namespace peppher
