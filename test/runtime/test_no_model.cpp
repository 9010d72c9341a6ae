// The no-model rule (docs/SELECTION.md): with combined workers, a call with no performance
// model runs the variant that leaves its operands where they are, the OpenMP one (all CPU
// cores) for data at home; without combined workers StarPU chooses (-1).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "peppher/placement.h"
#include "peppher_catch.h"
#include "support.h"

using namespace peppher_test;

namespace {

// Started with peager (combined workers over the CPU workers), 2 CPU workers and pocl's
// device, whatever the ctest configuration says.
peppher::Config peager_two_cpus_and_device() {
  peppher::Config c = peppher::Config::with_scheduler("peager");
  c.ncpus = 2;
  c.nopencl = 1;
  return c;
}

}  // namespace

TEST_CASE("with no model, data at home runs the OpenMP variant, device data the device's",
          "[no_model][opencl]") {
  peppher::Runtime runtime(peager_two_cpus_and_device());
  load_kernels();
  if (!has_opencl() || starpu_combined_worker_get_count() == 0) return;
  peppher::VariantSelector selector("jacobi_like", {"seq", "omp", "ocl"},
                                    {"CPU", "OPENMP", "OPENCL"});
  auto all = [](int) { return true; };
  peppher::Vector<std::uint32_t> v(1 << 16, 1u);
  {
    peppher::PlacementChoice at_home;
    at_home.container(v, STARPU_RW);
    CHECK(at_home.choose_without_model(selector, all) == 1);  // omp, on all CPU cores
  }
  affine(v.handle_for_task(), 2, 1, Where::OpenCl);  // the only valid copy is on the device
  {
    // What a composed call notes after submitting (the test submits to StarPU directly).
    const auto lock = v.storage().lock();
    v.storage().note_task_locked(
        STARPU_RW, static_cast<int>(starpu_worker_get_memory_node(worker_for(Where::OpenCl))));
  }
  {
    peppher::PlacementChoice on_device;
    on_device.container(v, STARPU_RW);
    CHECK(on_device.choose_without_model(selector, all) == 2);  // stays there
    // A variant that does not accept the call is never chosen.
    CHECK(on_device.choose_without_model(selector, [](int k) { return k != 2; }) == 1);
  }
  CHECK(v[0] == 3u);  // home again
  peppher::PlacementChoice home_again;
  home_again.container(v, STARPU_R);
  CHECK(home_again.choose_without_model(selector, all) == 1);
}

TEST_CASE("with one CPU worker peager gives way to lws, and StarPU chooses", "[no_model]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  // peager would make no combined worker with one CPU worker: the runtime starts lws.
  peppher::Config c = peppher::Config::with_scheduler("peager");
  c.ncpus = 1;
  peppher::Runtime runtime(c);
  const starpu_sched_policy* policy = starpu_sched_ctx_get_sched_policy(0);
  REQUIRE(policy != nullptr);
  CHECK(std::string(policy->policy_name) == "lws");
  CHECK(starpu_combined_worker_get_count() == 0);
  peppher::VariantSelector selector("plain", {"seq", "omp"}, {"CPU", "OPENMP"});
  peppher::Vector<std::uint32_t> v(16, 1u);
  peppher::PlacementChoice choice;
  choice.container(v, STARPU_R);
  CHECK(choice.choose_without_model(selector, [](int) { return true; }) == -1);
}
