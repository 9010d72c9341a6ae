// bfs_update, sequential CPU variant (skeleton from compose -generateCompFiles, filled in): the
// nodes reached this level join the frontier and the visited set; changed = 1 if there was any.
#include "../bfs_components.h"

void bfs_update_cpu(peppher::Vector<int>& frontier, peppher::Vector<int>& visited,
                    peppher::Vector<int>& updating, peppher::Scalar<int>& changed) {
  const int n = static_cast<int>(frontier.size());
  int *front = frontier.data(), *seen = visited.data(), *upd = updating.data();
  int any = 0;
  for (int v = 0; v < n; ++v)
    if (upd[v]) {
      front[v] = seen[v] = any = 1;
      upd[v] = 0;
    }
  if (any) changed.set(1);
}
