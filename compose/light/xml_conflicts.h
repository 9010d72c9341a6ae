// The light form beside the XML form: an interface descriptor <iface>.xml next to the
// header that declares <iface> must say the same about every parameter.
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::light {

// Reads <header folder>/<i.name>.xml when it exists and reports, at the header's
// parameter with a note at the descriptor's, each parameter fact (name, type, access
// mode, numElements, descRowWidth, partition, halo, reduction) the two spell differently.
void check_xml_agrees(const ir::Interface& i, diag::Diagnostics& diag);

}  // namespace peppher::light
