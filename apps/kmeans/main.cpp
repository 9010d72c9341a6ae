// The k-means application (after Rodinia's kmeans): rounds of assigning points to their
// nearest centre and moving each centre to its cluster's mean, the points split into blocks
// and the cluster sums and counts array reductions over the blocks; checked against a host
// reference.   ./kmeans [points] [features] [clusters] [block] [rounds]
#include <algorithm>
#include <utility>

#include "components/kmeans_components.h"
#include "kmeans_common.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 20000, kmeans::kUsage);
  const int f = app::arg(argc, argv, 2, 4, kmeans::kUsage);
  const int k = std::min(n, app::arg(argc, argv, 3, 5, kmeans::kUsage));
  const int block = app::arg(argc, argv, 4, 2500, kmeans::kUsage);
  const int max_rounds = app::arg(argc, argv, 5, 50, kmeans::kUsage);
  std::vector<float> points0 = kmeans::generate(n, f, k);

  PEPPHER_INITIALIZE();
  long wrong;
  std::uint64_t sum;
  double seconds;
  int rounds = 0;
  const kmeans::Result want = kmeans::reference(points0, n, f, k, block, max_rounds);
  {
    const double t0 = app::now();
    peppher::Matrix<float> centres(
        k, f, std::vector<float>(points0.begin(), points0.begin() + static_cast<long>(k) * f));
    const peppher::Matrix<float> points(n, f, std::move(points0));  // taken over, not copied
    peppher::Vector<int> membership(n, -1);
    peppher::Matrix<float> sums(k, f);
    peppher::Vector<int> counts(k);
    peppher::Scalar<int> changed(0);
    while (rounds < max_rounds) {
      ++rounds;
      changed = 0;
      sums.fill(0.0f);  // the reductions add into them
      counts.fill(0);
      kmeans_assign(points, centres, block, membership, changed);
      kmeans_accumulate(points, membership, block, sums, counts);
      const peppher::Matrix<float>& s = sums;  // host reads: wait for the folds
      const peppher::Vector<int>& c = counts;
      kmeans::update_centres(centres.host_write(), s.host_read(), c.host_read(), k, f);
      if (changed.get() == 0) break;
    }
    const peppher::Vector<int>& m = membership;
    const peppher::Matrix<float>& cs = centres;
    const float* got = cs.host_read();
    seconds = app::now() - t0;
    sum = app::checksum(m.host_read(), m.size(), app::checksum(got, cs.size()));
    wrong =
        kmeans::count_wrong(got, m.host_read(), n, f, k, want) + (rounds != want.rounds ? 1 : 0);
  }
  PEPPHER_SHUTDOWN();
  char what[96];
  std::snprintf(what, sizeof what, "%d points, %d features, %d clusters, %d rounds", n, f, k,
                rounds);
  return app::verdict("kmeans", what, wrong, sum, seconds);
}
