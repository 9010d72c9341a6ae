// bench/original/rodinia LUD: Rodinia's OpenMP lud program (openmp/lud/omp/lud.c: the matrix
// its -s option generates with create_matrix, the suite's common.c linked beside this file)
// with its decomposition made of composed lud_step() calls, one per block offset, in the loop
// of the suite's OpenCL host code (opencl/lud/ocl/lud.cpp), then the last diagonal block.
//   lud SIZE [dump]
// Prints "kernel region: <seconds>" (first call to the result on the host); `dump` then runs
// the suite's lud_verify on the result, as both originals do with -v (it prints a "dismatch"
// line for every element of L * U more than 0.0001 away from the input).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common.h"
#include "peppher.h"
#include "rd_timer.h"

#define BLOCK_SIZE 16

int main(int argc, char** argv) {
  if (argc < 2 || std::atoi(argv[1]) < BLOCK_SIZE || std::atoi(argv[1]) % BLOCK_SIZE != 0) {
    std::fprintf(stderr, "usage: lud SIZE [dump]   (SIZE a multiple of %d)\n", BLOCK_SIZE);
    return 2;
  }
  PEPPHER_INITIALIZE();  // StarPU starts while the input is read and set up
  const int matrix_dim = std::atoi(argv[1]);
  const bool verify = argc > 2 && std::strcmp(argv[2], "dump") == 0;
  float *m, *mm = nullptr;
  if (create_matrix(&m, matrix_dim) != RET_SUCCESS) {
    std::fprintf(stderr, "error create matrix internally size=%d\n", matrix_dim);
    return 1;
  }
  if (verify) matrix_duplicate(m, &mm, matrix_dim);

  {
    const double t0 = rd_now();
    const std::size_t n = static_cast<std::size_t>(matrix_dim) * matrix_dim;
    auto d_m = peppher::Vector<float>::borrow(m, n);  // m used in place: no copy
    int i = 0;
    for (i = 0; i < matrix_dim - BLOCK_SIZE; i += BLOCK_SIZE) lud_step(d_m, matrix_dim, i);
    lud_step(d_m, matrix_dim, i);  // the last diagonal block
    d_m.host_read();               // the result on the host, in m
    std::printf("kernel region: %.6f\n", rd_now() - t0);
  }
  PEPPHER_SHUTDOWN();
  if (verify) {
    std::printf(">>>Verify<<<<\n");
    lud_verify(mm, m, matrix_dim);
    std::free(mm);
  }
  std::free(m);
  return 0;
}
