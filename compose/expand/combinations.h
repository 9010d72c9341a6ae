// Every combination of one choice per position (a Cartesian product), first position
// varying slowest: tunable values, generic instantiations, trained grid cells.
#pragma once

#include <vector>

namespace peppher::expand {

/// {{a, b}, {1, 2}} -> {{a, 1}, {a, 2}, {b, 1}, {b, 2}}; {} -> {{}}; any empty choice list
/// gives no combination.
template <typename T>
std::vector<std::vector<T>> all_combinations(const std::vector<std::vector<T>>& choices) {
  std::vector<std::vector<T>> out = {{}};
  for (const std::vector<T>& position : choices) {
    std::vector<std::vector<T>> next;
    for (const std::vector<T>& prefix : out) {
      for (const T& choice : position) {
        next.push_back(prefix);
        next.back().push_back(choice);
      }
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace peppher::expand
