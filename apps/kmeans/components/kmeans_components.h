// The k-means components (light form, docs/FORMAT.md): these declarations are their
// interfaces, the files in kmeans_assign/ and kmeans_accumulate/ their variants. The points
// and their membership are split into blocks of `block` rows; changed, sums and counts are
// sum reductions: each block's task adds into a private copy, folded in block order.
#pragma once
#include <peppher/runtime.h>

// Each point (a row of points) joins its nearest centre; membership keeps it, changed counts
// the points whose centre changed.
void kmeans_assign(const peppher::Matrix<float>& points PEPPHER_PARTITION(block),
                   const peppher::Matrix<float>& centres, int block,
                   peppher::Vector<int>& membership PEPPHER_PARTITION(block),
                   peppher::Scalar<int>& changed PEPPHER_REDUCTION(sum));

// Per cluster, the sum of its points (a row of sums) and their count.
void kmeans_accumulate(const peppher::Matrix<float>& points PEPPHER_PARTITION(block),
                       const peppher::Vector<int>& membership PEPPHER_PARTITION(block), int block,
                       peppher::Matrix<float>& sums PEPPHER_REDUCTION(sum),
                       peppher::Vector<int>& counts PEPPHER_REDUCTION(sum));
