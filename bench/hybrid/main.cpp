// bench/hybrid: the paper's Figure 5 on this machine's workers. The same SpMV, y = A * x on a
// generated CSR matrix, run two ways in one process, interleaved round by round: the device
// alone (spmv forced onto its OpenCL or CUDA variant: every call sends A and x to the device
// and y back, as a direct device program does) and hybrid (spmv_rows, its rows split '?'
// across the CPU workers and the device, sized by the history models once calibrated).
// StarPU's bus counters give the bytes each way moves to and from the device per call.
//   bench_hybrid [nrows] [nonzeros per row] [rounds] [calls per round] [warm-up rounds]
// Prints a line per round, CHECK lines (results right, both modes ran where they should), and
// last `RESULT hybrid_vs_device=<median of the rounds' hybrid/device time ratios> ...`.
#include <peppher/partitioned_call.h>  // peppher::auto_split_of

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "../../apps/spmv/spmv_common.h"
#include "peppher.h"

namespace {

int arg_int(int argc, char** argv, int i, int fallback) {
  const int v = argc > i ? std::atoi(argv[i]) : fallback;
  if (v < 1) {
    std::fprintf(stderr,
                 "usage: bench_hybrid [nrows] [nonzeros per row] [rounds] [calls] [warm-up]"
                 " (each at least 1)\n");
    std::exit(2);
  }
  return v;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void check(bool ok, const std::string& name, const std::string& detail) {
  std::printf("CHECK %s %s: %s\n", ok ? "PASS" : "FAIL", name.c_str(), detail.c_str());
}

// Tasks of @p variant in the execution report since the last reset.
long ran(const std::string& variant) {
  std::istringstream lines(peppher::report_string());
  long total = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string iface, var;
    words >> iface >> var;
    if (var == variant) total += std::atol(line.c_str() + line.find_last_of(' ') + 1);
  }
  return total;
}

// The device's memory nodes (OpenCL and CUDA workers') and StarPU's bus counters to and from
// them since the start.
struct Bytes {
  double to = 0, from = 0;
};
Bytes device_bytes() {
  std::vector<unsigned> nodes;
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    const starpu_worker_archtype t = starpu_worker_get_type(static_cast<int>(w));
    if (t == STARPU_OPENCL_WORKER || t == STARPU_CUDA_WORKER)
      nodes.push_back(starpu_worker_get_memory_node(w));
  }
  auto device = [&](int node) {
    return std::find(nodes.begin(), nodes.end(), static_cast<unsigned>(node)) != nodes.end();
  };
  Bytes b;
  for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
    starpu_profiling_bus_info info;
    if (starpu_bus_get_profiling_info(bus, &info) != 0) continue;
    const bool src = device(starpu_bus_get_src(bus)), dst = device(starpu_bus_get_dst(bus));
    if (!src && dst) b.to += static_cast<double>(info.transferred_bytes);
    if (src && !dst) b.from += static_cast<double>(info.transferred_bytes);
  }
  return b;
}

struct Mode {
  const char* name;
  std::vector<double> seconds;  // per round, per call
  double to = 0, from = 0;      // bytes over the timed rounds
  long calls = 0;
  int wrong = 0;
};

// @p calls products in mode @p hybrid; returns the seconds per call and adds the bytes moved.
double run(Mode& m, bool hybrid, const spmv_app::Csr& a, const std::vector<float>& x, int calls,
           bool timed) {
  std::vector<float> y(static_cast<std::size_t>(a.nrows));
  const int nnz = static_cast<int>(a.values.size());
  const Bytes before = device_bytes();
  const auto t0 = std::chrono::steady_clock::now();
  for (int c = 0; c < calls; ++c) {
    std::fill(y.begin(), y.end(), -1.0f);
    if (hybrid)
      spmv_rows(a.nrows, nnz, a.values.data(), a.row_offsets.data(), a.col_indices.data(), x.data(),
                a.ncols, y.data(), 0, a.nrows);
    else
      spmv(a.nrows, nnz, a.values.data(), a.row_offsets.data(), a.col_indices.data(), x.data(),
           a.ncols, y.data());
    m.wrong += spmv_app::count_wrong(a, x, y);  // (not timed: each call returns with y home)
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Bytes after = device_bytes();
  if (timed) {
    m.to += after.to - before.to;
    m.from += after.from - before.from;
    m.calls += calls;
  }
  return s / calls;
}

}  // namespace

int main(int argc, char** argv) {
  const int nrows = arg_int(argc, argv, 1, 200000);
  const int per_row = arg_int(argc, argv, 2, 16);
  const int rounds = arg_int(argc, argv, 3, 7);
  const int calls = arg_int(argc, argv, 4, 5);
  const int warmup = arg_int(argc, argv, 5, 3);
  const spmv_app::Csr a = spmv_app::random_csr(nrows, per_row, 0);
  const std::vector<float> x = spmv_app::input(a.ncols, 0);

  PEPPHER_INITIALIZE();
  starpu_profiling_status_set(STARPU_PROFILING_ENABLE);  // the bus counters
  const bool cuda = starpu_cuda_worker_get_count() > 0;
  const char* device_variant = cuda ? "spmv_cuda" : "spmv_opencl";
  const unsigned devices = starpu_cuda_worker_get_count() + starpu_opencl_worker_get_count();
  int status = 0;
  if (devices == 0 || starpu_cpu_worker_get_count() == 0) {
    std::printf(
        "bench_hybrid: needs CPU workers and a device (OpenCL or CUDA); has %u CPU "
        "workers, %u devices\n",
        starpu_cpu_worker_get_count(), devices);
    status = 2;
  } else {
    peppher::force_variant("spmv", device_variant);
    Mode device{"device", {}, 0, 0, 0, 0}, hybrid{"hybrid", {}, 0, 0, 0, 0};
    std::vector<double> ratios;
    // Warm-up rounds calibrate the history models (spmv_rows' split is equal until then) and
    // the device's kernels; then the timed rounds, the order alternating.
    for (int r = 0; r < warmup + rounds; ++r) {
      const bool timed = r >= warmup;
      if (r == warmup) peppher::reset_report();
      double td, th;
      if (r % 2 == 0) {
        td = run(device, false, a, x, calls, timed);
        th = run(hybrid, true, a, x, calls, timed);
      } else {
        th = run(hybrid, true, a, x, calls, timed);
        td = run(device, false, a, x, calls, timed);
      }
      std::printf("round %d%s: device %.3f ms/call, hybrid %.3f ms/call\n", r,
                  timed ? "" : " (warm-up)", td * 1e3, th * 1e3);
      if (!timed) continue;
      device.seconds.push_back(td);
      hybrid.seconds.push_back(th);
      ratios.push_back(th / td);
    }
    const peppher::Split split = peppher::auto_split_of("spmv_rows", static_cast<size_t>(nrows));
    std::string where;
    for (size_t b = 0; b < split.sizes.size(); ++b)
      where += std::to_string(split.sizes[b]) + " rows@" +
               (starpu_worker_get_type(split.workers[b]) == STARPU_CPU_WORKER ? "CPU" : "device") +
               " ";
    std::printf("hybrid split: %s\n",
                where.empty() ? "equal blocks (models not calibrated)" : where.c_str());
    const long on_device = ran(device_variant);
    const long rows_blocks = ran("spmv_rows_cpu") + ran("spmv_rows_opencl") + ran("spmv_rows_cuda");
    check(device.wrong == 0 && hybrid.wrong == 0, "hybrid_results",
          std::to_string(device.wrong) + " wrong rows alone, " + std::to_string(hybrid.wrong) +
              " hybrid");
    check(on_device == device.calls, "hybrid_device_alone",
          std::to_string(on_device) + " " + device_variant + " tasks for " +
              std::to_string(device.calls) + " calls");
    check(rows_blocks >= hybrid.calls, "hybrid_split",
          std::to_string(rows_blocks) + " spmv_rows blocks for " + std::to_string(hybrid.calls) +
              " calls");
    if (device.wrong != 0 || hybrid.wrong != 0 || on_device != device.calls) status = 1;
    const double md = median(device.seconds), mh = median(hybrid.seconds);
    const double bd = (device.to + device.from) / device.calls;
    const double bh = (hybrid.to + hybrid.from) / hybrid.calls;
    std::printf(
        "device alone (%s): %.3f ms/call, %.0f bytes to the device and %.0f back per "
        "call\n",
        device_variant, md * 1e3, device.to / device.calls, device.from / device.calls);
    std::printf(
        "hybrid (spmv_rows '?'): %.3f ms/call, %.0f bytes to the device and %.0f back per "
        "call\n",
        mh * 1e3, hybrid.to / hybrid.calls, hybrid.from / hybrid.calls);
    std::printf(
        "RESULT hybrid_vs_device=%.3f device_ms=%.3f hybrid_ms=%.3f device_bytes=%.0f "
        "hybrid_bytes=%.0f nrows=%d nnz=%zu\n",
        median(ratios), md * 1e3, mh * 1e3, bd, bh, nrows, a.values.size());
  }
  PEPPHER_SHUTDOWN();
  return status;
}
