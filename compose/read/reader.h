// The descriptor reader: one XML file in, its IR pieces out (an interface, the
// implementations, or a platform), with every structural mistake reported with its
// position. The only public entry to read/; the only code in compose/ that sees pugixml.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::read {

// One <peppher:implementation>: a variant, or the application's main descriptor.
struct Implementation {
  ir::Variant variant;  // sources include the link step (compiler type="link"), if any
  bool has_target = false;
  std::string pdl_ref;  // targetPlatform pdlRef as written
  ir::SourceLoc pdl_ref_loc;
  std::optional<ir::Composition> composition;  // main only
};

struct Descriptor {
  std::string file;
  bool ok = false;  // well-formed XML with a <peppher:component> root
  ir::SourceLoc root_loc;
  std::optional<ir::Interface> interface;
  std::vector<Implementation> implementations;
  std::optional<ir::Platform> platform;
};

// Reads `path` from disk (reporting if it cannot be opened; `from` is where it was named).
Descriptor read_descriptor_file(const std::string& path, const ir::SourceLoc& from,
                                diag::Diagnostics& diag);
// Reads descriptor text held in memory; `path` is used in locations and as the file name.
Descriptor read_descriptor_text(const std::string& path, std::string text, diag::Diagnostics& diag);

}  // namespace peppher::read
