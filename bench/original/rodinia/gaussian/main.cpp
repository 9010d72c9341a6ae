// bench/original/rodinia Gaussian: Rodinia's OpenCL gaussian program (opencl/gaussian/
// gaussianElim.cpp: the matrix its -s option generates, b = 1, the multipliers m zeroed) with
// its ForwardSub loop calling the composed fan1() and fan2() once per step t, as it launches
// the kernels Fan1 and Fan2, then its BackSub on the host.
//   gaussian SIZE [dump]
// Prints "kernel region: <seconds>" (first call to a, b and m on the host); `dump` then prints
// b and the solution as the original's -v does ("The result of array b is:", "The final
// solution is:", PrintAry's %.2e).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"
#include "rd_timer.h"

// The suite's create_matrix (gaussianElim.cpp), as written there.
static void create_matrix(float* m, int size) {
  int i, j;
  float lamda = -0.01;
  std::vector<float> coe(2 * size - 1);
  float coe_i = 0.0;
  for (i = 0; i < size; i++) {
    coe_i = 10 * exp(lamda * i);
    j = size - 1 + i;
    coe[j] = coe_i;
    j = size - 1 - i;
    coe[j] = coe_i;
  }
  for (i = 0; i < size; i++)
    for (j = 0; j < size; j++) m[i * size + j] = coe[size - 1 - i + j];
}

// The suite's BackSub and PrintAry (gaussianElim.cpp), as written there.
static void BackSub(float* a, float* b, float* finalVec, int size) {
  int i, j;
  for (i = 0; i < size; i++) {
    finalVec[size - i - 1] = b[size - i - 1];
    for (j = 0; j < i; j++)
      finalVec[size - i - 1] -=
          *(a + size * (size - i - 1) + (size - j - 1)) * finalVec[size - j - 1];
    finalVec[size - i - 1] = finalVec[size - i - 1] / *(a + size * (size - i - 1) + (size - i - 1));
  }
}
static void PrintAry(float* ary, int ary_size) {
  for (int i = 0; i < ary_size; i++) std::printf("%.2e ", ary[i]);
  std::printf("\n\n");
}

int main(int argc, char** argv) {
  if (argc < 2 || std::atoi(argv[1]) < 2) {
    std::fprintf(stderr, "usage: gaussian SIZE [dump]\n");
    return 2;
  }
  PEPPHER_INITIALIZE();  // StarPU starts while the input is read and set up
  const int size = std::atoi(argv[1]);
  const bool dump = argc > 2 && std::strcmp(argv[2], "dump") == 0;
  const std::size_t n = static_cast<std::size_t>(size) * size;
  std::vector<float> a(n), b(size, 1.0f), m(n, 0.0f), finalVec(size);
  create_matrix(a.data(), size);

  {
    const double t0 = rd_now();
    // The program's arrays, used in place (borrow: no copy); the results land in them.
    auto m_dev = peppher::Vector<float>::borrow(m.data(), n);
    auto a_dev = peppher::Vector<float>::borrow(a.data(), n);
    auto b_dev = peppher::Vector<float>::borrow(b.data(), b.size());
    for (int t = 0; t < (size - 1); t++) {
      fan1(m_dev, a_dev, b_dev, size, t);
      fan2(m_dev, a_dev, b_dev, size, t);
    }
    a_dev.host_read();  // the results on the host, in a, b and m
    b_dev.host_read();
    m_dev.host_read();
    std::printf("kernel region: %.6f\n", rd_now() - t0);
  }
  PEPPHER_SHUTDOWN();
  if (dump) {
    std::printf("The result of array b is: \n");
    PrintAry(b.data(), size);
    BackSub(a.data(), b.data(), finalVec.data(), size);
    std::printf("The final solution is: \n");
    PrintAry(finalVec.data(), size);
  }
  return 0;
}
