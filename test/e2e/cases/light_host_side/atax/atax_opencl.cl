// The two kernels of atax, one work-item per row (tmp) and per column (y).
__kernel void atax_rows(__global const float* A, __global const float* x, __global float* tmp,
                        int nx, int ny) {
  const int i = get_global_id(0);
  if (i < nx) {
    for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
  }
}

__kernel void atax_cols(__global const float* A, __global float* y, __global const float* tmp,
                        int nx, int ny) {
  const int j = get_global_id(0);
  if (j < ny) {
    for (int i = 0; i < nx; i++) y[j] += A[i * ny + j] * tmp[i];
  }
}
