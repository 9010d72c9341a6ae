// Halos on every device (issue 43): HotSpot steps over row blocks with a one-row halo, split
// between the CPU worker and the OpenCL device by the caller (heat_rows, fixed blocks) or by
// the runtime (heat_auto, `?`), and a 1-D stencil with a halo of 3 (blur_vec), each checked
// bit for bit against a sequential host reference; then StarPU's bus counters over steps
// whose blocks stay where they are: only the halo rows cross the bus.
// Argument: "mixed" (a CPU worker and an OpenCL device), "cpu" or "opencl" (one kind only).
#include <starpu.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "heat_cell.h"
#include "peppher.h"

namespace {

int wrong_checks = 0;

void report(const std::string& name, bool ok, const std::string& detail = "") {
  std::printf("halo: %s: %s%s\n", name.c_str(), ok ? "ok" : "WRONG", detail.c_str());
  wrong_checks += ok ? 0 : 1;
}

constexpr float kStepDivCap = 0.5f, kRx = 0.1f, kRy = 0.15f, kRz = 0.01f, kAmb = 80.0f;

// Temperatures and power of a rows x cols chip, reproducible.
std::vector<float> chip(std::size_t rows, std::size_t cols, float base) {
  std::vector<float> v(rows * cols);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = base + static_cast<float>((i * 7919) % 101) * 0.25f;
  return v;
}

// `steps` HotSpot steps on the host, the whole chip at once.
std::vector<float> reference(std::vector<float> t, const std::vector<float>& p, std::size_t rows,
                             std::size_t cols, int steps) {
  std::vector<float> out(t.size());
  for (int s = 0; s < steps; ++s) {
    for (std::size_t r = 0; r < rows; ++r) {
      const float* row = &t[r * cols];
      const float* up = r > 0 ? row - cols : row;
      const float* down = r + 1 < rows ? row + cols : row;
      for (std::size_t c = 0; c < cols; ++c)
        out[r * cols + c] =
            heat_cell(up, row, down, &p[r * cols], cols, c, kStepDivCap, kRx, kRy, kRz, kAmb);
    }
    std::swap(t, out);
  }
  return t;
}

// How many elements of @p m differ from @p want in their bits.
std::size_t differences(const peppher::Matrix<float>& m, const std::vector<float>& want) {
  std::size_t wrong = 0;
  const float* got = m.host_read();
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c)
      wrong += std::memcmp(&got[r * m.ld() + c], &want[r * m.cols() + c], sizeof(float)) != 0;
  return wrong;
}

// Fixed blocks of bs rows; the CPU variant takes the blocks above row split_at, the device
// the others.
void heat_rows_split(std::size_t rows, std::size_t cols, int bs, int split_at, int steps) {
  const std::vector<float> t0 = chip(rows, cols, 60.0f), p0 = chip(rows, cols, 0.5f);
  peppher::Matrix<float> power(rows, cols, p0), a(rows, cols, t0), b(rows, cols);
  for (int s = 0; s < steps; ++s) {
    heat_rows(power, s % 2 == 0 ? a : b, s % 2 == 0 ? b : a, bs, 0, split_at, kStepDivCap, kRx, kRy,
              kRz, kAmb);
  }
  const std::size_t wrong =
      differences(steps % 2 == 0 ? a : b, reference(t0, p0, rows, cols, steps));
  report("heat_rows " + std::to_string(rows) + " rows by " + std::to_string(bs) +
             ", device from row " + std::to_string(split_at),
         wrong == 0, " (" + std::to_string(wrong) + " cells differ from the host's)");
}

// `?` blocks, one per worker: those from row split_at on run on the device, the others on
// the CPU; every block where StarPU places it when split_at is negative.
void heat_auto_split(std::size_t rows, std::size_t cols, int split_at, int steps) {
  const std::vector<float> t0 = chip(rows, cols, 60.0f), p0 = chip(rows, cols, 0.5f);
  peppher::Matrix<float> power(rows, cols, p0), a(rows, cols, t0), b(rows, cols);
  for (int s = 0; s < steps; ++s)
    heat_auto(power, s % 2 == 0 ? a : b, s % 2 == 0 ? b : a, 0, split_at, kStepDivCap, kRx, kRy,
              kRz, kAmb);
  const std::size_t wrong =
      differences(steps % 2 == 0 ? a : b, reference(t0, p0, rows, cols, steps));
  report("heat_auto (?) " + std::to_string(rows) + " x " + std::to_string(cols) +
             ", device from row " + std::to_string(split_at),
         wrong == 0, " (" + std::to_string(wrong) + " cells differ from the host's)");
}

// Bytes over every bus since the last reading (reading resets StarPU's counters).
std::size_t bus_bytes() {
  std::size_t total = 0;
  for (int bus = 0; bus < starpu_bus_get_count(); ++bus) {
    starpu_profiling_bus_info info;
    if (starpu_bus_get_profiling_info(bus, &info) == 0)
      total += static_cast<std::size_t>(info.transferred_bytes);
  }
  return total;
}

// Two blocks, the top one on the CPU worker, the bottom one on the device: once each
// block is where its worker left it, a step moves one row each way (the halo), nothing else.
void heat_rows_bus(std::size_t cols, int steps) {
  const std::size_t rows = 64;
  const int bs = 32;
  const std::vector<float> t0 = chip(rows, cols, 60.0f), p0 = chip(rows, cols, 0.5f);
  peppher::Matrix<float> power(rows, cols, p0), a(rows, cols, t0), b(rows, cols);
  auto step = [&](int s) {
    heat_rows(power, s % 2 == 0 ? a : b, s % 2 == 0 ? b : a, bs, 0, bs, kStepDivCap, kRx, kRy, kRz,
              kAmb);
  };
  step(0);
  step(1);  // both matrices' blocks now on their workers
  starpu_task_wait_for_all();
  bus_bytes();
  for (int s = 2; s < 2 + steps; ++s) step(s);
  starpu_task_wait_for_all();
  const std::size_t moved = bus_bytes();
  const std::size_t halo_rows = 2 * cols * sizeof(float) * static_cast<std::size_t>(steps);
  report("heat_rows steps move only halo rows", moved == halo_rows,
         " (" + std::to_string(moved) + " bytes over " + std::to_string(steps) +
             " steps; two halo rows a step: " + std::to_string(halo_rows) + ")");
  const std::size_t wrong =
      differences((steps + 2) % 2 == 0 ? a : b, reference(t0, p0, rows, cols, steps + 2));
  report("heat_rows across the bus", wrong == 0);
}

// blur_vec twice (x -> y -> x), blocks of 300, halo 3, against the host.
void blur(std::size_t n) {
  std::vector<float> x0(n);
  for (std::size_t i = 0; i < n; ++i) x0[i] = static_cast<float>(i % 17);
  auto host = [n](const std::vector<float>& x) {
    std::vector<float> y(n);
    const auto m = static_cast<std::ptrdiff_t>(n);
    for (std::ptrdiff_t i = 0; i < m; ++i) {
      const float l = i - 3 >= 0 ? x[i - 3] : x[i], r = i + 3 < m ? x[i + 3] : x[i];
      y[i] = l + 2.0f * x[i] + r;
    }
    return y;
  };
  peppher::Vector<float> x(x0), y(n);
  blur_vec(x, y, 300, 3);
  blur_vec(y, x, 300, 3);
  const std::vector<float> want = host(host(x0));
  const float* got = x.host_read();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += got[i] != want[i];
  report("blur_vec halo 3 in blocks of 300", wrong == 0,
         " (" + std::to_string(wrong) + " elements differ)");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "mixed";
  PEPPHER_INITIALIZE();
  starpu_profiling_status_set(STARPU_PROFILING_ENABLE);  // the bus counters
  const int rows = 97;                                   // blocks of 25, 24, 24, 24 rows
  if (mode == "mixed") {
    for (int split_at : {0, 49, rows}) heat_rows_split(rows, 64, 25, split_at, 6);
    heat_rows_bus(256, 10);
    for (int split_at : {1, -1}) heat_auto_split(256, 256, split_at, 6);  // 2 blocks of 128
  } else {
    heat_rows_split(rows, 64, 25, mode == "cpu" ? rows : 0, 6);
    heat_auto_split(256, 256, mode == "cpu" ? 256 : 0, 6);
  }
  blur(1000);
  std::printf("halo: %d wrong\n", wrong_checks);
  PEPPHER_SHUTDOWN();
  return wrong_checks == 0 ? 0 : 1;
}
