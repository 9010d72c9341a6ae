// Goes into the wrapper source (templates/wrapper.cpp.mustache, _choose_codelet): the
// variant selector, the single-variant codelets, the entry wrapper's choice of codelet,
// the trained grid, static dispatch and the per-arch cost model, from plan.selection.
#pragma once

#include "compose/emit/render.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::emit {

/// Sets every selection variable of the wrapper templates in `d`.
void add_selection_data(const plan::WrapperPlan& plan, TemplateData& d);

}  // namespace peppher::emit
