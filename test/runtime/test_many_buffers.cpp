// Calls of more buffers than StarPU's STARPU_NMAXBUFS (issue 40): a codelet whose modes are
// in dyn_modes, as generated codelets' are, run through TaskBuilder (one task: StarPU's
// dyn_handles) and PartitionedCall (one task per block, with a halo), and the error for a
// buffer index the codelet does not have.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "peppher/detail/halo.h"
#include "peppher/error.h"
#include "peppher/partitioned_call.h"
#include "peppher/task.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::Vector;
using peppher_test::Session;

namespace {

constexpr int kInputs = 12;          // read vectors: buffers 0 .. 11
constexpr int kOut = kInputs;        // the written vector: buffer 12
constexpr int kHalo = kOut + 1;      // input 0's halo before a block (13); after it: 14
constexpr int kBuffers = kHalo + 2;  // 15, more than STARPU_NMAXBUFS here
static_assert(kBuffers > STARPU_NMAXBUFS, "the test needs more buffers than StarPU's arrays");

std::uint32_t* vec(void* buf) {
  return reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buf));
}

// out[i] = in_0[i] + ... + in_11[i] + in_0[i - 1] (through the halo: the element before,
// the first element standing for its missing neighbour).
void sum_many_cpu(void* buffers[], void*) {
  auto x = Vector<std::uint32_t>::view(vec(buffers[0]), STARPU_VECTOR_GET_NX(buffers[0]));
  x.set_halo(peppher::detail::vector_halo(buffers[0], buffers[kHalo], buffers[kHalo + 1]));
  const auto n = static_cast<std::ptrdiff_t>(STARPU_VECTOR_GET_NX(buffers[kOut]));
  const auto before = static_cast<std::ptrdiff_t>(x.halo_before());
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    std::uint32_t s = x.with_halo(i - 1 < -before ? i : i - 1);
    for (int k = 0; k < kInputs; ++k) s += vec(buffers[k])[i];
    vec(buffers[kOut])[i] = s;
  }
}

std::array<starpu_data_access_mode, kBuffers> g_modes = [] {
  std::array<starpu_data_access_mode, kBuffers> m{};
  m.fill(STARPU_R);
  m[kOut] = STARPU_W;
  return m;
}();

starpu_codelet sum_many_codelet() {
  starpu_codelet cl{};
  cl.name = "sum_many";
  cl.cpu_funcs[0] = sum_many_cpu;
  cl.nbuffers = kBuffers;
  cl.dyn_modes = g_modes.data();
  return cl;
}

// Input k: k + 1 + 100 i.
std::vector<Vector<std::uint32_t>> inputs(std::size_t n) {
  std::vector<Vector<std::uint32_t>> in;
  for (int k = 0; k < kInputs; ++k) {
    std::vector<std::uint32_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(k + 1 + 100 * i);
    in.emplace_back(v);
  }
  return in;
}

// What out[i] should be, input 0's element before i read from `first` (the block's start:
// its task has no halo there) or from the whole vector (a halo).
std::uint32_t expected(std::size_t i, bool neighbour) {
  std::uint32_t s = neighbour ? static_cast<std::uint32_t>(1 + 100 * (i - 1))
                              : static_cast<std::uint32_t>(1 + 100 * i);
  for (int k = 0; k < kInputs; ++k) s += static_cast<std::uint32_t>(k + 1 + 100 * i);
  return s;
}

}  // namespace

TEST_CASE("a task of more buffers than STARPU_NMAXBUFS", "[call][many_buffers]") {
  Session session;
  starpu_codelet cl = sum_many_codelet();
  const std::size_t n = 9;
  std::vector<Vector<std::uint32_t>> in = inputs(n);
  Vector<std::uint32_t> out(n);
  std::vector<std::uint32_t> raw = in[kInputs - 1].to_std();  // the last input, raw memory
  for (int round = 0; round < 3; ++round) {
    peppher::TaskBuilder task(&cl, "sum_many");
    for (int k = 0; k + 1 < kInputs; ++k) task.use(k, in[static_cast<std::size_t>(k)]);
    task.register_vector(kInputs - 1, raw.data(), n, sizeof(std::uint32_t));
    task.use(kOut, out);
    task.use(kHalo, in[0]);  // unpartitioned: input 0 itself stands for its halo
    task.use(kHalo + 1, in[0]);
    task.submit(true);
    std::vector<std::uint32_t> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = expected(i, i > 0);
    CHECK(out.to_std() == want);
  }
  SECTION("a buffer index beyond the codelet's is an error") {
    peppher::TaskBuilder task(&cl, "sum_many");
    CHECK_THROWS_WITH(task.use(kBuffers, out),
                      Catch::Contains("sum_many: buffer index 15 out of range (its codelet has "
                                      "15 buffers)"));
  }
}

TEST_CASE("a partitioned call of more buffers than STARPU_NMAXBUFS, with a halo",
          "[call][many_buffers]") {
  Session session;
  starpu_codelet cl = sum_many_codelet();
  const std::size_t n = 23;
  std::vector<Vector<std::uint32_t>> in = inputs(n);
  Vector<std::uint32_t> out(n);
  std::vector<std::uint32_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = expected(i, i > 0);
  for (long long block : {5LL, 23LL}) {  // 5 blocks, then one
    DYNAMIC_SECTION("blocks of " << block) {
      for (int round = 0; round < 2; ++round) {
        peppher::PartitionedCall call(&cl, "sum_many");
        call.split(0, "in0", in[0], block, 1, kHalo);
        for (int k = 1; k < kInputs; ++k)
          call.split(k, "in", in[static_cast<std::size_t>(k)], block);
        call.split(kOut, "out", out, block);
        call.submit();
        CHECK(out.to_std() == want);
      }
    }
  }
}
