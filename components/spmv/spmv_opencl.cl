// spmv, OpenCL variant: y = A * x for a CSR matrix A, one work-item per row. Arguments follow
// the interface; launched 1-D over nrows work-items (y), grid-stride for any global size.
__kernel void spmv_opencl(int nrows, int nnz, __global const float* values,
                          __global const int* row_offsets, __global const int* col_indices,
                          __global const float* x, int ncols, __global float* y) {
  (void)nnz;  // nnz and ncols size the operands; the kernel does not need them
  (void)ncols;
  const int stride = (int)get_global_size(0);
  for (int row = (int)get_global_id(0); row < nrows; row += stride) {
    float sum = 0.0f;
    const int end = row_offsets[row + 1];
    for (int k = row_offsets[row]; k < end; ++k) sum += values[k] * x[col_indices[k]];
    y[row] = sum;
  }
}
