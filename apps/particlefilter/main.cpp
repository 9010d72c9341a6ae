// The particle filter application (after Rodinia's particlefilter): tracks a disk moving
// through a noisy synthetic video; every frame moves and weighs the particles
// (pf_likelihood, in blocks), estimates the position and the cumulative weights
// (pf_normalize) and resamples (pf_resample, in blocks); checked bit for bit against a host
// reference.   ./particlefilter [rows] [cols] [frames] [particles] [block]
#include "components/pf_components.h"
#include "particlefilter_common.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int rows = app::arg(argc, argv, 1, 128, particlefilter::kUsage);
  const int cols = app::arg(argc, argv, 2, 128, particlefilter::kUsage);
  const int frames = app::arg(argc, argv, 3, 10, particlefilter::kUsage);
  const int n = app::arg(argc, argv, 4, 10000, particlefilter::kUsage);
  const int block = app::arg(argc, argv, 5, 2500, particlefilter::kUsage);
  const std::vector<int> video0 = particlefilter::video(rows, cols, frames);
  const particlefilter::Result want = particlefilter::reference(video0, rows, cols, frames, n);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  char what[160];
  {
    const double t0 = app::now();
    const peppher::Vector<int> video(video0);
    const peppher::Vector<int> disk(particlefilter::disk());
    peppher::Vector<double> xs[2] = {peppher::Vector<double>(n, rows / 2),
                                     peppher::Vector<double>(n)};
    peppher::Vector<double> ys[2] = {peppher::Vector<double>(n, cols / 2),
                                     peppher::Vector<double>(n)};
    peppher::Vector<int> seed(particlefilter::seeds(n));
    peppher::Vector<double> weights(n), cdf(n), track(2 * static_cast<std::size_t>(frames));
    peppher::Scalar<int> draw(particlefilter::kDrawSeed);
    peppher::Scalar<double> u1;
    for (int k = 1; k < frames; ++k) {  // particles in xs[(k + 1) % 2], resampled into xs[k % 2]
      peppher::Vector<double>& x = xs[(k + 1) % 2];
      peppher::Vector<double>& y = ys[(k + 1) % 2];
      pf_likelihood(video, disk, k, cols, frames, n, block, x, y, seed, weights);
      pf_normalize(x, y, weights, k, draw, cdf, u1, track);
      pf_resample(cdf, x, y, u1, 0, block, xs[k % 2], ys[k % 2]);
    }
    const peppher::Vector<double>& t = track;  // host reads: wait for the last frame
    const peppher::Vector<double>& x = xs[(frames + 1) % 2];
    const peppher::Vector<double>& y = ys[(frames + 1) % 2];
    const double *tp = t.host_read(), *xp = x.host_read(), *yp = y.host_read();
    seconds = app::now() - t0;
    wrong = particlefilter::count_wrong(tp, xp, yp, frames, n, want);
    sum = app::checksum(yp, y.size(), app::checksum(xp, x.size(), app::checksum(tp, t.size())));
    particlefilter::describe(what, sizeof what, rows, cols, frames, n, tp);
  }
  PEPPHER_SHUTDOWN();
  return app::verdict("particlefilter", what, wrong, sum, seconds);
}
