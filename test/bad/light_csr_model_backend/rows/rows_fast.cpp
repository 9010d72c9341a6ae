// A further variant whose backend does not fit its extension (a .cpp file is no CUDA variant).
// PEPPHER_BACKEND(cuda)
void rows_fast(int nrows, const float* values, const int* offsets, int nnz, float* y) {
  for (int r = 0; r < nrows; ++r) y[r] = values[offsets[r] < nnz ? offsets[r] : 0];
}
