// many_bufs, CPU variant: one loop over the elements.
#include <peppher/runtime.h>

void many_bufs_cpu(const peppher::Vector<float>& a, const peppher::Vector<float>& b,
                   const peppher::Matrix<float>& m, const float* c, const int* d,
                   peppher::Vector<float>& e, peppher::Vector<float>& f, float* g, float* h,
                   peppher::Matrix<float>& o, const float* k, peppher::Vector<int>& r, int n) {
  const float* pa = a.data();
  const float* pb = b.data();
  const float* pm = m.data();
  float* pe = e.data();
  float* pf = f.data();
  float* po = o.data();
  int* pr = r.data();
  const long mld = static_cast<long>(m.ld()), old = static_cast<long>(o.ld());
  for (int i = 0; i < n; ++i) {
    pe[i] = pa[i] + pb[i];
    pf[i] += pm[i * mld] * k[0];
    g[i] = c[i] * static_cast<float>(d[i]);
    h[i] += pm[i * mld + 1] + k[1];
    po[i * old] = pa[i] - c[i];
    po[i * old + 1] = 2.0f * pb[i];
    pr[i] += d[i];
  }
}
