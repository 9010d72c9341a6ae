// feature lost its const, nfeatures is a long: the wrapper's declaration differs.
void assign_cpu(float* feature, int npoints, long nfeatures, int* membership) {
  for (int i = 0; i < npoints; ++i) membership[i] = static_cast<int>(feature[i * nfeatures]);
}
