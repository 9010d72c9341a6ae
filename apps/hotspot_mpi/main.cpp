// The distributed hotspot: apps/hotspot's thermal simulation with every time step a
// partitioned call (blocks of block_rows rows, temp_in read with a one-row halo). In one
// process the blocks are tasks on the workers; composed with --mpi, block k lives on rank
// k * nranks / blocks and a step sends only the rows around the blocks between ranks.
// The step has a CPU and an OpenCL variant (the kernel of apps/hotspot over a block and its
// halo rows), which compute the same bits. Every rank checks the final grid bit for bit
// against the host reference.
//   ./hotspot_mpi [rows] [cols] [steps] [block_rows]       (mpirun -np N ./hotspot_mpi ...)
#include <cstring>

#include "../hotspot/hotspot_common.h"
#include "peppher.h"

int main(int argc, char** argv) {
  const char* usage = "hotspot_mpi [rows] [cols] [steps] [block_rows]";
  const int rows = app::arg(argc, argv, 1, 512, usage);
  const int cols = app::arg(argc, argv, 2, 512, usage);
  const int steps = app::arg(argc, argv, 3, 100, usage);
  const int block_rows = app::arg(argc, argv, 4, (rows + 7) / 8, usage);
  std::vector<float> temp0, power0;
  hotspot::generate(rows, cols, temp0, power0);
  const hotspot::Coefficients k = hotspot::coefficients(rows, cols);

  PEPPHER_INITIALIZE();
  const int rank = peppher::rank(), nranks = peppher::nranks();
  long wrong = 0;
  std::uint64_t sum;
  double seconds;
  {
    const double t0 = app::now();
    peppher::Matrix<float> power(rows, cols, power0), a(rows, cols, temp0), b(rows, cols);
    for (int s = 0; s < steps; ++s) {
      peppher::Matrix<float>& in = s % 2 == 0 ? a : b;
      peppher::Matrix<float>& out = s % 2 == 0 ? b : a;
      hotspot_block(power, in, out, block_rows, k.step_div_cap, k.rx_1, k.ry_1, k.rz_1, k.amb_temp);
    }
    const peppher::Matrix<float>& result = steps % 2 == 0 ? a : b;
    const float* got = result.host_read();  // every rank: each block from its owner
    seconds = app::now() - t0;
    sum = app::checksum(got, result.size());  // no padding: ld() == cols()
    const std::vector<float> want = hotspot::reference(rows, cols, steps, temp0, power0, k);
    for (std::size_t i = 0; i < want.size(); ++i)  // bit for bit
      if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) ++wrong;
  }
  PEPPHER_SHUTDOWN();
  char what[96];
  std::snprintf(what, sizeof what, "%dx%d, %d steps, blocks of %d rows, rank %d of %d", rows, cols,
                steps, block_rows, rank, nranks);
  return app::verdict("hotspot_mpi", what, wrong, sum, seconds);
}
