// Moves paid for by reuse (docs/SELECTION.md, "Data that calls keep reading"): the rule on
// its own (credits, the ski-rental threshold, the end of a run of gaining calls), then on
// StarPU's dmda with the CPU worker and pocl's device: a chain of calls that each gain less
// on the device than moving their input there costs, which dmda alone keeps on the CPU.
#include <starpu.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <thread>

#include "peppher/placement.h"
#include "peppher/task.h"
#include "peppher_catch.h"
#include "select/reuse_moves.h"
#include "support.h"

using peppher::detail::choose_reuse_move;
using peppher::detail::ReuseCredit;
using peppher::detail::ReuseOperand;
using namespace peppher_test;

namespace {

constexpr double kNone = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("reuse moves: a move no call pays for alone is made once calls lost its cost",
          "[reuse]") {
  // bench/sim's n = 256 on the H200: 21.3 us on a CPU (node 0), 11.8 us on the GPU (node
  // 1), 10.02 us to bring x there: each call alone stays on the CPU (21.82 > 21.3).
  ReuseCredit credit;
  const double exec[2] = {21.3, 11.8};
  ReuseOperand x;
  x.credit = &credit;
  x.bring_us[1] = 10.02;
  CHECK(choose_reuse_move(exec, 2, &x, 1) == -1);  // 9.5 us lost: less than the move
  CHECK(credit.us[1] == Approx(9.5));
  CHECK_FALSE(x.move);
  CHECK(choose_reuse_move(exec, 2, &x, 1) == 1);  // 19 us lost: the move is paid for
  CHECK(x.move);
  CHECK(credit.us[1] == 0);  // spent
  // Once there (or on its way), nothing to move and nothing credited.
  x.move = false;
  x.bring_us[1] = 0;
  CHECK(choose_reuse_move(exec, 2, &x, 1) == -1);
  CHECK(credit.us[1] == 0);
}

TEST_CASE("reuse moves: what the calls write going back counts in the move's cost", "[reuse]") {
  ReuseCredit credit;
  const double exec[2] = {21.3, 11.8}, after[2] = {0, 10};  // y's trip home from the GPU
  ReuseOperand x;
  x.credit = &credit;
  x.bring_us[1] = 10.02;
  CHECK(choose_reuse_move(exec, 2, &x, 1, after) == -1);
  CHECK(choose_reuse_move(exec, 2, &x, 1, after) == -1);  // 19 us: less than 20.02
  CHECK(choose_reuse_move(exec, 2, &x, 1, after) == 1);   // 28.5 us
}

TEST_CASE("reuse moves: a move that pays for itself in one call is made at once", "[reuse]") {
  ReuseCredit credit;
  const double exec[2] = {68.6, 11.8};  // n = 1024: 56.8 us saved for a 10 us move
  ReuseOperand x;
  x.credit = &credit;
  x.bring_us[1] = 10.05;
  CHECK(choose_reuse_move(exec, 2, &x, 1) == 1);
  CHECK(x.move);
}

TEST_CASE("reuse moves: a call that would not gain ends the run of calls that would", "[reuse]") {
  ReuseCredit credit;
  ReuseOperand x;
  x.credit = &credit;
  x.bring_us[1] = 10;
  const double gains[2] = {21.3, 11.8}, loses[2] = {5, 11.8};
  CHECK(choose_reuse_move(gains, 2, &x, 1) == -1);
  CHECK(credit.us[1] == Approx(9.5));
  CHECK(choose_reuse_move(loses, 2, &x, 1) == -1);  // faster where the data is: run over
  CHECK(credit.us[1] == 0);
  CHECK(choose_reuse_move(gains, 2, &x, 1) == -1);  // counts again from 0
  CHECK(credit.us[1] == Approx(9.5));
}

TEST_CASE("reuse moves: a call's saving is shared by the operands it would move", "[reuse]") {
  ReuseCredit a_credit, b_credit;
  ReuseOperand ops[2];
  ops[0].credit = &a_credit;
  ops[1].credit = &b_credit;
  ops[0].bring_us[1] = 30;  // 40 us of moves in all
  ops[1].bring_us[1] = 10;
  const double exec[2] = {100, 80};  // 20 us saved a call
  CHECK(choose_reuse_move(exec, 2, ops, 2) == -1);
  CHECK(a_credit.us[1] == Approx(15));
  CHECK(b_credit.us[1] == Approx(5));
  CHECK(choose_reuse_move(exec, 2, ops, 2) == 1);  // 40 us lost: both move
  CHECK(ops[0].move);
  CHECK(ops[1].move);
}

TEST_CASE("reuse moves: of equal devices, the nearest; no worker, no credit", "[reuse]") {
  // Four GPUs (nodes 1-4) as fast as each other, node 3 closest; node 5 has no worker.
  ReuseCredit credit;
  ReuseOperand x;
  x.credit = &credit;
  const double exec[6] = {22, 10, 10, 10, 10, kNone};
  for (int m = 1; m <= 5; ++m) x.bring_us[m] = m == 3 ? 15 : 25;
  CHECK(choose_reuse_move(exec, 6, &x, 1) == -1);  // 12 us saved on each GPU
  CHECK(choose_reuse_move(exec, 6, &x, 1) == 3);   // 24 us: covers node 3's 15, not 25 yet
  CHECK(credit.us[5] == 0);
  CHECK(credit.us[1] == Approx(24));  // the others keep theirs until a call finds x on 3
}

namespace {

// A model of functions: g_cpu_us on the CPU worker, g_device_us on the OpenCL device.
std::atomic<double> g_cpu_us{0}, g_device_us{0};
double per_arch_us(starpu_task* /*task*/, starpu_perfmodel_arch* arch, unsigned /*nimpl*/) {
  return arch->devices[0].type == STARPU_CPU_WORKER ? g_cpu_us.load() : g_device_us.load();
}

std::atomic<int> g_cpu_runs{0}, g_device_runs{0};
starpu_cpu_func_t g_add_cpu = nullptr;
starpu_opencl_func_t g_add_ocl = nullptr;
void counted_cpu(void** buffers, void* arg) {
  ++g_cpu_runs;
  g_add_cpu(buffers, arg);
}
void counted_ocl(void** buffers, void* arg) {
  ++g_device_runs;
  g_add_ocl(buffers, arg);
}

// @p calls of y = x + c (x read, y written), each submitted through the runtime as an entry
// wrapper does, x written by the host before each when @p rewrite_x. Each call waits for its
// task and for its predicted time, so that dmda finds both workers idle: the model's times
// are not the kernels' (and a busy machine's are anything), and a task pushed while another
// runs, or before the predicted end of one that ran, would be placed by the queues'
// predicted ends, which is not what this test is about.
void run_chain(starpu_codelet& cl, peppher::Vector<std::uint32_t>& x,
               peppher::Vector<std::uint32_t>& y, int calls, bool rewrite_x) {
  g_cpu_runs = 0;
  g_device_runs = 0;
  for (int c = 0; c < calls; ++c) {
    if (rewrite_x) x[0] = static_cast<std::uint32_t>(c);
    peppher::TaskBuilder task(&cl, "reuse_add");
    task.args<KernelArgs>() = {3, 0, 0};
    task.use(0, x);
    task.use(1, y);
    task.submit(true);
    // dmda counts a worker busy until its task's predicted end, even when it ended earlier.
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long>(2 * g_cpu_us)));
  }
  y.host_read();
  for (std::size_t i = 1; i < y.size(); ++i)
    if (y[i] != static_cast<std::uint32_t>(i) + 3u) FAIL("y[" << i << "] = " << y[i]);
}

}  // namespace

TEST_CASE("reuse moves: dmda's chain moves to the faster device once its calls paid the move",
          "[reuse][opencl]") {
  starpu_perfmodel model = peppher::make_cost_model("peppher_reuse_test", per_arch_us);
  Session session;
  REQUIRE(has_opencl());
  starpu_codelet cl = add_codelet();
  g_add_cpu = cl.cpu_funcs[0];
  g_add_ocl = cl.opencl_funcs[0];
  cl.cpu_funcs[0] = counted_cpu;
  cl.opencl_funcs[0] = counted_ocl;
  cl.model = &model;
  constexpr std::size_t kN = 1024;  // 4 KiB: moves of tens of microseconds
  constexpr int kCalls = 10;
  peppher::Vector<std::uint32_t> x(kN), y(kN);
  for (std::size_t i = 0; i < kN; ++i) x[i] = static_cast<std::uint32_t>(i);
  const unsigned device =
      starpu_worker_get_memory_node(static_cast<unsigned>(worker_for(Where::OpenCl)));
  // Each call gains 0.6 of x's move on the device: dmda keeps each on the CPU. Going there
  // costs x's move and y's trip home (its next reader, as it was never read): the rule moves
  // x at the first call whose loss, with the earlier calls', covers both.
  const std::size_t bytes = kN * sizeof(std::uint32_t);
  const double move_us = peppher::detail::transfer_predict_us(STARPU_MAIN_RAM, device, bytes);
  const double back_us = peppher::detail::transfer_predict_us(device, STARPU_MAIN_RAM, bytes);
  REQUIRE(move_us > 0);
  g_cpu_us = 3 * move_us;
  g_device_us = 2.4 * move_us;
  const int on_cpu = static_cast<int>(std::ceil((move_us + back_us) / (0.6 * move_us))) - 1;
  INFO("moving x: " << move_us << " us predicted, y back: " << back_us);
  REQUIRE(on_cpu < kCalls - 1);

  SECTION("with the rule: the calls after those that paid for the move run on the device") {
    run_chain(cl, x, y, kCalls, false);
    CHECK(g_cpu_runs == on_cpu);
    CHECK(g_device_runs == kCalls - on_cpu);
  }
  SECTION("without it (PEPPHER_PLACEMENT=off): every call on the CPU") {
    peppher::set_placement(false);
    run_chain(cl, x, y, kCalls, false);
    peppher::set_placement(true);
    CHECK(g_cpu_runs == kCalls);
    CHECK(g_device_runs == 0);
  }
  SECTION("x written by the host before each call: no reuse, no move") {
    run_chain(cl, x, y, kCalls, true);
    CHECK(g_cpu_runs == kCalls);
    CHECK(g_device_runs == 0);
  }
}
