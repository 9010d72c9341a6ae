// pf_resample, OpenMP variant: the new particles of the block shared out among the threads
// (each one the CPU variant's search).
#include <peppher/runtime.h>

#include "../pf_particle.h"

void pf_resample_openmp(const peppher::Vector<double>& cdf, const peppher::Vector<double>& x,
                        const peppher::Vector<double>& y, const peppher::Scalar<double>& u1,
                        int first, int, peppher::Vector<double>& x_new,
                        peppher::Vector<double>& y_new) {
  const int n = static_cast<int>(cdf.size());
  const double offset = u1.get();
  const double* c = cdf.data();
  const double* px = x.data();
  const double* py = y.data();
  double* nx = x_new.data();
  double* ny = y_new.data();
  const int m = static_cast<int>(x_new.size());
#pragma omp parallel for schedule(static)
  for (int j = 0; j < m; ++j) {
    const int i = pf::find_index(c, n, offset + (first + j) / static_cast<double>(n));
    nx[j] = px[i];
    ny[j] = py[i];
  }
}
