// nfeatures is missing.
void assign_cpu(const float* feature, int npoints, int* membership) {
  for (int i = 0; i < npoints; ++i) membership[i] = static_cast<int>(feature[i]);
}
