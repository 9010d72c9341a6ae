// merge_sort, sequential CPU variant: sorts each half through merge_sort itself (a call
// inside its own task: it runs on this worker, on views of this task's data), down to
// cutoff elements, which std::sort sorts; then merges the halves.
#include <algorithm>
#include <cstddef>

#include "merge_sort_wrapper.h"

void merge_sort_cpu(peppher::Vector<int>& data, int cutoff) {
  const std::size_t n = data.size();
  int* d = data.data();
  if (n <= static_cast<std::size_t>(std::max(cutoff, 1))) {
    std::sort(d, d + n);
    return;
  }
  const std::size_t half = n / 2;
  auto left = peppher::Vector<int>::view(d, half);
  auto right = peppher::Vector<int>::view(d + half, n - half);
  merge_sort(left, cutoff);
  merge_sort(right, cutoff);
  std::inplace_merge(d, d + half, d + n);
}
