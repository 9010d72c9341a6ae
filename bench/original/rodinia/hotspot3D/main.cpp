// bench/original/rodinia HotSpot3D: Rodinia's OpenMP hotspot3D program (openmp/hotspot3D/3D.c:
// its main's steps, its readinput, computeTempCPU, accuracy and writeoutput, linked from the
// suite's file with its main renamed) with its compute loop calling the composed
// hotspot3d_step() once per iteration, as the suite's OpenCL host code launches hotspotOpt1.
//   hotspot3D ROWS/COLS LAYERS ITERATIONS POWER_FILE TEMP_FILE OUTPUT_FILE [dump]
// (`dump`, which the run script passes to every composed program to have its result printed,
// changes nothing here: the result is OUTPUT_FILE.)
// As the original: prints the accuracy against computeTempCPU and writes tempOut (the buffer
// the original writes: the last step's result for an odd count, the one before for an even
// count, as in both originals) to OUTPUT_FILE; its time line is "kernel region: <seconds>",
// from the first call to the result on the host.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "peppher.h"
#include "rd_timer.h"

// From the suite's 3D.c (compiled as C beside this file).
extern "C" {
extern float t_chip, chip_height, chip_width, amb_temp;
void readinput(float* vect, int grid_rows, int grid_cols, int layers, char* file);
void writeoutput(float* vect, int grid_rows, int grid_cols, int layers, char* file);
void computeTempCPU(float* pIn, float* tIn, float* tOut, int nx, int ny, int nz, float Cap,
                    float Rx, float Ry, float Rz, float dt, int numiter);
float accuracy(float* arr1, float* arr2, int len);
}
// 3D.c's constants (macros there).
#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5

int main(int argc, char** argv) {
  if (argc != 7 && !(argc == 8 && std::strcmp(argv[7], "dump") == 0)) {
    std::fprintf(stderr,
                 "usage: %s ROWS/COLS LAYERS ITERATIONS POWER_FILE TEMP_FILE OUTPUT_FILE [dump]\n",
                 argv[0]);
    return 1;
  }
  PEPPHER_INITIALIZE();  // StarPU starts while the input is read and set up
  // The original's main, its parameters computed as there.
  char *pfile = argv[4], *tfile = argv[5], *ofile = argv[6];
  int iterations = std::atoi(argv[3]);
  int numCols = std::atoi(argv[1]);
  int numRows = std::atoi(argv[1]);
  int layers = std::atoi(argv[2]);
  float dx = chip_height / numRows;
  float dy = chip_width / numCols;
  float dz = t_chip / layers;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * dx * dy;
  float Rx = dy / (2.0 * K_SI * t_chip * dx);
  float Ry = dx / (2.0 * K_SI * t_chip * dy);
  float Rz = dz / (K_SI * dx * dy);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float dt = PRECISION / max_slope;
  // computeTempOMP's coefficients.
  float ce, cw, cn, cs, ct, cb, cc;
  float stepDivCap = dt / Cap;
  ce = cw = stepDivCap / Rx;
  cn = cs = stepDivCap / Ry;
  ct = cb = stepDivCap / Rz;
  cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);

  const int size = numCols * numRows * layers;
  std::vector<float> powerIn(size), tempIn(size), tempOut(size), tempCopy(size), answer(size);
  readinput(powerIn.data(), numRows, numCols, layers, pfile);
  readinput(tempIn.data(), numRows, numCols, layers, tfile);
  tempCopy = tempIn;

  {
    const double t0 = rd_now();
    // The program's arrays, used in place (borrow: no copy); the results land in them.
    auto p = peppher::Vector<float>::borrow(powerIn.data(), powerIn.size());
    auto in = peppher::Vector<float>::borrow(tempIn.data(), tempIn.size());
    auto out = peppher::Vector<float>::borrow(tempOut.data(), tempOut.size());
    peppher::Vector<float>*t_in = &in, *t_out = &out;
    for (int i = 0; i < iterations; i++) {
      hotspot3d_step(p, *t_in, *t_out, stepDivCap, numCols, numRows, layers, ce, cw, cn, cs, ct, cb,
                     cc);
      peppher::Vector<float>* t = t_in;
      t_in = t_out;
      t_out = t;
    }
    out.host_read();  // the result on the host, in tempOut as the original writes it
    std::printf("kernel region: %.6f\n", rd_now() - t0);
  }
  PEPPHER_SHUTDOWN();
  computeTempCPU(powerIn.data(), tempCopy.data(), answer.data(), numCols, numRows, layers, Cap, Rx,
                 Ry, Rz, dt, iterations);
  float acc = accuracy(tempOut.data(), answer.data(), numRows * numCols * layers);
  std::printf("Accuracy: %e\n", acc);
  writeoutput(tempOut.data(), numRows, numCols, layers, ofile);
  return 0;
}
