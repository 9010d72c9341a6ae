// A misspelt annotation, a launch size outside the kernel file, a constraint on no parameter.
// PEPPHER_FLAG(-O3)
// PEPPHER_GLOBAL_SIZE(n)
// PEPPHER_CONSTRAINT(m < 5000)
void scale_cpu(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] *= 2;
}
