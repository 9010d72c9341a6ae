// bruss_reaction, OpenMP variant: the points shared by the team the generated OPENMP wrapper
// sets up; same formula as the sequential variant.
#include "../ode_components.h"
#include "../ode_point.h"

void bruss_reaction_openmp(const peppher::Vector<double>& u, const peppher::Vector<double>& v,
                           peppher::Vector<double>& du, peppher::Vector<double>& dv, double a,
                           double b) {
  const long n = static_cast<long>(du.size());
  const double *pu = u.data(), *pv = v.data();
  double *pdu = du.data(), *pdv = dv.data();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) ode::reaction(pu[i], pv[i], pdu[i], pdv[i], a, b);
}
