// The ODE solver: classic RK4 on the 1-D Brusselator, 22 asynchronous component calls per step
// (right-hand side, stage points, weighted sum, largest change) on peppher::Vector<double>
// operands that stay where the last task left them; checked against a host reference.
//   ./ode [points] [steps]
#include "components/ode_components.h"
#include "ode_common.h"
#include "peppher.h"

using Vec = peppher::Vector<double>;

// f(u, v) into (ku, kv): the diffusion of each species, then the reaction terms added.
static void rhs(const ode::Problem& p, const Vec& u, const Vec& v, Vec& ku, Vec& kv) {
  bruss_diffusion(u, ku, p.alpha, p.u_boundary, 0, p.n);
  bruss_diffusion(v, kv, p.alpha, p.v_boundary, 0, p.n);
  bruss_reaction(u, v, ku, kv, p.a, p.b);
}

int main(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 1000, ode::kUsage);
  const int steps = app::arg(argc, argv, 2, 500, ode::kUsage);
  const ode::Problem p = ode::generate(n);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  {
    const double t0 = app::now();
    Vec u0(p.u0), v0(p.v0), u1(n), v1(n), su(n), sv(n);
    Vec ku[4] = {Vec(n), Vec(n), Vec(n), Vec(n)}, kv[4] = {Vec(n), Vec(n), Vec(n), Vec(n)};
    peppher::Scalar<double> change(0.0);
    Vec *u = &u0, *v = &v0, *u_next = &u1, *v_next = &v1;
    const double c[4] = {0.0, p.h / 2, p.h / 2, p.h};
    for (int step = 0; step < steps; ++step) {
      rhs(p, *u, *v, ku[0], kv[0]);
      for (int j = 1; j < 4; ++j) {
        rk_stage(*u, ku[j - 1], su, c[j]);
        rk_stage(*v, kv[j - 1], sv, c[j]);
        rhs(p, su, sv, ku[j], kv[j]);
      }
      rk_update(*u, ku[0], ku[1], ku[2], ku[3], *u_next, p.h);
      rk_update(*v, kv[0], kv[1], kv[2], kv[3], *v_next, p.h);
      rk_maxdiff(*u_next, *u, change);
      rk_maxdiff(*v_next, *v, change);
      std::swap(u, u_next);
      std::swap(v, v_next);
    }
    const double* gu = u->host_read();  // waits for the last step
    const double* gv = v->host_read();
    const double gc = change.get();
    seconds = app::now() - t0;
    sum = ode::checksum(gu, gv, gc, n);
    wrong = ode::count_wrong(gu, gv, gc, ode::reference(p, steps));
  }
  PEPPHER_SHUTDOWN();
  char what[64];
  std::snprintf(what, sizeof what, "%d points, %d steps, %d calls", n, steps, 22 * steps);
  return app::verdict("ode", what, wrong, sum, seconds);
}
