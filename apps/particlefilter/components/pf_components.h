// The particle filter's components (light form, docs/FORMAT.md): these declarations are
// their interfaces, the files in pf_likelihood/, pf_normalize/ and pf_resample/ their
// variants (CUDA ones compiled with -fmad=false, as their PEPPHER_FLAGS say).
#pragma once
#include <peppher/runtime.h>

// Each particle (an element of x, y and seed) moves by the motion model, drawing from its own
// LCG state, and gets its weight from the pixels of frame `frame` of the video around it (the
// disk's offsets). The particles are split into blocks of `block`; video and disk are read
// whole.
void pf_likelihood(const peppher::Vector<int>& video, const peppher::Vector<int>& disk, int frame,
                   int cols, int frames, int particles, int block,
                   peppher::Vector<double>& x PEPPHER_PARTITION(block),
                   peppher::Vector<double>& y PEPPHER_PARTITION(block),
                   peppher::Vector<int>& seed PEPPHER_PARTITION(block),
                   peppher::Vector<double>& weights PEPPHER_WRITE PEPPHER_PARTITION(block));

// The weights' sum, the estimate of frame `frame` (the weighted mean of the particles, into
// track), the cumulative normalised weights (cdf) and the resampling's offset u1 (a draw of
// the LCG state draw). Sequential sums over all the particles, in order: one task on the
// whole vectors.
void pf_normalize(const peppher::Vector<double>& x, const peppher::Vector<double>& y,
                  const peppher::Vector<double>& weights, int frame, peppher::Scalar<int>& draw,
                  peppher::Vector<double>& cdf PEPPHER_WRITE,
                  peppher::Scalar<double>& u1 PEPPHER_WRITE, peppher::Vector<double>& track);

// New particle j (an element of x_new and y_new) is the particle where the cumulative weights
// (cdf) first reach u1 + j / n (systematic resampling). The new particles are split into
// blocks of `block`, each block's task receiving its first particle's index in first; cdf, x
// and y are read whole.
void pf_resample(const peppher::Vector<double>& cdf, const peppher::Vector<double>& x,
                 const peppher::Vector<double>& y, const peppher::Scalar<double>& u1, int first,
                 int block,
                 peppher::Vector<double>& x_new PEPPHER_WRITE PEPPHER_PARTITION(block)
                     PEPPHER_BLOCK_FIRST(first),
                 peppher::Vector<double>& y_new PEPPHER_WRITE PEPPHER_PARTITION(block));
