// What a variant's source sees of the wrapper headers of the interfaces it requires, while
// verify/ parses it before they are generated: each entry wrapper's declaration (a variant
// may include `<iface>_wrapper.h` and call the component; docs/SELECTION.md, "Nested calls").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::verify {

// (absolute path, text) of `<output>/<iface>_wrapper.h` for every interface @p v requires.
std::vector<std::pair<std::string, std::string>> required_headers(const ir::Application& app,
                                                                  const ir::Options& options,
                                                                  const ir::Variant& v);

}  // namespace peppher::verify
