// The ODE solver's components, from which compose -generateCompFiles made the descriptors and
// variant skeletons: the right-hand side of the 1-D Brusselator (diffusion, then reaction),
// and the classic RK4 pieces (stage point, final weighted sum, largest change per step).
#pragma once
#include <peppher/runtime.h>

// du = alpha * Laplacian(u) over points first .. first + du.size() - 1 of n (partitioned: u's
// view has a halo of one point on each side; boundary stands outside 0 .. n-1).
void bruss_diffusion(const peppher::Vector<double>& u, peppher::Vector<double>& du, double alpha,
                     double boundary, int first, int n);
void bruss_reaction(const peppher::Vector<double>& u, const peppher::Vector<double>& v,
                    peppher::Vector<double>& du, peppher::Vector<double>& dv, double a, double b);
void rk_stage(const peppher::Vector<double>& y, const peppher::Vector<double>& k,
              peppher::Vector<double>& y_stage, double c);
void rk_update(const peppher::Vector<double>& y, const peppher::Vector<double>& k1,
               const peppher::Vector<double>& k2, const peppher::Vector<double>& k3,
               const peppher::Vector<double>& k4, peppher::Vector<double>& y_next, double h);
void rk_maxdiff(const peppher::Vector<double>& y_next, const peppher::Vector<double>& y,
                peppher::Scalar<double>& change);
