// Whether the program calls StarPU itself (starpu_callers.cpp).
#pragma once

#include <string>

#include "compose/ir/ir.h"

namespace peppher::facts {

/// The first of the program's own sources (`app.sources`, in order) whose text names StarPU
/// (`starpu_` anywhere in it, comments included: a mention costs only the background start),
/// by its file name; "" when none does. Such a program's PEPPHER_INITIALIZE()
/// starts the runtime on its own thread (StarPU is up when it returns), the others in the
/// background (peppher::init_in_background).
std::string source_calling_starpu(const ir::Application& app);

}  // namespace peppher::facts
