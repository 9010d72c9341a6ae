// The paper's Figure 3 scenario (section IV.E) on the OpenCL device: W on the device, host
// read, RW on the device, two R on the device, host write. Smart containers need 2 copies.
#include <cstdint>
#include <vector>

#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;

TEST_CASE("Figure 3: only the two necessary transfers happen", "[opencl][figure3]") {
  Session session;
  REQUIRE(has_opencl());
  starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
  constexpr std::size_t kN = 4096;
  peppher::Vector<std::uint32_t> v0(kN);  // line 2: master copy in main memory
  bus_transfers();                        // reset the counters

  fill(v0.handle_for_task(), 7, 3, Where::OpenCl);  // line 4: W on the device, no copy
  const std::uint32_t first = v0[5];                // line 6: host read, 1 copy back
  CHECK(first == 7 + 3 * 5);
  affine(v0.handle_for_task(), 2, 1, Where::OpenCl);  // line 8: RW on the device, no copy
  touch(v0.handle_for_task(), Where::OpenCl);         // line 10: R on the device
  touch(v0.handle_for_task(), Where::OpenCl);         // line 12: R on the device
  v0[0] = 42;                                         // line 14: host write, 1 copy back

  CHECK(bus_transfers() == 2);
  CHECK(v0[0] == 42u);
  for (std::size_t i = 1; i < kN; ++i) {
    if (v0[i] != (7u + 3u * std::uint32_t(i)) * 2u + 1u) FAIL("wrong value at " << i);
  }
  starpu_profiling_status_set(STARPU_PROFILING_DISABLE);
}

TEST_CASE("Figure 3 baseline: registering per call copies much more", "[opencl][figure3]") {
  Session session;
  REQUIRE(has_opencl());
  starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
  std::vector<std::uint32_t> raw(4096);
  // What a wrapper without smart containers does: register, run, unregister (copy home).
  auto call = [&](auto&& submit_task) {
    starpu_data_handle_t h;
    starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(raw.data()),
                                static_cast<uint32_t>(raw.size()), sizeof(std::uint32_t));
    submit_task(h);
    starpu_data_unregister(h);
  };
  bus_transfers();
  call([](starpu_data_handle_t h) { fill(h, 7, 3, Where::OpenCl); });
  CHECK(raw[5] == 7u + 3u * 5u);
  call([](starpu_data_handle_t h) { affine(h, 2, 1, Where::OpenCl); });
  call([](starpu_data_handle_t h) { touch(h, Where::OpenCl); });
  call([](starpu_data_handle_t h) { touch(h, Where::OpenCl); });
  raw[0] = 42;
  const int transfers = bus_transfers();
  INFO("per-call registration made " << transfers << " transfers");
  CHECK(transfers >= 5);
  starpu_profiling_status_set(STARPU_PROFILING_DISABLE);
}
