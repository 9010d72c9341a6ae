// What placement.cpp needs of the learning choice (calibrating_choice.cpp).
#pragma once

namespace peppher::detail {

/// @brief Forgets what CalibratingChoice saw of each call in an earlier session
///        (apply_placement_environment(), from init()).
void forget_call_history();

}  // namespace peppher::detail
