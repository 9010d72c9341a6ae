// The hand-written StarPU-MPI hotspot that bench/mpi/run compares apps/hotspot_mpi with:
// the same computation (apps/hotspot's cell update, the same blocks of rows, block k on
// rank k * nranks / blocks), written directly against StarPU-MPI as one would by hand:
// a handle per block of each grid, two small handles per block for its first and last row
// (filled by a task after each update), starpu_mpi_task_insert for everything, and the
// result gathered on every rank at the end. Prints "TIME hotspot=<s> checksum=<hex>" on
// every rank (seconds from registering the data to the result on every rank).
//   mpirun -np N hotspot_handwritten [rows] [cols] [steps] [block_rows]
#include <starpu.h>
#include <starpu_mpi.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../../apps/hotspot/hotspot_common.h"

namespace {

struct Step {
  hotspot::Coefficients k;
  int has_up, has_down;
};

// buffers: power block, temperature block, row above, row below, new temperature block.
void update_cpu(void* buffers[], void* cl_arg) {
  Step a;
  starpu_codelet_unpack_args(cl_arg, &a);
  const float* p = reinterpret_cast<const float*>(STARPU_MATRIX_GET_PTR(buffers[0]));
  const float* t = reinterpret_cast<const float*>(STARPU_MATRIX_GET_PTR(buffers[1]));
  const float* above = reinterpret_cast<const float*>(STARPU_MATRIX_GET_PTR(buffers[2]));
  const float* below = reinterpret_cast<const float*>(STARPU_MATRIX_GET_PTR(buffers[3]));
  float* out = reinterpret_cast<float*>(STARPU_MATRIX_GET_PTR(buffers[4]));
  const std::size_t rows = STARPU_MATRIX_GET_NY(buffers[4]);
  const std::size_t cols = STARPU_MATRIX_GET_NX(buffers[4]);
  const std::size_t ld_p = STARPU_MATRIX_GET_LD(buffers[0]),
                    ld_t = STARPU_MATRIX_GET_LD(buffers[1]);
  const std::size_t ld_o = STARPU_MATRIX_GET_LD(buffers[4]);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = t + r * ld_t;
    const float* up = r > 0 ? row - ld_t : (a.has_up ? above : row);
    const float* down = r + 1 < rows ? row + ld_t : (a.has_down ? below : row);
    for (std::size_t c = 0; c < cols; ++c)
      out[r * ld_o + c] = hotspot_cell_rows(up, row, down, p + r * ld_p, cols, c, a.k.step_div_cap,
                                            a.k.rx_1, a.k.ry_1, a.k.rz_1, a.k.amb_temp);
  }
}

// buffers: a temperature block, its first row, its last row.
void save_cpu(void* buffers[], void*) {
  const float* t = reinterpret_cast<const float*>(STARPU_MATRIX_GET_PTR(buffers[0]));
  const std::size_t rows = STARPU_MATRIX_GET_NY(buffers[0]);
  const std::size_t bytes = STARPU_MATRIX_GET_NX(buffers[0]) * sizeof(float);
  const std::size_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
  std::memcpy(reinterpret_cast<void*>(STARPU_MATRIX_GET_PTR(buffers[1])), t, bytes);
  std::memcpy(reinterpret_cast<void*>(STARPU_MATRIX_GET_PTR(buffers[2])), t + (rows - 1) * ld,
              bytes);
}

starpu_codelet update_cl() {
  starpu_codelet cl{};
  cl.cpu_funcs[0] = update_cpu;
  cl.nbuffers = 5;
  cl.modes[0] = cl.modes[1] = cl.modes[2] = cl.modes[3] = STARPU_R;
  cl.modes[4] = STARPU_W;
  cl.name = "hotspot_update";
  return cl;
}

starpu_codelet save_cl() {
  starpu_codelet cl{};
  cl.cpu_funcs[0] = save_cpu;
  cl.nbuffers = 3;
  cl.modes[0] = STARPU_R;
  cl.modes[1] = cl.modes[2] = STARPU_W;
  cl.name = "hotspot_save";
  return cl;
}

}  // namespace

int main(int argc, char** argv) {
  const char* usage = "hotspot_handwritten [rows] [cols] [steps] [block_rows]";
  const int rows = app::arg(argc, argv, 1, 512, usage);
  const int cols = app::arg(argc, argv, 2, 512, usage);
  const int steps = app::arg(argc, argv, 3, 100, usage);
  const int block_rows = app::arg(argc, argv, 4, (rows + 7) / 8, usage);
  std::vector<float> temp0, power0;
  hotspot::generate(rows, cols, temp0, power0);
  const hotspot::Coefficients k = hotspot::coefficients(rows, cols);
  if (starpu_mpi_init_conf(&argc, &argv, 1, MPI_COMM_WORLD, nullptr) != 0) return 77;
  int me = 0, nranks = 1;
  starpu_mpi_comm_rank(MPI_COMM_WORLD, &me);
  starpu_mpi_comm_size(MPI_COMM_WORLD, &nranks);
  starpu_codelet update = update_cl(), save = save_cl();

  const double t0 = app::now();
  std::vector<float> grid[2] = {temp0, std::vector<float>(temp0.size())};
  std::vector<float> power = power0;
  const int nblocks = (rows + block_rows - 1) / block_rows;
  struct Block {
    starpu_data_handle_t p, t[2], first[2], last[2];
  };
  std::vector<Block> blocks(static_cast<std::size_t>(nblocks));
  starpu_mpi_tag_t tag = 1;
  for (int b = 0; b < nblocks; ++b) {
    const int r0 = b * rows / nblocks, r1 = (b + 1) * rows / nblocks;  // as block_range
    const int owner = b * nranks / nblocks;
    Block& blk = blocks[static_cast<std::size_t>(b)];
    auto rows_of = [&](float* base, starpu_data_handle_t* h) {
      starpu_matrix_data_register(h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(base + r0 * cols),
                                  cols, cols, r1 - r0, sizeof(float));
      starpu_mpi_data_register(*h, tag++, owner);
    };
    rows_of(power.data(), &blk.p);
    for (int g = 0; g < 2; ++g) {
      rows_of(grid[g].data(), &blk.t[g]);
      for (starpu_data_handle_t* h : {&blk.first[g], &blk.last[g]}) {
        starpu_matrix_data_register(h, -1, 0, cols, cols, 1, sizeof(float));
        starpu_mpi_data_register(*h, tag++, owner);
      }
    }
  }
  auto save_rows = [&](int g) {
    for (Block& blk : blocks)
      starpu_mpi_task_insert(MPI_COMM_WORLD, &save, STARPU_R, blk.t[g], STARPU_W, blk.first[g],
                             STARPU_W, blk.last[g], 0);
  };
  save_rows(0);
  for (int s = 0; s < steps; ++s) {
    const int in = s % 2, out = 1 - in;
    for (int b = 0; b < nblocks; ++b) {
      Block& blk = blocks[static_cast<std::size_t>(b)];
      Step a{k, b > 0, b + 1 < nblocks};
      starpu_data_handle_t up = b > 0 ? blocks[b - 1].last[in] : blk.t[in];
      starpu_data_handle_t down = b + 1 < nblocks ? blocks[b + 1].first[in] : blk.t[in];
      starpu_mpi_task_insert(MPI_COMM_WORLD, &update, STARPU_VALUE, &a, sizeof a, STARPU_R, blk.p,
                             STARPU_R, blk.t[in], STARPU_R, up, STARPU_R, down, STARPU_W,
                             blk.t[out], 0);
    }
    if (s + 1 < steps) save_rows(out);
  }
  const int last = steps % 2;
  for (Block& blk : blocks) starpu_mpi_get_data_on_all_nodes_detached(MPI_COMM_WORLD, blk.t[last]);
  for (Block& blk : blocks) {
    for (starpu_data_handle_t h :
         {blk.p, blk.t[0], blk.t[1], blk.first[0], blk.first[1], blk.last[0], blk.last[1]})
      starpu_data_unregister(h);
  }
  const double seconds = app::now() - t0;
  const std::vector<float>& got = grid[last];
  const std::vector<float> want = hotspot::reference(rows, cols, steps, temp0, power0, k);
  long wrong = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) ++wrong;
  starpu_mpi_shutdown();
  std::printf("TIME hotspot=%.6f checksum=%016llx rank %d of %d: %s\n", seconds,
              static_cast<unsigned long long>(app::checksum(got.data(), got.size())), me, nranks,
              wrong == 0 ? "correct" : "WRONG");
  return wrong == 0 ? 0 : 1;
}
