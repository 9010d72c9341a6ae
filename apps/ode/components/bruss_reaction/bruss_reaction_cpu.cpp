// bruss_reaction, sequential CPU variant (skeleton from compose -generateCompFiles, filled in):
// adds the Brusselator's reaction terms to du and dv, point by point.
#include "../ode_components.h"
#include "../ode_point.h"

void bruss_reaction_cpu(const peppher::Vector<double>& u, const peppher::Vector<double>& v,
                        peppher::Vector<double>& du, peppher::Vector<double>& dv, double a,
                        double b) {
  const std::size_t n = du.size();
  const double *pu = u.data(), *pv = v.data();
  double *pdu = du.data(), *pdv = dv.data();
  for (std::size_t i = 0; i < n; ++i) ode::reaction(pu[i], pv[i], pdu[i], pdv[i], a, b);
}
