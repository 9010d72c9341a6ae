// The ODE solver's components (light form, docs/FORMAT.md): these declarations are their
// interfaces, the folders named after them their variants. Every call is partitioned `?`: the
// right-hand side of the 1-D Brusselator (diffusion, then reaction), and the classic RK4 pieces
// (stage point, final weighted sum, largest change per step).
#pragma once
#include <peppher/runtime.h>

// du = alpha * Laplacian(u) over points first .. first + du.size() - 1 of n (partitioned: u's
// view has a halo of one point on each side; boundary stands outside 0 .. n-1).
void bruss_diffusion(const peppher::Vector<double>& u PEPPHER_PARTITION(?) PEPPHER_HALO(1),
                     peppher::Vector<double>& du PEPPHER_WRITE PEPPHER_PARTITION(?)
                         PEPPHER_BLOCK_FIRST(first),
                     double alpha, double boundary, int first, int n);
void bruss_reaction(const peppher::Vector<double>& u PEPPHER_PARTITION(?),
                    const peppher::Vector<double>& v PEPPHER_PARTITION(?),
                    peppher::Vector<double>& du PEPPHER_PARTITION(?),
                    peppher::Vector<double>& dv PEPPHER_PARTITION(?), double a, double b);
void rk_stage(const peppher::Vector<double>& y PEPPHER_PARTITION(?),
              const peppher::Vector<double>& k PEPPHER_PARTITION(?),
              peppher::Vector<double>& y_stage PEPPHER_WRITE PEPPHER_PARTITION(?), double c);
void rk_update(const peppher::Vector<double>& y PEPPHER_PARTITION(?),
               const peppher::Vector<double>& k1 PEPPHER_PARTITION(?),
               const peppher::Vector<double>& k2 PEPPHER_PARTITION(?),
               const peppher::Vector<double>& k3 PEPPHER_PARTITION(?),
               const peppher::Vector<double>& k4 PEPPHER_PARTITION(?),
               peppher::Vector<double>& y_next PEPPHER_WRITE PEPPHER_PARTITION(?), double h);
void rk_maxdiff(const peppher::Vector<double>& y_next PEPPHER_PARTITION(?),
                const peppher::Vector<double>& y PEPPHER_PARTITION(?),
                peppher::Scalar<double>& change PEPPHER_REDUCTION(max));
