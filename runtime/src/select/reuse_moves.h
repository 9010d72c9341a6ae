// Moves paid for by reuse (docs/SELECTION.md, "Data that calls keep reading"): a data move
// that no single call would pay for, made once the calls reading the data have lost, in
// sum, what the move costs. The rule here is pure arithmetic on one call's predictions;
// call/submit.cpp (Call::amortise_moves) feeds it and fetches the data it names.
#pragma once

#include <cstddef>

#include "peppher/detail/storage.h"

namespace peppher::detail {

/// @brief One read operand of a call, as the rule sees it: what bringing it to each memory
///        node costs and the savings its container has been credited per node.
struct ReuseOperand {
  /// Expected microseconds to bring the operand to each node (0: valid there, or on its way).
  double bring_us[ReuseCredit::kNodes] = {};
  /// The container's credits (Storage::reuse_credit_locked()), updated by the rule.
  ReuseCredit* credit = nullptr;
  /// Set by the rule: move the operand to the node it returns.
  bool move = false;
};

/// @brief One call's part in the rule, and the node its operands should move to now.
///
/// @p exec_us: per memory node, the least predicted time of the call on a worker of that
/// node (infinity where no worker there can run it). For each node m where some operand is
/// not valid, the call would have saved s = (least expected time elsewhere, moves included)
/// - exec_us[m] had its operands been on m already: a saving s > 0 is credited to the
/// operands it would move there, in proportion to their move times; s <= 0 ends their run of
/// calls that would gain there (their credit for m goes back to 0). Going to m costs, once,
/// the moves there and @p after_us[m] (sending what the call writes from m to where it is
/// read next; null: nothing). The node returned (-1: none) is the fastest one whose
/// operands' credits now cover that cost: those operands get `move`, and their credit for it
/// is spent (back to 0). A move no single call would make is so made once the calls reading
/// the data lost as much as it costs, which is at most twice the best in hindsight whatever
/// number of calls follows (the ski-rental bound); a move that pays for itself in one call
/// is made at once, as a greedy scheduler would make it.
/// @param nodes the entries of @p exec_us, @p after_us and each operand's arrays that count
int choose_reuse_move(const double* exec_us, int nodes, ReuseOperand* operands, std::size_t count,
                      const double* after_us = nullptr) noexcept;

/// @brief Notes, once StarPU is up (note_worker_layout()), a worker per kind and memory node
///        whose predictions stand for that node's, and whether the scheduler places tasks
///        by their models and transfers (dm*, heft, pheft: only then does the rule run).
void note_reuse_layout() noexcept;

}  // namespace peppher::detail
