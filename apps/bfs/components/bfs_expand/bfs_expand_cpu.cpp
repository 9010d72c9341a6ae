// bfs_expand, sequential CPU variant (skeleton from compose -generateCompFiles, filled in): every
// frontier node leaves the frontier and marks its unvisited neighbours (cost = its cost + 1).
#include "../bfs_components.h"

void bfs_expand_cpu(const peppher::Vector<int>& row_start, const peppher::Vector<int>& edges,
                    peppher::Vector<int>& frontier, const peppher::Vector<int>& visited,
                    peppher::Vector<int>& cost, peppher::Vector<int>& updating) {
  const int n = static_cast<int>(frontier.size());
  const int *start = row_start.data(), *e = edges.data(), *seen = visited.data();
  int *front = frontier.data(), *c = cost.data(), *upd = updating.data();
  for (int v = 0; v < n; ++v) {
    if (!front[v]) continue;
    front[v] = 0;
    for (int j = start[v]; j < start[v + 1]; ++j)
      if (!seen[e[j]]) {
        c[e[j]] = c[v] + 1;
        upd[e[j]] = 1;
      }
  }
}
