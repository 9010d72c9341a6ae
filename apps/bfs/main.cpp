// The bfs application (Rodinia's BFS): level-synchronous breadth-first search over a generated
// CSR graph, frontier/visited/cost in peppher::Vector<int>, two calls per level until the
// `changed` flag (a peppher::Scalar<int>) stays 0; checked against a host BFS.
//   ./bfs [nodes] [max extra edges per node]
#include "bfs_common.h"
#include "components/bfs_components.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 100000, bfs::kUsage);
  const int max_degree = app::arg(argc, argv, 2, 6, bfs::kUsage);
  const bfs::Graph g = bfs::generate(n, max_degree);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  int levels = 0;
  {
    const double t0 = app::now();
    peppher::Vector<int> row_start(g.row_start), edges(g.edges), frontier(g.frontier),
        visited(g.visited), cost(g.cost), updating(n);
    peppher::Scalar<int> changed(0);
    do {
      changed = 0;  // waits for the previous level's update
      bfs_expand(row_start, edges, frontier, visited, cost, updating);
      bfs_update(frontier, visited, updating, changed);
      ++levels;
    } while (changed.get() != 0);
    const int* got = cost.host_read();
    seconds = app::now() - t0;
    sum = app::checksum(got, cost.size());
    wrong = bfs::count_wrong(got, bfs::reference(g));
  }
  PEPPHER_SHUTDOWN();
  char what[80];
  std::snprintf(what, sizeof what, "%d nodes, %zu edges, %d levels", n, g.edges.size(), levels);
  return app::verdict("bfs", what, wrong, sum, seconds);
}
