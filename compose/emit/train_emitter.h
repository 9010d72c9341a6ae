// Emits peppher_train.cpp, the training program `make train` builds from the wrappers and
// variants (without the application's own sources): one target per interface with ranged
// parameters, whose call makes arguments of the sampled sizes and calls the entry wrapper.
#pragma once

#include <string>
#include <vector>

#include "compose/plan/wrapper_plan.h"

namespace peppher::emit {

/// The text of peppher_train.cpp for the planned wrappers. An interface with no ranged
/// parameter is not trained; one whose operands cannot be made from the ranges (the plan's
/// TrainingPlan says why) is listed in a comment instead.
std::string emit_trainer(const std::vector<plan::WrapperPlan>& plans);

}  // namespace peppher::emit
