// The SRAD-like chain's OpenCL kernels. srad_prepare is a naive port: one work item walks
// the whole image (globalSize="1" in its descriptor); the other two run one work item per
// pixel.
__kernel void srad_prepare_opencl(__global float* J, int rows, int cols, int ld, __global float* q0,
                                  int n) {
  (void)n;
  float top = 1e-20f;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) top = fmax(top, J[r * ld + c]);
  const float scale = 1.0f / top;
  float sum = 0, sum2 = 0;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const float v = J[r * ld + c] * scale;
      J[r * ld + c] = v;
      sum += v;
      sum2 += v * v;
    }
  }
  const float count = (float)rows * (float)cols;
  const float mean = sum / count;
  const float var = sum2 / count - mean * mean;
  q0[0] = var / (mean * mean + 1e-20f);
}

__kernel void srad_coeff_opencl(__global const float* J, int rows, int cols, int ld,
                                __global const float* q0, __global float* c, int crows, int ccols,
                                int cld, int n) {
  (void)crows;
  (void)ccols;
  (void)n;
  const int g = get_global_id(0);
  if (g >= rows * cols) return;
  const int i = g / cols, j = g % cols;
  const int iN = i > 0 ? i - 1 : 0, iS = i + 1 < rows ? i + 1 : rows - 1;
  const int jW = j > 0 ? j - 1 : 0, jE = j + 1 < cols ? j + 1 : cols - 1;
  const float q = q0[0];
  const float jc = J[i * ld + j];
  const float dN = J[iN * ld + j] - jc, dS = J[iS * ld + j] - jc;
  const float dW = J[i * ld + jW] - jc, dE = J[i * ld + jE] - jc;
  const float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc + 1e-20f);
  const float l = (dN + dS + dW + dE) / (jc + 1e-20f);
  const float num = 0.5f * g2 - 0.0625f * l * l;
  const float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den + 1e-20f);
  const float d = (qsqr - q) / (q * (1.0f + q) + 1e-20f);
  const float v = 1.0f / (1.0f + d);
  c[i * cld + j] = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
}

__kernel void srad_update_opencl(__global float* J, int rows, int cols, int ld,
                                 __global const float* c, int crows, int ccols, int cld, int n) {
  (void)crows;
  (void)ccols;
  (void)n;
  const int g = get_global_id(0);
  if (g >= rows * cols) return;
  const int i = g / cols, j = g % cols;
  const float v = J[i * ld + j];
  J[i * ld + j] = v + 0.125f * c[i * cld + j] * (sqrt(v * v + 0.25f) - v);
}
