// bfs_expand, OpenMP variant: frontier nodes shared by the team; two nodes may mark the same
// neighbour, always with the same values (one level), so the writes are atomic but unordered.
#include "../bfs_components.h"

void bfs_expand_openmp(const peppher::Vector<int>& row_start, const peppher::Vector<int>& edges,
                       peppher::Vector<int>& frontier, const peppher::Vector<int>& visited,
                       peppher::Vector<int>& cost, peppher::Vector<int>& updating) {
  const int n = static_cast<int>(frontier.size());
  const int *start = row_start.data(), *e = edges.data(), *seen = visited.data();
  int *front = frontier.data(), *c = cost.data(), *upd = updating.data();
#pragma omp parallel for schedule(dynamic, 256)
  for (int v = 0; v < n; ++v) {
    if (!front[v]) continue;
    front[v] = 0;
    const int next = c[v] + 1;
    for (int j = start[v]; j < start[v + 1]; ++j)
      if (!seen[e[j]]) {
#pragma omp atomic write
        c[e[j]] = next;
#pragma omp atomic write
        upd[e[j]] = 1;
      }
  }
}
