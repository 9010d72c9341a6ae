// The tunable variant of tune: compiled once per BLOCK value (-DBLOCK=16 ...), each copy
// renamed by the composer (-Dtune_cpu=tune_cpu__BLOCK_16 ...). Adds BLOCK to each element,
// walking the array in blocks of BLOCK, so the result tells which copy ran.
#ifndef BLOCK
#error "BLOCK is set by the composer's tunable expansion"
#endif

void tune_cpu(float* x, int n) {
  for (int b = 0; b < n; b += BLOCK) {
    for (int i = b; i < n && i < b + BLOCK; ++i) x[i] += static_cast<float>(BLOCK);
  }
}
