// Destruction, copy and shutdown while tasks are still pending: every pending task's
// effect must be visible afterwards and no memory may be freed under a running task.
#include <cstdint>
#include <memory>
#include <vector>

#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;
using peppher::Vector;

namespace {
constexpr std::size_t kN = 1000;
constexpr unsigned kSlowMs = 150;

std::uint32_t expected(std::size_t i) {
  return std::uint32_t(i) * 3u + 1u;
}
}  // namespace

TEST_CASE("destroying a container with pending tasks loses no data", "[pending]") {
  Session session;
  Vector<std::uint32_t> out(kN);
  {
    std::vector<std::uint32_t> init(kN);
    for (std::size_t i = 0; i < kN; ++i) init[i] = std::uint32_t(i);
    auto src = std::make_unique<Vector<std::uint32_t>>(init);
    slow_affine(src->handle_for_task(), 3, 1, kSlowMs);  // still sleeping when we destroy src
    add(src->handle_for_task(), out.handle_for_task(), 5, Where::Any);
    src.reset();  // waits for both tasks, unregisters, frees
  }
  for (std::size_t i = 0; i < kN; ++i)
    if (out[i] != expected(i) + 5u) FAIL("out[" << i << "] = " << out[i]);
}

TEST_CASE("copying a container waits for its pending writers", "[pending]") {
  Session session;
  std::vector<std::uint32_t> init(kN);
  for (std::size_t i = 0; i < kN; ++i) init[i] = std::uint32_t(i);
  Vector<std::uint32_t> v(init);
  slow_affine(v.handle_for_task(), 3, 1, kSlowMs);
  const Vector<std::uint32_t> copy = v;
  for (std::size_t i = 0; i < kN; ++i)
    if (copy[i] != expected(i)) FAIL("copy[" << i << "] = " << copy[i]);
}

TEST_CASE("move assignment over a busy container waits for it", "[pending]") {
  Session session;
  Vector<std::uint32_t> a(kN, 1u);
  Vector<std::uint32_t> b(kN, 2u);
  Vector<std::uint32_t> sink(kN);
  slow_affine(a.handle_for_task(), 1, 1, kSlowMs);
  add(a.handle_for_task(), sink.handle_for_task(), 0, Where::Any);
  a = std::move(b);  // the old a must survive until its tasks finished
  CHECK(a[0] == 2u);
  for (std::size_t i = 0; i < kN; ++i)
    if (sink[i] != 2u) FAIL("sink[" << i << "] = " << sink[i]);
}

TEST_CASE("shutdown with pending tasks brings every container home", "[pending]") {
  std::vector<std::uint32_t> init(kN);
  for (std::size_t i = 0; i < kN; ++i) init[i] = std::uint32_t(i);
  Vector<std::uint32_t> v(init);
  Vector<std::uint32_t> w(kN);
  peppher::Matrix<std::uint32_t> m(10, 10, 1u);
  peppher::init();
  load_kernels();
  slow_affine(v.handle_for_task(), 3, 1, kSlowMs);
  add(v.handle_for_task(), w.handle_for_task(), 0, has_opencl() ? Where::OpenCl : Where::Any);
  affine(w.handle_for_task(), 1, 2, Where::Any);
  const auto blocks = m.partition_rows(3);
  for (auto h : blocks) mat_affine(h, 2, 0, has_opencl() ? Where::OpenCl : Where::Cpu);
  peppher::shutdown();

  CHECK_FALSE(v.registered());
  for (std::size_t i = 0; i < kN; ++i) {
    if (v[i] != expected(i)) FAIL("v[" << i << "] = " << v[i]);
    if (w[i] != expected(i) + 2u) FAIL("w[" << i << "] = " << w[i]);
  }
  CHECK(m.to_std() == std::vector<std::uint32_t>(100, 2u));
}
