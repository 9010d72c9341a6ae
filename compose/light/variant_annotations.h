// The light form's variant-file annotations: a comment line in a variant file found by name
// that starts with PEPPHER_ (`// PEPPHER_FLAGS(-O3)`, `// PEPPHER_GLOBAL_SIZE(points.rows)`)
// gives the variant what an implementation descriptor would (docs/FORMAT.md, Light form).
#pragma once

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::light {

// Reads the annotations of variant `v`'s source files (found by name: one, or a host-side
// OpenCL variant's host and kernel files) into `v`: compile flags and compiler,
// constraints, OpenCL launch sizes, a host-side variant's PEPPHER_KERNEL. Located errors for
// an unknown annotation, a malformed one, one given twice or one the file cannot take.
void read_variant_annotations(ir::Variant& v, diag::Diagnostics& diag);

}  // namespace peppher::light
