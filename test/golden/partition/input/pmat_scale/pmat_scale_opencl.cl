// pmat_scale, OpenCL variant: one 2-D block as buffer, rows, cols and leading dimension.
__kernel void pmat_scale_opencl(__global float* m, int rows, int cols, int ld, int br, int bc,
                                float a) {
  for (int k = get_global_id(0); k < rows * cols; k += get_global_size(0))
    m[(k / cols) * ld + k % cols] *= a;
}
