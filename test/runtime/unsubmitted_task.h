// For the tests of the models' choices (test_calibrating.cpp, test_regression.cpp): a call's
// task built but not submitted, and one call's choice made on it.
#pragma once

#include <starpu.h>

#include <cstdint>

#include "peppher/placement.h"
#include "peppher/vector.h"

namespace peppher_test {

/// @brief A task of @p cl on @p v, not submitted: its handle gives the footprint (a history
///        model's key) and the size (a regression's n).
struct UnsubmittedTask {
  starpu_task* task;
  UnsubmittedTask(starpu_codelet& cl, peppher::Vector<std::uint32_t>& v)
      : task(starpu_task_create()) {
    task->cl = &cl;
    task->handles[0] = v.handle_for_task();
    task->destroy = 0;
  }
  ~UnsubmittedTask() { starpu_task_destroy(task); }
  UnsubmittedTask(const UnsubmittedTask&) = delete;
  UnsubmittedTask& operator=(const UnsubmittedTask&) = delete;
};

/// @brief The choice a @p Choice (CalibratingChoice, RegressionChoice) makes for one call on
///        @p v among the variants of @p selector (all accepting; @p slots their codelet slots).
template <typename Choice>
int choice_for(starpu_codelet& cl, const peppher::VariantSelector& selector,
               const signed char* slots, peppher::Vector<std::uint32_t>& v) {
  peppher::PlacementChoice placement;
  placement.container(v, STARPU_RW);
  Choice choice;
  choice.prepare(placement, selector, slots, [](int) { return true; });
  UnsubmittedTask t(cl, v);
  return choice.choose(t.task);
}

}  // namespace peppher_test
