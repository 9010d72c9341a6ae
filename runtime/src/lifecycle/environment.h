// The environment checked before StarPU starts: StarPU 1.3 asserts (exit 134, no variable
// named) on a worker count or switch that is not a whole number >= 0, and on a STARPU_HOME
// where it cannot make its model folders; the runtime's own PEPPHER_REPORT takes 1 or 0.
#pragma once

namespace peppher::detail {

/// @brief Throws a peppher::Error naming the first variable StarPU or the runtime could not
///        use, and what it takes.
void check_environment();
/// @brief Whether PEPPHER_REPORT asks for the execution report at shutdown (1; unset, empty
///        or 0: no). check_environment() refused every other value.
bool report_requested() noexcept;

}  // namespace peppher::detail
