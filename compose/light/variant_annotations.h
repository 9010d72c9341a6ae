// The light form's variant-file annotations: a comment line in a variant file found by name
// that starts with PEPPHER_ (`// PEPPHER_FLAGS(-O3)`, `// PEPPHER_GLOBAL_SIZE(points.rows)`)
// gives the variant what an implementation descriptor would (docs/FORMAT.md, Light form).
#pragma once

#include <functional>
#include <string>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::light {

// Reads the annotations of variant `v`'s source files (found by name: one, or a host-side
// OpenCL variant's host and kernel files) into `v`: compile flags and compiler,
// constraints, OpenCL launch sizes, a host-side variant's PEPPHER_KERNEL. Located errors for
// an unknown annotation, a malformed one, one given twice or one the file cannot take.
void read_variant_annotations(ir::Variant& v, diag::Diagnostics& diag);

/// Calls `line_fn(line, first, number)` for each line of `path` whose first text is a `//`
/// comment starting `PEPPHER_` (`first`: where that word starts; `number`: 1-based) until it
/// returns false. Both the annotations and the file-name scan's PEPPHER_BACKEND read so.
void for_each_annotation_line(
    const std::string& path,
    const std::function<bool(const std::string& line, size_t first, int number)>& line_fn);

}  // namespace peppher::light
