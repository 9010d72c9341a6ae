// What runtime/README.md promises about threads: any number of host threads may read one
// container at the same time (const host access, copies, and component calls that only read
// it, whole or partitioned), as with std::vector. Run under TSan by `tools/test --tsan`.
#include <cstdint>
#include <numeric>
#include <thread>
#include <vector>

#include "peppher/partitioned_call.h"
#include "peppher/task.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::Vector;
using peppher_test::Session;

namespace {

std::uint32_t* vec(void* buf) {
  return reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buf));
}

// buffers: 0 R vector, 1 W vector: out[0] = sum of the input (wrapping).
void sum_cpu(void* b[], void*) {
  std::uint32_t acc = 0;
  for (std::uint32_t i = 0; i < STARPU_VECTOR_GET_NX(b[0]); ++i) acc += vec(b[0])[i];
  vec(b[1])[0] = acc;
}

starpu_codelet sum_codelet() {
  return peppher_test::make_codelet("sum", sum_cpu, nullptr, {STARPU_R, STARPU_W});
}

std::uint32_t host_sum(const Vector<std::uint32_t>& v) {
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < v.size(); ++i) acc += v[i];  // const operator[]: host reads
  return acc;
}

// One reader thread: whole and partitioned calls reading @p shared (split in blocks of
// @p block, which differs between the threads) and host reads, @p rounds times. Returns the
// number of wrong results (Catch's assertions are for the main thread).
int reader(const Vector<std::uint32_t>& shared, starpu_codelet* cl, long long block,
           std::uint32_t expected, int rounds) {
  int wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    std::uint32_t whole = 0;
    {
      peppher::TaskBuilder task(cl, "sum");
      task.use(0, shared);
      task.register_vector(1, &whole, 1, sizeof whole);
      task.submit(true);
    }
    wrong += whole != expected;
    wrong += host_sum(shared) != expected;
    std::vector<std::uint32_t> parts((shared.size() + block - 1) / block);
    {
      peppher::PartitionedCall call(cl, "sum");
      call.split(0, "shared", shared, block);
      call.split_raw(1, "parts", parts.data(), parts.size(), sizeof(std::uint32_t), 1);
      call.submit();
    }
    wrong += std::accumulate(parts.begin(), parts.end(), std::uint32_t{0}) != expected;
    const Vector<std::uint32_t> copy(shared);  // a copy is a host read of the original
    wrong += host_sum(copy) != expected;
    wrong += std::accumulate(shared.begin(), shared.end(), std::uint32_t{0}) != expected;
  }
  return wrong;
}

}  // namespace

TEST_CASE("two threads share read-only containers: calls, partitions and host reads", "[threads]") {
  Session session;
  starpu_codelet cl = sum_codelet();
  for (int round = 0; round < 8; ++round) {
    // A fresh container each round: both threads race to register it lazily.
    std::vector<std::uint32_t> values(1000);
    std::iota(values.begin(), values.end(), 0u);
    const Vector<std::uint32_t> shared(values);
    const std::uint32_t expected = std::accumulate(values.begin(), values.end(), 0u);
    int wrong_a = -1, wrong_b = -1;
    std::thread a([&] { wrong_a = reader(shared, &cl, 100, expected, 4); });
    std::thread b([&] { wrong_b = reader(shared, &cl, 300, expected, 4); });
    a.join();
    b.join();
    CHECK(wrong_a == 0);
    CHECK(wrong_b == 0);
    CHECK(shared.registered());
  }
}

TEST_CASE("threads calling on their own containers share nothing", "[threads]") {
  Session session;
  starpu_codelet cl = sum_codelet();
  int wrong[2] = {-1, -1};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      Vector<std::uint32_t> own(500, static_cast<std::uint32_t>(t + 1));
      wrong[t] = reader(own, &cl, 128, 500u * static_cast<std::uint32_t>(t + 1), 6);
      own[0] = 0;  // a host write of its own container
      wrong[t] += host_sum(own) != 499u * static_cast<std::uint32_t>(t + 1);
    });
  for (std::thread& t : threads) t.join();
  CHECK(wrong[0] == 0);
  CHECK(wrong[1] == 0);
}
