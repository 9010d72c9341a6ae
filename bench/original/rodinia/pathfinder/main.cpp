// bench/original/rodinia PathFinder: Rodinia's pathfinder (the grid generated as both originals
// generate it: srand(9), rand() % 10) with its kernel loop calling the composed dynproc() as the
// suite's OpenCL host code loops over dynproc_kernel: one call per pyramid_height rows.
//   pathfinder COLS ROWS PYRAMID_HEIGHT [dump]
// Prints "kernel region: <seconds>" (from the first call to the result on the host); `dump`
// then prints the input's first row and the result as the originals' BENCH_PRINT does.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"
#include "rd_timer.h"

#define M_SEED 9
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: pathfinder COLS ROWS PYRAMID_HEIGHT [dump]\n");
    return 2;
  }
  PEPPHER_INITIALIZE();  // StarPU starts while the input is read and set up
  const int cols = std::atoi(argv[1]), rows = std::atoi(argv[2]), height = std::atoi(argv[3]);
  const bool dump = argc > 4 && std::strcmp(argv[4], "dump") == 0;
  if (cols < 1 || rows < 2 || height < 1) {
    std::fprintf(stderr, "pathfinder: COLS >= 1, ROWS >= 2, PYRAMID_HEIGHT >= 1\n");
    return 2;
  }
  std::vector<int> data(static_cast<std::size_t>(rows) * cols);
  std::srand(M_SEED);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) data[static_cast<std::size_t>(i) * cols + j] = std::rand() % 10;

  {
    const double t0 = rd_now();
    // Rows 1.. of the grid used in place (borrow: no copy), as the originals' wall.
    auto wall = peppher::Vector<int>::borrow(data.data() + cols, data.size() - cols);
    peppher::Vector<int> result[2] = {
        peppher::Vector<int>(std::vector<int>(data.begin(), data.begin() + cols)),
        peppher::Vector<int>(cols)};
    peppher::Vector<int> debug(std::vector<int>(16384, 0));
    // The suite's host loop (opencl/pathfinder/main.cpp): src and final_ret swap every call.
    int src = 1, final_ret = 0;
    for (int t = 0; t < rows - 1; t += height) {
      const int temp = src;
      src = final_ret;
      final_ret = temp;
      dynproc(wall, result[src], result[final_ret], debug, cols, rows, t, MIN(height, rows - t - 1),
              height);
    }
    const int* got = result[final_ret].host_read();
    std::printf("kernel region: %.6f\n", rd_now() - t0);
    if (dump) {
      for (int i = 0; i < cols; i++) std::printf("%d ", data[i]);
      std::printf("\n");
      for (int i = 0; i < cols; i++) std::printf("%d ", got[i]);
      std::printf("\n");
    }
  }
  PEPPHER_SHUTDOWN();
  return 0;
}
