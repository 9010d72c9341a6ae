// srad_coeff on the CPU: SRAD's diffusion coefficient of every pixel from the gradient and
// Laplacian over its four neighbours (edges clamped) and the speckle statistic q0.
#include <peppher/runtime.h>

void srad_coeff_cpu(const peppher::Matrix<float>& J, const peppher::Scalar<float>& q0,
                    peppher::Matrix<float>& c, int n) {
  (void)n;
  const long rows = static_cast<long>(J.rows()), cols = static_cast<long>(J.cols());
  const long ld = static_cast<long>(J.ld()), cld = static_cast<long>(c.ld());
  const float* p = J.host_read();
  float* out = c.host_write();
  const float q = q0.get();
  for (long i = 0; i < rows; ++i) {
    const long iN = i > 0 ? i - 1 : 0, iS = i + 1 < rows ? i + 1 : rows - 1;
    for (long j = 0; j < cols; ++j) {
      const long jW = j > 0 ? j - 1 : 0, jE = j + 1 < cols ? j + 1 : cols - 1;
      const float jc = p[i * ld + j];
      const float dN = p[iN * ld + j] - jc, dS = p[iS * ld + j] - jc;
      const float dW = p[i * ld + jW] - jc, dE = p[i * ld + jE] - jc;
      const float g2 = (dN * dN + dS * dS + dW * dW + dE * dE) / (jc * jc + 1e-20f);
      const float l = (dN + dS + dW + dE) / (jc + 1e-20f);
      const float num = 0.5f * g2 - 0.0625f * l * l;
      const float den = 1.0f + 0.25f * l;
      const float qsqr = num / (den * den + 1e-20f);
      const float d = (qsqr - q) / (q * (1.0f + q) + 1e-20f);
      float v = 1.0f / (1.0f + d);
      out[i * cld + j] = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    }
  }
}
