// Named after the file, not the descriptor.
void assign_cpu_impl(const float* feature, int npoints, int nfeatures, int* membership) {
  for (int i = 0; i < npoints; ++i) membership[i] = static_cast<int>(feature[i * nfeatures]);
}
