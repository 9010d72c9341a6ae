// Nested calls (peppher/nested_call.h): which variant a call made inside a task runs on the
// calling worker, what is refused there (device variants, containers that are not views),
// and that a task's own function is seen as inside a task while the application is not.
#include <cmath>
#include <string>

#include "peppher/nested_call.h"
#include "peppher/runtime.h"
#include "peppher_catch.h"
#include "support.h"

using peppher::InlineKind;
using peppher_test::Session;

namespace {

constexpr double kUnknown = NAN;

// choose_nested over @p kinds with every variant accepting (unless @p refuses names one) and
// the costs @p costs (kUnknown: none).
template <int N>
int choose(const InlineKind (&kinds)[N], int forced = -1, int refuses = -1,
           const double* costs = nullptr) {
  return peppher::choose_nested(
      "f", kinds, N, forced, [&](int k) { return k != refuses; },
      [&](int k) { return costs != nullptr ? costs[k] : kUnknown; });
}

std::string error_of(void (*f)()) {
  try {
    f();
  } catch (const peppher::Error& e) {
    return e.what();
  }
  return "";
}

bool g_seen_in_task = false;
int g_chosen_in_task = -2;

void nested_probe(void**, void*) {
  g_seen_in_task = peppher::detail::in_task();
  static constexpr InlineKind kKinds[] = {InlineKind::OpenCl, InlineKind::Cpu};
  g_chosen_in_task = choose(kKinds);
}

}  // namespace

TEST_CASE("a nested call runs a host variant: sequential CPU first, then OpenMP", "[nested]") {
  Session session;
  static constexpr InlineKind kCpuOpenMpCl[] = {InlineKind::Cpu, InlineKind::OpenMp,
                                                InlineKind::OpenCl};
  static constexpr InlineKind kOpenMpCpu[] = {InlineKind::OpenMp, InlineKind::Cpu};
  static constexpr InlineKind kClOpenMp[] = {InlineKind::OpenCl, InlineKind::OpenMp};
  static constexpr InlineKind kTwoCpu[] = {InlineKind::Cpu, InlineKind::Cpu};
  CHECK(choose(kCpuOpenMpCl) == 0);
  CHECK(choose(kOpenMpCpu) == 1);         // the sequential one, though listed second
  CHECK(choose(kOpenMpCpu, -1, 1) == 0);  // it refuses the call: the OpenMP one
  CHECK(choose(kClOpenMp) == 1);          // never the device variant
  CHECK(choose(kCpuOpenMpCl, 1) == 1);    // forced, and a host variant
  const double costs[] = {5.0, 2.0};
  CHECK(choose(kTwoCpu, -1, -1, costs) == 1);  // every cost known: the cheapest
  const double one_unknown[] = {5.0, kUnknown};
  CHECK(choose(kTwoCpu, -1, -1, one_unknown) == 0);  // else the first
}

TEST_CASE("a nested call nothing on the host can run is a clear error", "[nested]") {
  Session session;
  CHECK_THAT(error_of([] {
               static constexpr InlineKind kKinds[] = {InlineKind::Cpu, InlineKind::OpenCl};
               choose(kKinds, 1);
             }),
             Catch::Contains("f called inside a task") &&
                 Catch::Contains("the forced variant is not a host variant"));
  CHECK_THAT(error_of([] {
               static constexpr InlineKind kKinds[] = {InlineKind::OpenCl, InlineKind::Cpu};
               choose(kKinds, -1, 1);
             }),
             Catch::Contains("no CPU or OpenMP variant accepts the call"));
  CHECK_THAT(error_of([] {
               peppher::Vector<int> own(4, 1);
               peppher::detail::require_view("f", "v", own);
             }),
             Catch::Contains("container operand 'v' is not the task's own data"));
  int value = 3;
  CHECK_NOTHROW(peppher::detail::require_view("f", "v", peppher::Scalar<int>::view(&value)));
}

TEST_CASE("a task's function is inside a task, the application's thread is not", "[nested]") {
  Session session;
  CHECK_FALSE(peppher::detail::in_task());
  if (starpu_cpu_worker_get_count() == 0) return;
  starpu_codelet cl{};
  cl.where = STARPU_CPU;
  cl.cpu_funcs[0] = nested_probe;
  cl.nbuffers = 0;
  starpu_task* task = starpu_task_create();
  task->cl = &cl;
  task->synchronous = 1;
  REQUIRE(starpu_task_submit(task) == 0);
  CHECK(g_seen_in_task);
  CHECK(g_chosen_in_task == 1);  // on its CPU worker: the CPU variant
}
