// Moves paid for by reuse: the rule (see reuse_moves.h).
#include "select/reuse_moves.h"

#include <cmath>
#include <limits>

namespace peppher::detail {

int choose_reuse_move(const double* exec_us, int nodes, ReuseOperand* operands, std::size_t count,
                      const double* after_us) noexcept {
  if (nodes > ReuseCredit::kNodes) nodes = ReuseCredit::kNodes;
  constexpr double kNever = std::numeric_limits<double>::infinity();
  double move_us[ReuseCredit::kNodes] = {}, cost[ReuseCredit::kNodes];
  for (int m = 0; m < nodes; ++m) {
    for (std::size_t i = 0; i < count; ++i) move_us[m] += operands[i].bring_us[m];
    cost[m] = std::isfinite(exec_us[m]) ? exec_us[m] + move_us[m] : kNever;
  }
  int chosen = -1;
  for (int m = 0; m < nodes; ++m) {
    if (!std::isfinite(exec_us[m])) continue;  // no worker there runs the call
    for (std::size_t i = 0; i < count; ++i)
      if (operands[i].bring_us[m] <= 0) operands[i].credit->us[m] = 0;  // there already
    if (move_us[m] <= 0) continue;
    double elsewhere = kNever;  // the best the call can do without moving its data to m
    for (int n = 0; n < nodes; ++n)
      if (n != m && cost[n] < elsewhere) elsewhere = cost[n];
    if (!std::isfinite(elsewhere)) continue;  // m is the only node: the scheduler moves it
    const double saved = elsewhere - exec_us[m];
    double credited = 0;
    for (std::size_t i = 0; i < count; ++i) {
      float& credit = operands[i].credit->us[m];
      if (operands[i].bring_us[m] <= 0) continue;
      if (saved <= 0) {
        credit = 0;  // a call that would not gain there: the run of calls that would ends
        continue;
      }
      credit += static_cast<float>(saved * operands[i].bring_us[m] / move_us[m]);
      credited += credit;
    }
    // Credits are floats: a hair under the move's cost counts as covering it.
    const double switch_us = move_us[m] + (after_us != nullptr ? after_us[m] : 0);
    if (saved > 0 && credited >= switch_us * (1 - 1e-6) &&
        (chosen < 0 || exec_us[m] < exec_us[chosen] ||
         (exec_us[m] == exec_us[chosen] && move_us[m] < move_us[chosen])))
      chosen = m;
  }
  if (chosen < 0) return -1;
  for (std::size_t i = 0; i < count; ++i) {
    if (operands[i].bring_us[chosen] <= 0) continue;
    operands[i].move = true;
    operands[i].credit->us[chosen] = 0;  // spent
  }
  return chosen;
}

}  // namespace peppher::detail
