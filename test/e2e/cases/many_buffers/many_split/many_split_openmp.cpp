// many_split, OpenMP variant: the CPU variant's loops shared by the team's threads. Every operand
// is one block.
#include <peppher/runtime.h>

void many_split_openmp(const peppher::Vector<float>& x0, const peppher::Vector<float>& x1,
                       const peppher::Vector<float>& x2, const peppher::Vector<float>& x3,
                       const peppher::Vector<float>& x4, const peppher::Vector<float>& x5,
                       const float* u, peppher::Vector<float>& y0, peppher::Vector<float>& y1,
                       peppher::Vector<float>& z, float* w, peppher::Matrix<float>& q, int n, int) {
  const float *p0 = x0.data(), *p1 = x1.data(), *p2 = x2.data();
  const float *p3 = x3.data(), *p4 = x4.data(), *p5 = x5.data();
  float *o0 = y0.data(), *o1 = y1.data(), *pz = z.data(), *pq = q.data();
  const long ld = static_cast<long>(q.ld());
#pragma omp parallel for
  for (int i = 0; i < n; ++i) {
    o0[i] = p0[i] + p1[i] + p2[i];
    o1[i] = p3[i] * p4[i] - p5[i];
    pz[i] += u[i];
    w[i] = p0[i] - u[i];
    pq[i * ld] += p1[i];
    pq[i * ld + 1] += p1[i];
  }
}
