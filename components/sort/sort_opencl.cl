// sort, OpenCL variant: sorts data[0..n) ascending in place. T, the element type, comes from
// the build options (-DT=float, -DT=int, -DT=double). Arguments follow the interface.
//
// One launch, one work-group (the descriptor asks for globalSize = localSize = 256; any other
// work-group returns at once, and any local size works): a bitonic sorting network over
// N = the next power of two >= n, in its direction-free form where every compare-exchange
// puts the smaller value at the lower index. Indices >= n stand for +infinity, so a pair
// whose upper index is >= n is left alone and only data[0..n) is ever touched. Stage
// k = 2, 4, .., N: its first step pairs i with i ^ (k-1) (mirror inside each block of k),
// the later steps j = k/4 .. 1 pair i with i ^ j. Each step hands out its N/2 pairs
// (lower index i, partner p > i) to the work-items in turn, so every element belongs to at
// most one pair per step and no two work-items touch the same element; a barrier separates
// the steps. Comparisons use <, so NaNs end up in unspecified places (as with std::sort).
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifndef T
#error "sort_opencl.cl: build with -DT=<element type> (e.g. -DT=float)"
#endif

__kernel void sort_opencl(__global T* data, int n) {
  if (get_group_id(0) != 0 || n <= 1) return;  // uniform per group: no barrier divergence
  const uint lid = (uint)get_local_id(0);
  const uint lsize = (uint)get_local_size(0);
  const uint un = (uint)n;
  uint N = 1;
  while (N < un) N <<= 1;
  const uint npairs = N >> 1;

  for (uint k = 2; k <= N; k <<= 1) {
    // m = half the width of the blocks this step works in: k/2 for the first step, then j.
    for (uint m = k >> 1; m > 0; m >>= 1) {
      const bool first = (m == (k >> 1));
      for (uint t = lid; t < npairs; t += lsize) {
        // The t-th pair: i is t with a 0 bit inserted at bit log2(m), so i has that bit clear.
        const uint i = ((t & ~(m - 1)) << 1) | (t & (m - 1));
        const uint p = first ? (i ^ (k - 1)) : (i | m);
        if (p < un) {
          const T a = data[i];
          const T b = data[p];
          if (b < a) {
            data[i] = b;
            data[p] = a;
          }
        }
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
    }
  }
}
