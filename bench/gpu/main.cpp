// bench/gpu: the GPU checks and measurements of tools/gpu-bundle, one program, one mode per
// run (the bundle's `run` script starts each; every mode prints CHECK and TIME/RESULT lines):
//   overhead [calls] [rounds]  gpu_tiny forced to its CUDA variant vs a hand-written StarPU
//                              CUDA codelet calling the same variant: cuda_overhead=
//   fig3 [n] [k]               Figure 3 of the paper: k calls of gpu_axpby on two Vectors on
//                              the GPU, then one host read: StarPU's bus counters must show x
//                              and y sent once to the GPU and y once back
//   streams [n]                gpu_axpby's CUDA variant (three kernels on
//                              peppher::cuda::stream()) against its CPU variant
//   cublas [n] [calls]         sgemm_cublas against sgemm_cpu (n = 256), then its time at n
//                              (default 4096) on Matrix containers already on the GPU
//   select                     the gpu_mapw size mix: history models calibrate, then dmda
//                              chooses; every variant forced and the per-size oracle, interleaved
//   split [n]                  gpu_map '?': CPU workers alone, the GPU alone, both, at a
//                              number of rounds where CPU and GPU are close and at one where
//                              the GPU is far ahead
// Workers: StarPU's defaults (every CPU core and the GPU) unless a mode sets them per session.
#include <peppher/partitioned_call.h>  // peppher::auto_split_of

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "map.h"
#include "peppher.h"

void gpu_tiny_cuda(peppher::Vector<float>& v, float a);
void gpu_tiny_cpu(peppher::Vector<float>& v, float a);

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int arg_int(int argc, char** argv, int i, int fallback) {
  return argc > i ? std::atoi(argv[i]) : fallback;
}

void check(bool ok, const std::string& name, const std::string& detail) {
  std::printf("CHECK %s %s: %s\n", ok ? "PASS" : "FAIL", name.c_str(), detail.c_str());
}

// Tasks of @p variant in the execution report (one line per variant and worker, the count
// last), since the last reset_report().
long ran(const std::string& variant) {
  std::istringstream lines(peppher::report_string());
  long total = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string iface, var;
    words >> iface >> var;
    if (var != variant) continue;
    const size_t last = line.find_last_of(' ');
    total += std::atol(line.c_str() + last + 1);
  }
  return total;
}

bool have_cuda() {
  return starpu_cuda_worker_get_count() > 0;
}

// GPU_BENCH_DRY=1 without a GPU: every mode runs with the CPU variant in the CUDA variant's
// place (and a CPU worker in the GPU's), to try the program's own logic on a machine without
// a GPU; the numbers and the transfer checks mean nothing then.
bool g_dry = false;

// The variant a mode measures on the GPU: <iface>_cuda, or <iface>_cpu in a dry run.
std::string gpu_variant(const std::string& iface) {
  return iface + (g_dry ? "_cpu" : "_cuda");
}

// ---- overhead ----------------------------------------------------------------------------

// What an expert writes by hand: unpack the value, wrap the buffer, call the CUDA variant.
void direct_cuda(void* buffers[], void* cl_arg) {
  float a;
  starpu_codelet_unpack_args(cl_arg, &a);
  auto v = peppher::Vector<float>::view(reinterpret_cast<float*>(STARPU_VECTOR_GET_PTR(buffers[0])),
                                        STARPU_VECTOR_GET_NX(buffers[0]));
#ifdef STARPU_USE_CUDA
  if (!g_dry) {
    gpu_tiny_cuda(v, a);
    return;
  }
#endif
  gpu_tiny_cpu(v, a);
}

int overhead(int calls, int rounds) {
  starpu_codelet cl;
  starpu_codelet_init(&cl);
  cl.name = "gpu_tiny_direct";
  if (g_dry) {
    cl.cpu_funcs[0] = direct_cuda;  // gpu_tiny_cuda is not called: see direct_cuda
  } else {
    cl.cuda_funcs[0] = direct_cuda;
  }
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  peppher::force_variant("gpu_tiny", gpu_variant("gpu_tiny"));
  peppher::Vector<float> v(16, 0.0f);
  float expected = 0;
  for (int i = 0; i < 100; ++i) gpu_tiny(v, 1.0f);  // warm-up: registration, kernel load
  expected += 100;
  starpu_task_wait_for_all();
  std::vector<double> ratios;
  double best_generated = 1e30, best_direct = 1e30;
  starpu_data_handle_t h = v.handle_for_task();
  float one = 1.0f;
  for (int r = 0; r < rounds; ++r) {
    double tg = 0, td = 0;
    for (int side = 0; side < 2; ++side) {
      const bool generated = (side == 0) == (r % 2 == 0);  // alternate which goes first
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) {
        if (generated) {
          gpu_tiny(v, 1.0f);
        } else {
          starpu_task_insert(&cl, STARPU_RW, h, STARPU_VALUE, &one, sizeof(one), 0);
        }
      }
      starpu_task_wait_for_all();
      (generated ? tg : td) = seconds_since(t0);
    }
    expected += 2.0f * static_cast<float>(calls);
    best_generated = std::min(best_generated, tg);
    best_direct = std::min(best_direct, td);
    ratios.push_back(tg / td);
  }
  const long on_gpu = ran(gpu_variant("gpu_tiny"));
  const bool correct = v[0] == expected;
  const double ratio = median(ratios);
  std::printf(
      "generated CUDA call: %.2f us/task, hand-written CUDA codelet: %.2f us/task (best "
      "of %d rounds of %d), median pair ratio %.3f\n",
      best_generated / calls * 1e6, best_direct / calls * 1e6, rounds, calls, ratio);
  check(correct && on_gpu == 100 + static_cast<long>(rounds) * calls, "cuda_overhead_result",
        "v[0]=" + std::to_string(v[0]) + " expected " + std::to_string(expected) + ", " +
            std::to_string(on_gpu) + " generated tasks ran gpu_tiny_cuda");
  std::printf("RESULT cuda_overhead=%.3f generated_us=%.2f direct_us=%.2f\n", ratio,
              best_generated / calls * 1e6, best_direct / calls * 1e6);
  return correct ? 0 : 1;
}

// ---- fig3 --------------------------------------------------------------------------------

struct Bytes {
  long long to_gpu = 0, from_gpu = 0;
  long to_count = 0, from_count = 0;
};

// StarPU's bus counters between main memory and the CUDA workers' memory nodes.
Bytes bus_bytes() {
  std::vector<unsigned> cuda_nodes;
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) == STARPU_CUDA_WORKER) {
      cuda_nodes.push_back(starpu_worker_get_memory_node(w));
    }
  }
  auto is_cuda = [&](int node) {
    return std::find(cuda_nodes.begin(), cuda_nodes.end(), static_cast<unsigned>(node)) !=
           cuda_nodes.end();
  };
  Bytes b;
  for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
    starpu_profiling_bus_info info;
    if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;
    const bool src = is_cuda(starpu_bus_get_src(bus));
    const bool dst = is_cuda(starpu_bus_get_dst(bus));
    if (!src && dst) {
      b.to_gpu += info.transferred_bytes;
      b.to_count += info.transfer_count;
    } else if (src && !dst) {
      b.from_gpu += info.transferred_bytes;
      b.from_count += info.transfer_count;
    }
  }
  return b;
}

int fig3(int n, int k) {
  starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
  peppher::force_variant("gpu_axpby", gpu_variant("gpu_axpby"));
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i % 1000) * 0.001f;
    hy[i] = static_cast<float>(i % 7);
  }
  peppher::Vector<float> x(hx), y(hy);
  const Bytes before = bus_bytes();
  for (int c = 0; c < k; ++c) gpu_axpby(x, y, 0.5f, 0.75f);
  const float* out = y.host_read();
  const Bytes after = bus_bytes();
  long wrong = 0;
  for (int i = 0; i < n; ++i) {
    float r = hy[i];
    for (int c = 0; c < k; ++c) r = 0.5f * hx[i] + 0.75f * r;
    if (std::fabs(out[i] - r) > 1e-5f * (1.0f + std::fabs(r))) ++wrong;
  }
  const long long bytes = static_cast<long long>(n) * sizeof(float);
  const long long in = after.to_gpu - before.to_gpu, back = after.from_gpu - before.from_gpu;
  std::printf(
      "fig3: %d calls on 2 Vectors of %d floats (%lld bytes each): %lld bytes in %ld "
      "transfers to the GPU, %lld bytes in %ld back; %ld tasks on the GPU\n",
      k, n, bytes, in, after.to_count - before.to_count, back, after.from_count - before.from_count,
      ran(gpu_variant("gpu_axpby")));
  check(wrong == 0, "fig3_result", std::to_string(wrong) + " wrong elements after the chain");
  check(in == 2 * bytes && back == bytes && ran(gpu_variant("gpu_axpby")) == k, "fig3_transfers",
        "to GPU " + std::to_string(in) +
            " bytes (expected x and y once: " + std::to_string(2 * bytes) + "), back " +
            std::to_string(back) + " (expected y once: " + std::to_string(bytes) + ")");
  std::printf("RESULT fig3_bytes_to_gpu_per_operand=%.3f fig3_bytes_back_per_written=%.3f\n",
              static_cast<double>(in) / (2.0 * bytes), static_cast<double>(back) / bytes);
  return wrong == 0 && in == 2 * bytes && back == bytes ? 0 : 1;
}

// ---- streams -----------------------------------------------------------------------------

int streams(int n) {
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = std::sin(static_cast<float>(i));
    hy[i] = std::cos(static_cast<float>(i));
  }
  std::vector<float> results[2];
  const std::string variants[2] = {"gpu_axpby_cpu", gpu_variant("gpu_axpby")};
  for (int v = 0; v < 2; ++v) {
    peppher::force_variant("gpu_axpby", variants[v]);
    peppher::Vector<float> x(hx), y(hy);
    for (int c = 0; c < 3; ++c) gpu_axpby(x, y, 1.5f, -0.5f);
    const float* out = y.host_read();
    results[v].assign(out, out + n);
  }
  peppher::force_variant("gpu_axpby", "");
  long wrong = 0;
  for (int i = 0; i < n; ++i) {
    if (std::fabs(results[0][i] - results[1][i]) > 1e-6f * (1.0f + std::fabs(results[0][i]))) {
      ++wrong;
    }
  }
  const long gpu = ran(gpu_variant("gpu_axpby"));
  check(wrong == 0 && gpu == 3, "cuda_stream_kernels",
        "gpu_axpby_cuda (3 kernels per call on peppher::cuda::stream()) vs gpu_axpby_cpu on " +
            std::to_string(n) + " floats, 3 calls: " + std::to_string(wrong) +
            " elements differ; " + std::to_string(gpu) + " tasks on the GPU");
  return wrong == 0 && gpu == 3 ? 0 : 1;
}

// ---- cublas ------------------------------------------------------------------------------

int cublas(int n, int calls) {
  // Correctness at a small size, against the sequential CPU variant.
  const int m = 256;
  std::vector<float> ha(m * m), hb(m * m);
  for (int i = 0; i < m * m; ++i) {
    ha[i] = static_cast<float>((i * 7) % 11) - 5.0f;
    hb[i] = static_cast<float>((i * 3) % 13) * 0.25f;
  }
  std::vector<float> c_cpu, c_gpu;
  const std::string fast = g_dry ? "sgemm_cpu" : "sgemm_cublas";
  for (const std::string& variant : {std::string("sgemm_cpu"), fast}) {
    peppher::force_variant("sgemm", variant);
    peppher::Matrix<float> A(m, m, ha), B(m, m, hb), C(m, m);
    sgemm(A, B, C);
    const float* out = C.host_read();
    (c_cpu.empty() ? c_cpu : c_gpu).assign(out, out + m * m);
  }
  double err = 0, norm = 0;
  for (int i = 0; i < m * m; ++i) {
    err += (c_cpu[i] - c_gpu[i]) * static_cast<double>(c_cpu[i] - c_gpu[i]);
    norm += static_cast<double>(c_cpu[i]) * c_cpu[i];
  }
  const double rel = std::sqrt(err / norm);
  const bool right = rel < 1e-5 && ran(fast) >= 1;
  check(right, "sgemm_cublas",
        "C = A * B at n=256 vs sgemm_cpu: relative error " + std::to_string(rel) + ", " +
            std::to_string(ran(fast)) + " task(s) of " + fast);
  // Time at n on containers already on the GPU (C write-only: nothing moves per call).
  peppher::force_variant("sgemm", fast);
  peppher::Matrix<float> A(n, n, 1.0f), B(n, n, 0.5f), C(n, n);
  sgemm(A, B, C);  // warm-up: A and B go to the GPU once
  starpu_task_wait_for_all();
  std::vector<double> per_call;
  for (int r = 0; r < 5; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int c = 0; c < calls; ++c) sgemm(A, B, C);
    starpu_task_wait_for_all();
    per_call.push_back(seconds_since(t0) / calls);
  }
  const double t = median(per_call);
  const bool value_ok = C.host_read()[0] == 0.5f * static_cast<float>(n);
  check(value_ok, "sgemm_cublas_large", "C[0] after the timed calls at n=" + std::to_string(n));
  std::printf("TIME sgemm_cublas n=%d %.6f s/call (%.1f GFLOP/s)\n", n, t,
              2.0 * n * static_cast<double>(n) * n / t * 1e-9);
  return right && value_ok ? 0 : 1;
}

// ---- select ------------------------------------------------------------------------------

struct Part {
  int n;
  int calls;
};

// Small calls (the CPU's: a task on the GPU costs more than the whole map on a core) and
// large ones (the GPU's), weighted so that neither device alone is good.
const Part kMix[] = {{64, 600},   {256, 400},  {1024, 200},  {4096, 100},
                     {16384, 40}, {65536, 20}, {262144, 10}, {1048576, 6}};
constexpr int kIters = 40;

double run_part(const Part& p) {
  peppher::Vector<float> x(p.n, 0.5f), y(p.n);
  auto t0 = std::chrono::steady_clock::now();
  for (int c = 0; c < p.calls; ++c) gpu_mapw(x, y, kIters);
  y.host_read();
  return seconds_since(t0);
}

int selection() {
  // Calibration: dmda runs each variant where its model lacks samples for the size.
  for (int r = 0; r < 2; ++r) {
    for (const Part& p : kMix) run_part({p.n, 12});
  }
  for (const Part& p : kMix) run_part({p.n, 2});  // warm-up
  const std::vector<std::string> variants = {"gpu_mapw_cpu", gpu_variant("gpu_mapw")};
  constexpr int kReps = 3;
  std::vector<double> forced(variants.size(), 0.0);
  double chosen = 0, oracle = 0;
  long small_cpu = 0, small_all = 0, large_gpu = 0, large_all = 0;
  for (const Part& p : kMix) {
    std::vector<double> best_forced(variants.size(), 1e30);
    double best_chosen = 1e30;
    for (int r = 0; r < kReps; ++r) {
      for (size_t v = 0; v < variants.size(); ++v) {
        peppher::force_variant("gpu_mapw", variants[v]);
        best_forced[v] = std::min(best_forced[v], run_part(p));
      }
      peppher::force_variant("gpu_mapw", "");
      peppher::reset_report();
      best_chosen = std::min(best_chosen, run_part(p));
      const long cpu = ran("gpu_mapw_cpu"), gpu = g_dry ? 0 : ran("gpu_mapw_cuda");
      if (p.n == kMix[0].n) {
        small_cpu += cpu;
        small_all += cpu + gpu;
      }
      if (p.n == kMix[std::size(kMix) - 1].n) {
        large_gpu += gpu;
        large_all += cpu + gpu;
      }
    }
    std::printf("PART n=%d calls=%d", p.n, p.calls);
    for (size_t v = 0; v < variants.size(); ++v) {
      std::printf(" %s=%.4f", variants[v].c_str(), best_forced[v]);
      forced[v] += best_forced[v];
    }
    std::printf(" dynamic=%.4f\n", best_chosen);
    oracle += *std::min_element(best_forced.begin(), best_forced.end());
    chosen += best_chosen;
  }
  const double best_single = *std::min_element(forced.begin(), forced.end());
  std::printf("TIME forced gpu_mapw_cpu=%.4f forced gpu_mapw_cuda=%.4f oracle=%.4f dynamic=%.4f\n",
              forced[0], forced[1], oracle, chosen);
  // The models decide: the smallest calls stay on the CPU, the largest go to the GPU.
  check(small_cpu * 10 >= small_all * 9 && large_gpu * 10 >= large_all * 9, "history_models_choose",
        "after calibration dmda ran " + std::to_string(small_cpu) + " of " +
            std::to_string(small_all) + " calls at n=" + std::to_string(kMix[0].n) +
            " on the CPU and " + std::to_string(large_gpu) + " of " + std::to_string(large_all) +
            " at n=" + std::to_string(kMix[std::size(kMix) - 1].n) + " on the GPU");
  std::printf("RESULT gpu_dynamic_vs_oracle=%.3f gpu_best_single_vs_dynamic=%.3f\n",
              chosen / oracle, best_single / chosen);
  return 0;
}

// ---- split -------------------------------------------------------------------------------

// Seconds per call of gpu_map on n floats with the given workers: x changes on the host
// before every call and y is read back after it, so the GPU pays its transfers each time.
// Calibrates first (equal blocks until the history model predicts every worker).
struct SplitRun {
  double seconds = 0;
  std::string split;
  std::string blocks_seen;  // the timed calls' block counts ("5 x 1 block, 2 x 16 blocks")
  bool correct = false;
};

SplitRun split_session(size_t n, int iters, int ncpus, int ncuda, int calls) {
  peppher::Config config = peppher::Config::with_scheduler("dmda");
  if (g_dry && ncuda > 0) {  // a CPU worker in the GPU's place
    ncpus = ncpus == 0 ? 1 : ncpus;
    ncuda = 0;
  }
  if (ncpus >= 0) config.ncpus = ncpus;
  config.ncuda = ncuda;
  config.nopencl = 0;
  peppher::init(config);
  SplitRun out;
  {
    peppher::Vector<float> x(n, 1.0f), y(n);
    auto call = [&](int c) {
      x[c % n] = static_cast<float>(c % 97);  // a host write: the GPU's copy is stale
      gpu_map(x, y, iters);
      y.host_read();
    };
    for (int c = 0; c < 40 && peppher::auto_split_of("gpu_map", n).sizes.empty(); ++c) call(c);
    call(0);
    std::vector<double> t;
    std::map<std::size_t, int> blocks_seen;  // blocks per timed call: the split may change
    for (int c = 0; c < calls; ++c) {
      auto t0 = std::chrono::steady_clock::now();
      call(c + 1);
      t.push_back(seconds_since(t0));
      ++blocks_seen[std::max<std::size_t>(1, peppher::auto_split_of("gpu_map", n).sizes.size())];
    }
    out.seconds = median(t);
    for (const auto& [blocks, count] : blocks_seen)
      out.blocks_seen += (out.blocks_seen.empty() ? "" : ", ") + std::to_string(count) + " x " +
                         std::to_string(blocks) + (blocks == 1 ? " block" : " blocks");
    const peppher::Split s = peppher::auto_split_of("gpu_map", n);
    size_t on_cpu = 0, on_gpu = 0;
    for (size_t b = 0; b < s.sizes.size(); ++b) {
      (starpu_worker_get_type(s.workers[b]) == STARPU_CUDA_WORKER ? on_gpu : on_cpu) += s.sizes[b];
    }
    out.split = s.sizes.empty() ? "equal blocks (model not calibrated)"
                                : std::to_string(on_cpu) + " on CPUs, " + std::to_string(on_gpu) +
                                      " on the GPU";
    const float* in = x.host_read();
    const float* res = y.host_read();
    out.correct = true;
    for (size_t i = 0; i < n; i += 997) {
      const float v = gpu_bench_map(in[i], iters);
      out.correct = out.correct && std::fabs(res[i] - v) <= 1e-4f * (1.0f + std::fabs(v));
    }
  }
  peppher::shutdown();
  return out;
}

int split(size_t n) {
  const int ncpu_all = -1;  // StarPU's default: every core but the GPU's driver core
  auto run = [&](size_t size, int iters, int ncpus, int ncuda) {
    SplitRun r = split_session(size, iters, ncpus, ncuda, 7);
    std::printf("  n=%zu iters=%d %s: %.4f s/call (%s; timed calls: %s)%s\n", size, iters,
                ncuda == 0   ? "CPU workers"
                : ncpus == 0 ? "GPU alone"
                             : "CPUs + GPU",
                r.seconds, r.split.c_str(), r.blocks_seen.c_str(), r.correct ? "" : " WRONG");
    return r;
  };
  // Probe: CPU time grows with the rounds per element, the GPU's is mostly the transfers.
  const int probe_iters = 64;
  const size_t probe_n = n - 1024;  // other sizes: the history models' entries stay apart
  SplitRun pc = run(probe_n, probe_iters, ncpu_all, 0);
  SplitRun pg = run(probe_n, probe_iters, 0, 1);
  int balanced = static_cast<int>(probe_iters * pg.seconds / pc.seconds);
  balanced = std::clamp(balanced, 1, 100000);
  // Far apart: the CPUs about 64 times slower than at the balance (at most about 0.3 s a
  // call on the CPUs, whose time at the balance is about the GPU's, pg.seconds).
  const double factor = std::clamp(0.3 / pg.seconds, 8.0, 64.0);
  const int lopsided = std::clamp(static_cast<int>(balanced * factor), 1, 1000000);
  bool ok = pc.correct && pg.correct;
  double near_speedup = 0, far_ratio = 0, near_cg = 0;
  for (int phase = 0; phase < 2; ++phase) {
    const int iters = phase == 0 ? balanced : lopsided;
    const size_t size = phase == 0 ? n : n + 1024;
    SplitRun c = run(size, iters, ncpu_all, 0);
    SplitRun g = run(size, iters, 0, 1);
    SplitRun b = run(size, iters, ncpu_all, 1);
    ok = ok && c.correct && g.correct && b.correct;
    const double best = std::min(c.seconds, g.seconds);
    if (phase == 0) {
      near_speedup = best / b.seconds;
      near_cg = std::max(c.seconds, g.seconds) / best;
    } else {
      far_ratio = b.seconds / best;
    }
  }
  check(ok, "split_results", "every split run's y matches the map computed on the host");
  std::printf(
      "RESULT gpu_split_vs_best_device=%.3f gpu_split_speedup_close=%.3f "
      "close_cpu_gpu_factor=%.2f iters_close=%d iters_far=%d\n",
      far_ratio, near_speedup, near_cg, balanced, lopsided);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  g_dry = std::getenv("GPU_BENCH_DRY") != nullptr;
  PEPPHER_INITIALIZE();
  if (mode == "split") {  // sessions of its own, with their own worker sets
    const bool gpu = have_cuda();
    PEPPHER_SHUTDOWN();
    if (!gpu && !g_dry) {
      std::printf("bench/gpu split: no CUDA worker: skipped\n");
      return 0;
    }
    return split(argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1u << 24);
  }
  int status = 0;
  if (have_cuda()) g_dry = false;
  if (!have_cuda() && !g_dry) {
    std::printf("bench/gpu %s: no CUDA worker: skipped\n", mode.c_str());
  } else if (mode == "overhead") {
    status = overhead(arg_int(argc, argv, 2, 20000), arg_int(argc, argv, 3, 5));
  } else if (mode == "fig3") {
    status = fig3(arg_int(argc, argv, 2, 1 << 22), arg_int(argc, argv, 3, 10));
  } else if (mode == "streams") {
    status = streams(arg_int(argc, argv, 2, 1 << 22));
  } else if (mode == "cublas") {
    status = cublas(arg_int(argc, argv, 2, 4096), arg_int(argc, argv, 3, 10));
  } else if (mode == "select") {
    status = selection();
  } else {
    std::fprintf(stderr, "usage: bench_gpu overhead|fig3|streams|cublas|select|split [args]\n");
    status = 2;
  }
  PEPPHER_SHUTDOWN();
  return status;
}
