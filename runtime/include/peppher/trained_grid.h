// A training table compiled into a generated wrapper (compose -staticDispatch or a trained
// cost model): each variant's measured time over a grid of context values, and the cost of
// a call read from it. Apart from training.h, whose trainer needs <functional> and <map>,
// so that a generated wrapper parses only this.
#pragma once

namespace peppher {

/// @brief A trained table compiled into a generated wrapper: a grid over the context
///        parameters with each variant's time per cell (NaN where it was not measured).
struct TrainedGrid {
  int dims = 0;
  const int* sizes = nullptr;       // values per axis
  const long long* axes = nullptr;  // every axis's values, ascending, one after the other
  int variants = 0;
  const double* us = nullptr;  // [cell][variant], cells row-major over the axes
};

/// @brief The expected time in microseconds of @p variant at @p point (one value per
///        axis), interpolated log-log between the surrounding grid points (clamped at the
///        edges); NaN when none of them was measured. Cheap: no allocation.
double trained_cost(const TrainedGrid& grid, const long long* point, int variant);

}  // namespace peppher
