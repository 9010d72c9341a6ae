// K-means written directly against StarPU, the way an expert would: one codelet per component
// over the same variant sources as the composed app (CPU, OpenMP, OpenCL), each block of
// points and memberships registered once as data of its own, and per block private copies of
// the cluster sums, counts and change count, zeroed by a task and added into the totals in
// block order by CPU tasks (STARPU_REDUX would add them in an order of its own: the sums'
// bits would change with the schedule).
//   ./kmeans_direct [points] [features] [clusters] [block] [rounds]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "../../common/direct.h"
#include "../kmeans_common.h"

using Mat = peppher::Matrix<float>;
using Ints = peppher::Vector<int>;
void kmeans_assign_cpu(const Mat&, const Mat&, int, Ints&, peppher::Scalar<int>&);
void kmeans_assign_openmp(const Mat&, const Mat&, int, Ints&, peppher::Scalar<int>&);
void kmeans_accumulate_cpu(const Mat&, const Ints&, int, Mat&, Ints&);
void kmeans_accumulate_openmp(const Mat&, const Ints&, int, Mat&, Ints&);

namespace {

starpu_opencl_program programs[2];
const char* const kNames[2] = {"kmeans_assign", "kmeans_accumulate"};

constexpr auto mat = direct::matrix_view<float>;
constexpr auto ints = direct::vector_view<int>;
using direct::len;
using direct::mem;

int* variable(void* buffer) {
  return reinterpret_cast<int*>(STARPU_VARIABLE_GET_PTR(buffer));
}

// Host functions: unpack the block size, view the buffers, call the variant.
template <auto variant>
void assign_host(void* b[], void* arg) {
  int block;
  starpu_codelet_unpack_args(arg, &block);
  Mat points = mat(b[0]), centres = mat(b[1]);
  Ints membership = ints(b[2]);
  auto changed = peppher::Scalar<int>::view(variable(b[3]));
  variant(points, centres, block, membership, changed);
}
template <auto variant>
void accumulate_host(void* b[], void* arg) {
  int block;
  starpu_codelet_unpack_args(arg, &block);
  Mat points = mat(b[0]), sums = mat(b[2]);
  Ints membership = ints(b[1]), counts = ints(b[3]);
  variant(points, membership, block, sums, counts);
}

// OpenCL functions: a matrix as its buffer, rows, columns and leading dimension, a vector as
// its buffer and length, like the composed app.
cl_mem matrix_mem(void* buffer) {
  return reinterpret_cast<cl_mem>(STARPU_MATRIX_GET_DEV_HANDLE(buffer));
}
int rows(void* buffer) {
  return static_cast<int>(STARPU_MATRIX_GET_NY(buffer));
}
int cols(void* buffer) {
  return static_cast<int>(STARPU_MATRIX_GET_NX(buffer));
}
int ld(void* buffer) {
  return static_cast<int>(STARPU_MATRIX_GET_LD(buffer));
}
void assign_cl(void* b[], void* arg) {
  int block;
  starpu_codelet_unpack_args(arg, &block);
  const cl_mem changed = reinterpret_cast<cl_mem>(STARPU_VARIABLE_GET_DEV_HANDLE(b[3]));
  direct::launch(&programs[0], "kmeans_assign_opencl", rows(b[0]), 0, matrix_mem(b[0]), rows(b[0]),
                 cols(b[0]), ld(b[0]), matrix_mem(b[1]), rows(b[1]), cols(b[1]), ld(b[1]), block,
                 mem(b[2]), len(b[2]), changed);
}
void accumulate_cl(void* b[], void* arg) {
  int block;
  starpu_codelet_unpack_args(arg, &block);
  direct::launch(&programs[1], "kmeans_accumulate_opencl", rows(b[2]) * cols(b[2]), 0,
                 matrix_mem(b[0]), rows(b[0]), cols(b[0]), ld(b[0]), mem(b[1]), len(b[1]), block,
                 matrix_mem(b[2]), rows(b[2]), cols(b[2]), ld(b[2]), mem(b[3]), len(b[3]));
}

// A block's private copies (buffers: sums, counts, changed; written) start at zero.
void start_cpu(void* b[], void*) {
  std::memset(reinterpret_cast<void*>(STARPU_MATRIX_GET_PTR(b[0])), 0,
              STARPU_MATRIX_GET_NY(b[0]) * STARPU_MATRIX_GET_LD(b[0]) * sizeof(float));
  std::memset(reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(b[1])), 0,
              STARPU_VECTOR_GET_NX(b[1]) * sizeof(int));
  *variable(b[2]) = 0;
}

// The totals (buffers 0-2, read-write) plus one block's private copies (3-5, read).
void fold_cpu(void* b[], void*) {
  Mat sums = mat(b[0]), part = mat(b[3]);
  for (std::size_t c = 0; c < sums.rows(); ++c)
    for (std::size_t j = 0; j < sums.cols(); ++j)
      sums.data()[c * sums.ld() + j] += part.data()[c * part.ld() + j];
  int* counts = reinterpret_cast<int*>(STARPU_VECTOR_GET_PTR(b[1]));
  const int* counted = reinterpret_cast<const int*>(STARPU_VECTOR_GET_PTR(b[4]));
  for (std::size_t c = 0; c < STARPU_VECTOR_GET_NX(b[1]); ++c) counts[c] += counted[c];
  *variable(b[2]) += *variable(b[5]);
}

starpu_codelet cpu_only(starpu_cpu_func_t f, std::initializer_list<starpu_data_access_mode> modes) {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.where = STARPU_CPU;
  cl.cpu_funcs[0] = f;
  cl.nbuffers = static_cast<int>(modes.size());
  int i = 0;
  for (starpu_data_access_mode m : modes) cl.modes[i++] = m;
  return cl;
}

starpu_codelet assign_codelet = direct::codelet(
    assign_host<kmeans_assign_cpu>, direct::openmp<assign_host<kmeans_assign_openmp>>, nullptr,
    assign_cl, {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW});
starpu_codelet accumulate_codelet =
    direct::codelet(accumulate_host<kmeans_accumulate_cpu>,
                    direct::openmp<accumulate_host<kmeans_accumulate_openmp>>, nullptr,
                    accumulate_cl, {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW});
starpu_codelet start_codelet = cpu_only(start_cpu, {STARPU_W, STARPU_W, STARPU_W});
starpu_codelet fold_codelet =
    cpu_only(fold_cpu, {STARPU_RW, STARPU_RW, STARPU_RW, STARPU_R, STARPU_R, STARPU_R});

void check(int ret) {
  STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
}

}  // namespace

int main(int argc, char** argv) {
  const int n = app::arg(argc, argv, 1, 20000, kmeans::kUsage);
  const int f = app::arg(argc, argv, 2, 4, kmeans::kUsage);
  const int k = std::min(n, app::arg(argc, argv, 3, 5, kmeans::kUsage));
  const int block = app::arg(argc, argv, 4, 2500, kmeans::kUsage);
  const int max_rounds = app::arg(argc, argv, 5, 50, kmeans::kUsage);
  std::vector<float> points = kmeans::generate(n, f, k);
  const kmeans::Result want = kmeans::reference(points, n, f, k, block, max_rounds);

  direct::start();
  const double t0 = app::now();
  for (int i = 0; i < 2; ++i) {
    const std::string path =
        std::string(KERNEL_DIR "/") + kNames[i] + "/" + kNames[i] + "_opencl.cl";
    direct::load_program(&programs[i], path.c_str());
  }
  const auto uf = static_cast<std::uint32_t>(f), uk = static_cast<std::uint32_t>(k);
  std::vector<float> centres(points.begin(), points.begin() + static_cast<long>(k) * f);
  std::vector<float> sums(centres.size());
  std::vector<int> membership(static_cast<std::size_t>(n), -1), counts(uk);
  int changed = 0;
  starpu_data_handle_t h_centres, h_sums, h_counts, h_changed;
  starpu_matrix_data_register(&h_centres, STARPU_MAIN_RAM, uintptr_t(centres.data()), uf, uf, uk,
                              sizeof(float));
  starpu_matrix_data_register(&h_sums, STARPU_MAIN_RAM, uintptr_t(sums.data()), uf, uf, uk,
                              sizeof(float));
  starpu_vector_data_register(&h_counts, STARPU_MAIN_RAM, uintptr_t(counts.data()), uk,
                              sizeof(int));
  starpu_variable_data_register(&h_changed, STARPU_MAIN_RAM, uintptr_t(&changed), sizeof(int));
  // Per block: its points and memberships, and its private sums, counts and change count.
  const std::size_t nblocks = (static_cast<std::size_t>(n) + block - 1) / block;
  std::vector<starpu_data_handle_t> h_points(nblocks), h_members(nblocks), h_psums(nblocks),
      h_pcounts(nblocks), h_pchanged(nblocks);
  for (std::size_t b = 0; b < nblocks; ++b) {
    const peppher::BlockRange r = peppher::block_range(n, nblocks, b);
    const auto size = static_cast<std::uint32_t>(r.size);
    starpu_matrix_data_register(&h_points[b], STARPU_MAIN_RAM, uintptr_t(&points[r.offset * f]), uf,
                                uf, size, sizeof(float));
    starpu_vector_data_register(&h_members[b], STARPU_MAIN_RAM, uintptr_t(&membership[r.offset]),
                                size, sizeof(int));
    starpu_matrix_data_register(&h_psums[b], -1, 0, uf, uf, uk, sizeof(float));
    starpu_vector_data_register(&h_pcounts[b], -1, 0, uk, sizeof(int));
    starpu_variable_data_register(&h_pchanged[b], -1, 0, sizeof(int));
  }

  int rounds = 0;
  while (rounds < max_rounds) {
    ++rounds;
    for (starpu_data_handle_t h : {h_sums, h_counts, h_changed}) {  // the totals from zero
      starpu_data_acquire(h, STARPU_W);
      std::memset(starpu_data_get_local_ptr(h), 0, starpu_data_get_size(h));
      starpu_data_release(h);
    }
    for (std::size_t b = 0; b < nblocks; ++b)
      check(starpu_task_insert(&start_codelet, STARPU_W, h_psums[b], STARPU_W, h_pcounts[b],
                               STARPU_W, h_pchanged[b], 0));
    for (std::size_t b = 0; b < nblocks; ++b)
      check(starpu_task_insert(&assign_codelet, STARPU_R, h_points[b], STARPU_R, h_centres,
                               STARPU_RW, h_members[b], STARPU_RW, h_pchanged[b], STARPU_VALUE,
                               &block, sizeof(int), 0));
    for (std::size_t b = 0; b < nblocks; ++b)
      check(starpu_task_insert(&accumulate_codelet, STARPU_R, h_points[b], STARPU_R, h_members[b],
                               STARPU_RW, h_psums[b], STARPU_RW, h_pcounts[b], STARPU_VALUE, &block,
                               sizeof(int), 0));
    for (std::size_t b = 0; b < nblocks; ++b)  // in block order: each waits for the previous
      check(starpu_task_insert(&fold_codelet, STARPU_RW, h_sums, STARPU_RW, h_counts, STARPU_RW,
                               h_changed, STARPU_R, h_psums[b], STARPU_R, h_pcounts[b], STARPU_R,
                               h_pchanged[b], 0));
    for (starpu_data_handle_t h : {h_sums, h_counts, h_changed}) starpu_data_acquire(h, STARPU_R);
    starpu_data_acquire(h_centres, STARPU_RW);
    kmeans::update_centres(centres.data(), sums.data(), counts.data(), k, f);
    const bool done = changed == 0;
    for (starpu_data_handle_t h : {h_sums, h_counts, h_changed, h_centres}) starpu_data_release(h);
    if (done) break;
  }
  for (std::size_t b = 0; b < nblocks; ++b)
    for (starpu_data_handle_t h :
         {h_points[b], h_members[b], h_psums[b], h_pcounts[b], h_pchanged[b]})
      starpu_data_unregister(h);  // waits, brings the memberships home
  for (starpu_data_handle_t h : {h_centres, h_sums, h_counts, h_changed}) starpu_data_unregister(h);
  const double seconds = app::now() - t0;
  const std::uint64_t sum = app::checksum(membership.data(), membership.size(),
                                          app::checksum(centres.data(), centres.size()));
  const long wrong = kmeans::count_wrong(centres.data(), membership.data(), n, f, k, want) +
                     (rounds != want.rounds ? 1 : 0);
  for (int i = 0; i < 2; ++i) direct::unload_program(&programs[i]);
  starpu_shutdown();
  char what[96];
  std::snprintf(what, sizeof what, "%d points, %d features, %d clusters, %d rounds", n, f, k,
                rounds);
  return app::verdict("kmeans", what, wrong, sum, seconds);
}
