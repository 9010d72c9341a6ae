// pf_normalize, CPU variant: the sums over all the particles in order, the frame's estimate,
// the cumulative normalised weights and the resampling's offset.
#include <peppher/runtime.h>

#include "../pf_particle.h"

void pf_normalize_cpu(const peppher::Vector<double>& x, const peppher::Vector<double>& y,
                      const peppher::Vector<double>& weights, int frame, peppher::Scalar<int>& draw,
                      peppher::Vector<double>& cdf, peppher::Scalar<double>& u1,
                      peppher::Vector<double>& track) {
  const int n = static_cast<int>(weights.size());
  const double* w = weights.data();
  double s = 0.0, sx = 0.0, sy = 0.0;
  for (int i = 0; i < n; ++i) s = s + w[i];
  for (int i = 0; i < n; ++i) sx = sx + x.data()[i] * w[i];
  for (int i = 0; i < n; ++i) sy = sy + y.data()[i] * w[i];
  track.data()[2 * frame] = sx / s;
  track.data()[2 * frame + 1] = sy / s;
  double* c = cdf.data();
  for (int i = 0; i < n; ++i) c[i] = w[i] / s;
  for (int i = 1; i < n; ++i) c[i] = c[i - 1] + c[i];
  int state = draw.get();
  u1.set(pf::randu(&state) / n);
  draw.set(state);
}
