// The particle filter written directly against StarPU, the way an expert would: one codelet
// per component over the same variant sources as the composed app (CPU, OpenMP, OpenCL, CUDA),
// the particle vectors planned into blocks once (StarPU's asynchronous partitioning) and
// partitioned for the block tasks, gathered for the whole-vector task of each frame; the
// seeds stay partitioned throughout.
//   ./particlefilter_direct [rows] [cols] [frames] [particles] [block]
#include <omp.h>
#include <peppher/runtime.h>
#include <starpu.h>

#include <string>
#include <utility>
#include <vector>

#include "../../common/direct.h"
#include "../particlefilter_common.h"

using Doubles = peppher::Vector<double>;
using Ints = peppher::Vector<int>;
#define PF_LIKELIHOOD_ARGS \
  const Ints&, const Ints&, int, int, int, int, int, Doubles&, Doubles&, Ints&, Doubles&
#define PF_NORMALIZE_ARGS                                                               \
  const Doubles&, const Doubles&, const Doubles&, int, peppher::Scalar<int>&, Doubles&, \
      peppher::Scalar<double>&, Doubles&
#define PF_RESAMPLE_ARGS                                                                    \
  const Doubles&, const Doubles&, const Doubles&, const peppher::Scalar<double>&, int, int, \
      Doubles&, Doubles&
void pf_likelihood_cpu(PF_LIKELIHOOD_ARGS);
void pf_likelihood_openmp(PF_LIKELIHOOD_ARGS);
void pf_normalize_cpu(PF_NORMALIZE_ARGS);
void pf_normalize_openmp(PF_NORMALIZE_ARGS);
void pf_resample_cpu(PF_RESAMPLE_ARGS);
void pf_resample_openmp(PF_RESAMPLE_ARGS);
#ifdef STARPU_USE_CUDA
void pf_likelihood_cuda(PF_LIKELIHOOD_ARGS);
void pf_normalize_cuda(PF_NORMALIZE_ARGS);
void pf_resample_cuda(PF_RESAMPLE_ARGS);
#endif

namespace {

starpu_opencl_program programs[3];
const char* const kNames[3] = {"pf_likelihood", "pf_normalize", "pf_resample"};

constexpr auto doubles = direct::vector_view<double>;
constexpr auto ints = direct::vector_view<int>;
using direct::len;
using direct::mem;

template <typename T>
peppher::Scalar<T> scalar(void* buffer) {
  return peppher::Scalar<T>::view(reinterpret_cast<T*>(STARPU_VARIABLE_GET_PTR(buffer)));
}
cl_mem variable_mem(void* buffer) {
  return reinterpret_cast<cl_mem>(STARPU_VARIABLE_GET_DEV_HANDLE(buffer));
}

// Codelet functions: unpack the by-value arguments, view the buffers, call the variant.
template <auto variant>
void likelihood_host(void* b[], void* arg) {
  int frame, cols, frames, particles, block;
  starpu_codelet_unpack_args(arg, &frame, &cols, &frames, &particles, &block);
  const Ints video = ints(b[0]), disk = ints(b[1]);
  Doubles x = doubles(b[2]), y = doubles(b[3]), w = doubles(b[5]);
  Ints seed = ints(b[4]);
  variant(video, disk, frame, cols, frames, particles, block, x, y, seed, w);
}
template <auto variant>
void normalize_host(void* b[], void* arg) {
  int frame;
  starpu_codelet_unpack_args(arg, &frame);
  const Doubles x = doubles(b[0]), y = doubles(b[1]), w = doubles(b[2]);
  Doubles cdf = doubles(b[4]), track = doubles(b[6]);
  auto draw = scalar<int>(b[3]);
  auto u1 = scalar<double>(b[5]);
  variant(x, y, w, frame, draw, cdf, u1, track);
}
template <auto variant>
void resample_host(void* b[], void* arg) {
  int first, block;
  starpu_codelet_unpack_args(arg, &first, &block);
  const Doubles cdf = doubles(b[0]), x = doubles(b[1]), y = doubles(b[2]);
  const auto u1 = scalar<double>(b[3]);
  Doubles x_new = doubles(b[4]), y_new = doubles(b[5]);
  variant(cdf, x, y, u1, first, block, x_new, y_new);
}

// OpenCL functions: a vector as its buffer and length, a variable as its buffer, the
// by-value arguments in the interface's order, like the composed app.
void likelihood_cl(void* b[], void* arg) {
  int frame, cols, frames, particles, block;
  starpu_codelet_unpack_args(arg, &frame, &cols, &frames, &particles, &block);
  direct::launch(&programs[0], "pf_likelihood_opencl", len(b[2]), 0, mem(b[0]), len(b[0]),
                 mem(b[1]), len(b[1]), frame, cols, frames, particles, block, mem(b[2]), len(b[2]),
                 mem(b[3]), len(b[3]), mem(b[4]), len(b[4]), mem(b[5]), len(b[5]));
}
void normalize_cl(void* b[], void* arg) {
  int frame;
  starpu_codelet_unpack_args(arg, &frame);
  direct::launch(&programs[1], "pf_normalize_opencl", 1, 0, mem(b[0]), len(b[0]), mem(b[1]),
                 len(b[1]), mem(b[2]), len(b[2]), frame, variable_mem(b[3]), mem(b[4]), len(b[4]),
                 variable_mem(b[5]), mem(b[6]), len(b[6]));
}
void resample_cl(void* b[], void* arg) {
  int first, block;
  starpu_codelet_unpack_args(arg, &first, &block);
  direct::launch(&programs[2], "pf_resample_opencl", len(b[4]), 0, mem(b[0]), len(b[0]), mem(b[1]),
                 len(b[1]), mem(b[2]), len(b[2]), variable_mem(b[3]), first, block, mem(b[4]),
                 len(b[4]), mem(b[5]), len(b[5]));
}

starpu_codelet likelihood_codelet =
    DIRECT_CODELET(likelihood_host, pf_likelihood, likelihood_cl, STARPU_R, STARPU_R, STARPU_RW,
                   STARPU_RW, STARPU_RW, STARPU_W);
starpu_codelet normalize_codelet =
    DIRECT_CODELET(normalize_host, pf_normalize, normalize_cl, STARPU_R, STARPU_R, STARPU_R,
                   STARPU_RW, STARPU_W, STARPU_W, STARPU_RW);
starpu_codelet resample_codelet = DIRECT_CODELET(resample_host, pf_resample, resample_cl, STARPU_R,
                                                 STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W);

void check(int ret) {
  STARPU_CHECK_RETURN_VALUE(ret, "starpu_task_insert");
}

template <typename T>
starpu_data_handle_t register_vector(std::vector<T>& v) {
  starpu_data_handle_t h;
  starpu_vector_data_register(&h, STARPU_MAIN_RAM, uintptr_t(v.data()),
                              static_cast<std::uint32_t>(v.size()), sizeof(T));
  return h;
}
template <typename T>
starpu_data_handle_t variable(T& v) {
  starpu_data_handle_t h;
  starpu_variable_data_register(&h, STARPU_MAIN_RAM, uintptr_t(&v), sizeof(T));
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const int rows = app::arg(argc, argv, 1, 128, particlefilter::kUsage);
  const int cols = app::arg(argc, argv, 2, 128, particlefilter::kUsage);
  const int frames = app::arg(argc, argv, 3, 10, particlefilter::kUsage);
  const int n = app::arg(argc, argv, 4, 10000, particlefilter::kUsage);
  const int block = app::arg(argc, argv, 5, 2500, particlefilter::kUsage);
  std::vector<int> video = particlefilter::video(rows, cols, frames);
  const particlefilter::Result want = particlefilter::reference(video, rows, cols, frames, n);

  direct::start();
  const double t0 = app::now();
  for (int i = 0; i < 3; ++i) {
    const std::string path =
        std::string(KERNEL_DIR "/") + kNames[i] + "/" + kNames[i] + "_opencl.cl";
    direct::load_program(&programs[i], path.c_str());
  }
  std::vector<int> disk = particlefilter::disk(), seed = particlefilter::seeds(n);
  std::vector<double> xs[2] = {std::vector<double>(n, rows / 2), std::vector<double>(n)};
  std::vector<double> ys[2] = {std::vector<double>(n, cols / 2), std::vector<double>(n)};
  std::vector<double> weights(n), cdf(n), track(2 * static_cast<std::size_t>(frames));
  int draw = particlefilter::kDrawSeed;
  double u1 = 0.0;
  const starpu_data_handle_t h_video = register_vector(video), h_disk = register_vector(disk),
                             h_seed = register_vector(seed), h_weights = register_vector(weights),
                             h_cdf = register_vector(cdf), h_track = register_vector(track),
                             h_draw = variable(draw), h_u1 = variable(u1);
  const starpu_data_handle_t h_x[2] = {register_vector(xs[0]), register_vector(xs[1])};
  const starpu_data_handle_t h_y[2] = {register_vector(ys[0]), register_vector(ys[1])};
  // The blocks: planned once per particle vector, partitioned while block tasks use them.
  const auto nblocks = static_cast<unsigned>((n + block - 1) / block);
  starpu_data_filter f{};
  f.filter_func = starpu_vector_filter_block;
  f.nchildren = nblocks;
  std::vector<std::vector<starpu_data_handle_t>> parts;
  auto plan = [&](starpu_data_handle_t h) {
    parts.emplace_back(nblocks);
    starpu_data_partition_plan(h, &f, parts.back().data());
    return parts.size() - 1;
  };
  const std::size_t p_x[2] = {plan(h_x[0]), plan(h_x[1])}, p_y[2] = {plan(h_y[0]), plan(h_y[1])};
  const std::size_t p_seed = plan(h_seed), p_weights = plan(h_weights);
  auto split = [&](starpu_data_handle_t h, std::size_t p) {
    starpu_data_partition_submit(h, nblocks, parts[p].data());
  };
  auto gather = [&](starpu_data_handle_t h, std::size_t p) {
    starpu_data_unpartition_submit(h, nblocks, parts[p].data(), STARPU_MAIN_RAM);
  };
  split(h_seed, p_seed);
  for (int k = 1; k < frames; ++k) {  // particles in xs[(k + 1) % 2], resampled into xs[k % 2]
    const int from = (k + 1) % 2, to = k % 2;
    split(h_x[from], p_x[from]);
    split(h_y[from], p_y[from]);
    split(h_weights, p_weights);
    for (unsigned b = 0; b < nblocks; ++b)
      check(starpu_task_insert(&likelihood_codelet, STARPU_R, h_video, STARPU_R, h_disk, STARPU_RW,
                               parts[p_x[from]][b], STARPU_RW, parts[p_y[from]][b], STARPU_RW,
                               parts[p_seed][b], STARPU_W, parts[p_weights][b], STARPU_VALUE, &k,
                               sizeof(int), STARPU_VALUE, &cols, sizeof(int), STARPU_VALUE, &frames,
                               sizeof(int), STARPU_VALUE, &n, sizeof(int), STARPU_VALUE, &block,
                               sizeof(int), 0));
    gather(h_x[from], p_x[from]);
    gather(h_y[from], p_y[from]);
    gather(h_weights, p_weights);
    check(starpu_task_insert(&normalize_codelet, STARPU_R, h_x[from], STARPU_R, h_y[from], STARPU_R,
                             h_weights, STARPU_RW, h_draw, STARPU_W, h_cdf, STARPU_W, h_u1,
                             STARPU_RW, h_track, STARPU_VALUE, &k, sizeof(int), 0));
    split(h_x[to], p_x[to]);
    split(h_y[to], p_y[to]);
    for (unsigned b = 0; b < nblocks; ++b) {
      const int first = static_cast<int>(peppher::block_range(n, nblocks, b).offset);
      check(starpu_task_insert(&resample_codelet, STARPU_R, h_cdf, STARPU_R, h_x[from], STARPU_R,
                               h_y[from], STARPU_R, h_u1, STARPU_W, parts[p_x[to]][b], STARPU_W,
                               parts[p_y[to]][b], STARPU_VALUE, &first, sizeof(int), STARPU_VALUE,
                               &block, sizeof(int), 0));
    }
    gather(h_x[to], p_x[to]);
    gather(h_y[to], p_y[to]);
  }
  gather(h_seed, p_seed);
  const std::pair<starpu_data_handle_t, std::size_t> planned[] = {
      {h_x[0], p_x[0]}, {h_x[1], p_x[1]}, {h_y[0], p_y[0]},
      {h_y[1], p_y[1]}, {h_seed, p_seed}, {h_weights, p_weights}};
  for (const auto& [h, p] : planned) starpu_data_partition_clean(h, nblocks, parts[p].data());
  for (starpu_data_handle_t h : {h_video, h_disk, h_seed, h_weights, h_cdf, h_track, h_draw, h_u1,
                                 h_x[0], h_x[1], h_y[0], h_y[1]})
    starpu_data_unregister(h);  // waits, brings the data home
  const double seconds = app::now() - t0;
  const std::vector<double>& x = xs[(frames + 1) % 2];
  const std::vector<double>& y = ys[(frames + 1) % 2];
  const long wrong = particlefilter::count_wrong(track.data(), x.data(), y.data(), frames, n, want);
  const std::uint64_t sum =
      app::checksum(y.data(), y.size(),
                    app::checksum(x.data(), x.size(), app::checksum(track.data(), track.size())));
  for (int i = 0; i < 3; ++i) direct::unload_program(&programs[i]);
  starpu_shutdown();
  char what[160];
  particlefilter::describe(what, sizeof what, rows, cols, frames, n, track.data());
  return app::verdict("particlefilter", what, wrong, sum, seconds);
}
