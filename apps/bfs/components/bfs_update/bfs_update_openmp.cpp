// bfs_update, OpenMP variant: the nodes shared by the team, `any` combined by an OpenMP max
// reduction; same result as the sequential variant.
#include "../bfs_components.h"

void bfs_update_openmp(peppher::Vector<int>& frontier, peppher::Vector<int>& visited,
                       peppher::Vector<int>& updating, peppher::Scalar<int>& changed) {
  const int n = static_cast<int>(frontier.size());
  int *front = frontier.data(), *seen = visited.data(), *upd = updating.data();
  int any = 0;
#pragma omp parallel for schedule(static) reduction(max : any)
  for (int v = 0; v < n; ++v)
    if (upd[v]) {
      front[v] = seen[v] = any = 1;
      upd[v] = 0;
    }
  if (any) changed.set(1);
}
