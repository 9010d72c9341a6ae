// bfs_update, OpenCL variant: one work-item per node (grid stride), as Rodinia's second kernel;
// every work-item that commits a node writes 1 into changed (same value, no race on the result).
__kernel void bfs_update_opencl(__global int* frontier, int n, __global int* visited,
                                int visited_size, __global int* updating, int updating_size,
                                __global int* changed) {
  (void)visited_size;
  (void)updating_size;
  for (int v = (int)get_global_id(0); v < n; v += (int)get_global_size(0))
    if (updating[v]) {
      frontier[v] = 1;
      visited[v] = 1;
      updating[v] = 0;
      *changed = 1;
    }
}
