// prow_raw, CPU variant: a points at the block's rows (contiguous), rows is their count.
void prow_raw_cpu(float* a, int rows, int cols, int, float f) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) a[i * cols + j] = f * (a[i * cols + j] + static_cast<float>(j));
}
