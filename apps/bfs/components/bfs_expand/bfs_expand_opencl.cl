// bfs_expand, OpenCL variant: one work-item per node (grid stride), as Rodinia's first kernel;
// concurrent marks of one neighbour write the same values.
__kernel void bfs_expand_opencl(__global const int* row_start, int row_start_size,
                                __global const int* edges, int edges_size, __global int* frontier,
                                int n, __global const int* visited, int visited_size,
                                __global int* cost, int cost_size, __global int* updating,
                                int updating_size) {
  (void)row_start_size;
  (void)edges_size;
  (void)visited_size;
  (void)cost_size;
  (void)updating_size;
  for (int v = (int)get_global_id(0); v < n; v += (int)get_global_size(0)) {
    if (!frontier[v]) continue;
    frontier[v] = 0;
    for (int j = row_start[v]; j < row_start[v + 1]; ++j)
      if (!visited[edges[j]]) {
        cost[edges[j]] = cost[v] + 1;
        updating[edges[j]] = 1;
      }
  }
}
