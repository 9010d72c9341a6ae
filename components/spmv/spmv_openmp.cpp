// spmv, OpenMP variant: y = A * x for a CSR matrix A, rows shared by the team of threads
// the generated OPENMP wrapper sets up (dynamic schedule: row lengths vary).

void spmv_openmp(int nrows, [[maybe_unused]] int nnz, const float* values, const int* row_offsets,
                 const int* col_indices, const float* x, [[maybe_unused]] int ncols, float* y) {
#pragma omp parallel for schedule(dynamic, 64)
  for (int row = 0; row < nrows; ++row) {
    float sum = 0.0f;
    for (int k = row_offsets[row]; k < row_offsets[row + 1]; ++k)
      sum += values[k] * x[col_indices[k]];
    y[row] = sum;
  }
}
