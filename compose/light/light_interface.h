// The light form's reader: an annotated declaration in a header (scanned by utility mode's
// scanner) becomes the ir::Interface the XML reader would build, and the files named after
// it (<iface>_cpu.cpp, <iface>_opencl.cl, ...) become its variants.
#pragma once

#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::light {

// Whether `path` names a C/C++ header (.h, .hpp, .hh, .hxx): a light-form interface's.
bool is_header(const std::string& path);

// Reads `header` (a normalised path) with the scanner, `clang_args` (-I, -D) after
// PEPPHER_COMPOSE and the runtime's headers. Every function the header declares that
// carries a peppher annotation, or after which a variant file is named, becomes an
// interface with its variants; located errors (annotations, parameters compose cannot
// map) and warnings (variant files of unknown backends) go to diag.
std::vector<ir::Interface> read_header(const std::string& header,
                                       const std::vector<std::string>& clang_args,
                                       const std::vector<std::string>& system_dirs,
                                       diag::Diagnostics& diag);

}  // namespace peppher::light
