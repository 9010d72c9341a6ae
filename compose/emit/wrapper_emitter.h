// Emits `<iface>_wrapper.h`: variant declarations, backend wrappers, codelet and entry
// wrapper of one interface, from its WrapperPlan, through templates/wrapper.h.mustache.
#pragma once

#include <string>

#include "compose/emit/wrapper_plan.h"

namespace peppher::emit {

/// The text of the wrapper file planned by `plan`.
std::string emit_wrapper(const WrapperPlan& plan);

}  // namespace peppher::emit
