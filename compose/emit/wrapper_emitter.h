// Emits the wrapper files of one interface from its WrapperPlan: `<iface>_wrapper.h`
// declares the entry wrapper (templates/wrapper.h.mustache); `<iface>_wrapper.cpp` holds
// the variants' declarations, backend wrappers, codelet and the entry wrapper's definition
// (templates/wrapper.cpp.mustache), so it links for callers in any translation unit.
#pragma once

#include <string>
#include <vector>

#include "compose/emit/render.h"
#include "compose/output/output_context.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::emit {

/// "float * data, int n": the interface's parameters as the entry wrapper declares them
/// (an instantiation's types substituted).
std::string parameter_list(const ir::Interface& iface);

/// Writes `header` and `source` (file names in the output folder) planned by `plan`;
/// `composition` is the header's composition guard's data (templates/_composition_guard).
void emit_wrapper(const plan::WrapperPlan& plan, const std::string& header,
                  const std::string& source, const TemplateData& composition,
                  output::OutputContext& out);

/// Writes the one `header` of a generic interface: the entry wrapper as a function
/// template (a compile error for types not instantiated) and a declaration of the explicit
/// specialization of each of `instances` (the plans of one generic interface's
/// instantiations, in order), after the interface's headerFile (as the plan includes it).
void emit_generic_header(const std::vector<const plan::WrapperPlan*>& instances,
                         const std::string& header, const TemplateData& composition,
                         output::OutputContext& out);

}  // namespace peppher::emit
