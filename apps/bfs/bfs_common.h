// bfs's input and check, shared by the composed (main.cpp) and direct versions: a generated
// directed graph in CSR form (a ring plus random edges, so every node is reachable from node 0),
// the initial frontier/visited/cost arrays, and a queue-based BFS on the host.
#pragma once

#include <queue>
#include <random>
#include <vector>

#include "../common/app_check.h"

namespace bfs {

struct Graph {
  std::vector<int> row_start, edges;  // node v's neighbours: edges[row_start[v] .. row_start[v+1])
  std::vector<int> frontier, visited, cost;  // BFS from node 0: cost -1 = not reached yet
};

/// @p n nodes, each with an edge to the next node on a ring and 1..@p max_degree random edges.
inline Graph generate(int n, int max_degree) {
  std::mt19937 gen(1234);
  std::uniform_int_distribution<int> node(0, n - 1), degree(1, max_degree);
  Graph g;
  g.row_start.push_back(0);
  for (int v = 0; v < n; ++v) {
    g.edges.push_back((v + 1) % n);
    for (int d = degree(gen); d > 0; --d) g.edges.push_back(node(gen));
    g.row_start.push_back(static_cast<int>(g.edges.size()));
  }
  g.frontier.assign(n, 0);
  g.visited.assign(n, 0);
  g.cost.assign(n, -1);
  g.frontier[0] = g.visited[0] = 1;
  g.cost[0] = 0;
  return g;
}

/// The cost (number of edges from node 0) of every node.
inline std::vector<int> reference(const Graph& g) {
  std::vector<int> cost(g.cost.size(), -1);
  std::queue<int> q;
  cost[0] = 0;
  q.push(0);
  while (!q.empty()) {
    const int v = q.front();
    q.pop();
    for (int j = g.row_start[v]; j < g.row_start[v + 1]; ++j)
      if (cost[g.edges[j]] < 0) {
        cost[g.edges[j]] = cost[v] + 1;
        q.push(g.edges[j]);
      }
  }
  return cost;
}

inline long count_wrong(const int* got, const std::vector<int>& want) {
  long wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i) wrong += got[i] != want[i];
  return wrong;
}

constexpr const char* kUsage = "bfs [nodes] [max extra edges per node]";

}  // namespace bfs
