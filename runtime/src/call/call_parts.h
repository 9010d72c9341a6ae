// What the files implementing detail::Call share (call/operands.cpp, call/submit.cpp,
// call/internal_tasks.cpp, select/auto_split_choice.cpp).
#pragma once

#include <starpu.h>

#include <cstddef>
#include <vector>

#include "peppher/detail/call.h"
#include "peppher/error.h"

namespace peppher::detail {

/// @brief A call's argument block for a task follows room for the task itself (make_task):
///        the argument pointer is this far into its malloc'd block.
inline constexpr std::size_t kTaskBytes = (sizeof(starpu_task) + alignof(std::max_align_t) - 1) /
                                          alignof(std::max_align_t) * alignof(std::max_align_t);

/// @brief The error for a failed starpu_task_submit of interface @p iface.
Error submit_error(const char* iface, int ret);

/// @brief Whether @p sizes are the equal split of @p n (block_range()'s sizes).
bool is_even(std::size_t n, const std::vector<std::size_t>& sizes);

/// @brief A reduction whose one block's task accumulates into the Scalar itself, with no
///        partial, start or fold task: one process (a distributed call folds partials of
///        every rank), one block, and min or max, where folding one partial started at the
///        identity gives the same value as accumulating into the Scalar (a sum or product
///        would round differently).
bool reduces_in_place(const Operand& op, std::size_t nblocks);

}  // namespace peppher::detail
