// What the trace needs of the regression choice (regression_choice.cpp): a regression
// model's prediction for a task, read from StarPU's model without side effects.
#pragma once

#include <starpu.h>

namespace peppher::detail {

/// @brief @p model's prediction (microseconds) for @p task on @p arch, implementation
///        @p impl, or NaN: for a regression model (a*n^b, a*n^b+c), the fitted law of the
///        task's data size, extrapolated beyond the sizes measured (valid once they spread
///        more than 10 %), or the geometric mean of its measurements within 10 % of the one
///        size measured; NaN for other models or none measured. Unlike
///        starpu_task_expected_length(), never turns calibration on.
double regression_us(starpu_perfmodel* model, starpu_task* task, starpu_perfmodel_arch* arch,
                     unsigned impl);

/// @brief Forgets which variants this process ran to measure them (a new session, init()).
void forget_regression_runs();

}  // namespace peppher::detail
