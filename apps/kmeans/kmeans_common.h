// K-means clustering (after Rodinia's kmeans, written anew): the input, the centre update
// and a host reference, shared by the composed (main.cpp) and direct versions. Each round
// assigns every point to its nearest centre, sums the points of each cluster block by block
// (block b of `block` points into sums of its own, folded in block order, as the runtime's
// array reductions do) and moves each centre to its cluster's mean, until no point changes.
#pragma once

#include <peppher/partition.h>

#include <cstring>
#include <random>
#include <vector>

#include "../common/app_check.h"
#include "components/kmeans_point.h"

namespace kmeans {

inline const char* const kUsage = "kmeans [points] [features] [clusters] [block] [rounds]";

/// @p n points of @p f features around @p k random centres (row-major, n x f).
inline std::vector<float> generate(int n, int f, int k) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<float> where(0.0f, 10.0f), noise(-1.0f, 1.0f);
  std::uniform_int_distribution<int> pick(0, k - 1);
  std::vector<float> centres(static_cast<std::size_t>(k) * f);
  for (float& c : centres) c = where(gen);
  std::vector<float> points(static_cast<std::size_t>(n) * f);
  for (int i = 0; i < n; ++i) {
    const int c = pick(gen);
    for (int j = 0; j < f; ++j)
      points[static_cast<std::size_t>(i) * f + j] =
          centres[static_cast<std::size_t>(c) * f + j] + noise(gen) * static_cast<float>(1 + j % 3);
  }
  return points;
}

/// Each centre (row of @p centres, k x f) moves to its cluster's mean, sums / count; a centre
/// without points stays where it is.
inline void update_centres(float* centres, const float* sums, const int* counts, int k, int f) {
  for (int c = 0; c < k; ++c)
    if (counts[c] > 0)
      for (int j = 0; j < f; ++j)
        centres[c * f + j] = sums[c * f + j] / static_cast<float>(counts[c]);
}

struct Result {
  std::vector<float> centres;   // k x f
  std::vector<int> membership;  // n
  int rounds = 0;               // rounds run (the last one changed no point, or the limit)
};

/// The host's k-means over the same blocks of points, in the same order, as the runtime.
inline Result reference(const std::vector<float>& points, int n, int f, int k, int block,
                        int max_rounds) {
  Result r;
  r.centres.assign(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(k) * f);
  r.membership.assign(static_cast<std::size_t>(n), -1);
  const std::size_t nblocks = (static_cast<std::size_t>(n) + block - 1) / block;
  while (r.rounds < max_rounds) {
    ++r.rounds;
    int changed = 0;
    std::vector<float> sums(static_cast<std::size_t>(k) * f, 0.0f);
    std::vector<int> counts(static_cast<std::size_t>(k), 0);
    for (std::size_t b = 0; b < nblocks; ++b) {
      const peppher::BlockRange range = peppher::block_range(n, nblocks, b);
      std::vector<float> block_sums(sums.size(), 0.0f);
      std::vector<int> block_counts(counts.size(), 0);
      for (std::size_t i = range.offset; i < range.offset + range.size; ++i) {
        const int m = nearest(&points[i * f], r.centres.data(), k, f, f);
        changed += m != r.membership[i] ? 1 : 0;
        r.membership[i] = m;
        for (int j = 0; j < f; ++j) block_sums[m * f + j] += points[i * f + j];
        block_counts[m] += 1;
      }
      for (std::size_t e = 0; e < sums.size(); ++e) sums[e] += block_sums[e];
      for (std::size_t c = 0; c < counts.size(); ++c) counts[c] += block_counts[c];
    }
    update_centres(r.centres.data(), sums.data(), counts.data(), k, f);
    if (changed == 0) break;
  }
  return r;
}

/// Elements of the result that differ from the reference's (centres bit for bit).
inline long count_wrong(const float* centres, const int* membership, int n, int f, int k,
                        const Result& want) {
  long wrong = 0;
  for (std::size_t e = 0; e < static_cast<std::size_t>(k) * f; ++e)
    wrong += std::memcmp(&centres[e], &want.centres[e], sizeof(float)) != 0 ? 1 : 0;
  for (int i = 0; i < n; ++i) wrong += membership[i] != want.membership[i] ? 1 : 0;
  return wrong;
}

}  // namespace kmeans
