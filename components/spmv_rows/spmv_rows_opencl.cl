// spmv_rows, OpenCL variant: one work-item per row of the block (launched over y's block
// length, grid-stride for any global size); y holds the block's rows only.
__kernel void spmv_rows_opencl(int total_rows, int nnz, __global const float* values,
                               __global const int* row_offsets, __global const int* col_indices,
                               __global const float* x, int ncols, __global float* y, int first_row,
                               int nrows) {
  (void)total_rows;
  (void)nnz;
  (void)ncols;
  const int stride = (int)get_global_size(0);
  for (int r = (int)get_global_id(0); r < nrows; r += stride) {
    const int row = first_row + r;
    float sum = 0.0f;
    const int end = row_offsets[row + 1];
    for (int k = row_offsets[row]; k < end; ++k) sum += values[k] * x[col_indices[k]];
    y[r] = sum;
  }
}
