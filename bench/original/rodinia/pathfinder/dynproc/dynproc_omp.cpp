// PathFinder's OpenMP variant: the row loop nest of Rodinia's OpenMP pathfinder
// (openmp/pathfinder/pathfinder.cpp, run(): inline there, so copied here as written, its
// `#pragma omp parallel for`), once per row; compiled without -fopenmp it is the sequential
// variant (dynproc_seq.cpp includes this file).
#include <peppher/runtime.h>

#include <vector>

#ifndef DYNPROC_VARIANT
#define DYNPROC_VARIANT dynproc_omp
#endif
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

void DYNPROC_VARIANT(const peppher::Vector<int>& wall_rows, const peppher::Vector<int>& src_row,
                     peppher::Vector<int>& dst_row, peppher::Vector<int>& debug, int cols, int rows,
                     int start_step, int iteration, int pyramid_height) {
  (void)debug;
  (void)rows;
  (void)pyramid_height;
  const int* wall = wall_rows.data();
  // Rows alternate between dst_row and one scratch row so that the last lands in dst_row;
  // the scratch row is kept from call to call on each thread (a new buffer per call would
  // touch fresh pages every call).
  static thread_local std::vector<int> scratch;
  if (iteration > 1 && scratch.size() < static_cast<std::size_t>(cols))
    scratch.resize(static_cast<std::size_t>(cols));
  const int* src = src_row.data();
  for (int i = 0; i < iteration; i++) {
    int* dst = (iteration - 1 - i) % 2 == 0 ? dst_row.data() : scratch.data();
    const int* w = wall + static_cast<std::size_t>(start_step + i) * cols;
    int min;
    // The original's loop nest (wall[t+1][n] is w[n] here: wall holds rows 1..).
#pragma omp parallel for private(min)
    for (int n = 0; n < cols; n++) {
      min = src[n];
      if (n > 0) min = MIN(min, src[n - 1]);
      if (n < cols - 1) min = MIN(min, src[n + 1]);
      dst[n] = w[n] + min;
    }
    src = dst;
  }
}
