// Regression models (docs/SELECTION.md, "Regression models"): RegressionChoice measures each
// variant the model cannot predict, then chooses from the fitted laws beyond the sizes
// StarPU's regression covers, and leaves the choice to StarPU within them. Measurements are
// seeded (starpu_perfmodel_update_history) with exact power laws: nothing is timed.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "peppher/placement.h"
#include "peppher_catch.h"
#include "select/regression_choice.h"
#include "support.h"
#include "unsubmitted_task.h"

using namespace peppher_test;

namespace {

void add_one(void* buffers[], void*) {
  auto* v = reinterpret_cast<std::uint32_t*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  const unsigned n = STARPU_VECTOR_GET_NX(buffers[0]);
  for (unsigned i = 0; i < n; ++i) v[i] += 1;
}

// Two sequential CPU variants, slots 0 and 1, with @p model.
starpu_codelet two_variants(starpu_perfmodel* model) {
  starpu_codelet cl;
  std::memset(&cl, 0, sizeof cl);
  starpu_codelet_init(&cl);
  cl.name = "regression_test";
  cl.cpu_funcs[0] = add_one;
  cl.cpu_funcs[1] = add_one;
  cl.nbuffers = 1;
  cl.modes[0] = STARPU_RW;
  cl.model = model;
  return cl;
}

const signed char kSlots[] = {0, 1};

int choose(starpu_codelet& cl, const peppher::VariantSelector& selector,
           peppher::Vector<std::uint32_t>& v) {
  return choice_for<peppher::RegressionChoice>(cl, selector, kSlots, v);
}

starpu_perfmodel_arch* cpu_arch() {
  return starpu_worker_get_perf_archtype(starpu_worker_get_by_type(STARPU_CPU_WORKER, 0),
                                         STARPU_NMAX_SCHED_CTXS);
}

// Variant @p slot's law, microseconds for n bytes.
double law(int slot, double bytes) {
  return slot == 0 ? 0.01 * bytes : 1e-6 * bytes * bytes;
}

// One measurement of variant @p slot on a vector of @p elements, its law's time.
void measure(starpu_codelet& cl, std::size_t elements, int slot) {
  peppher::Vector<std::uint32_t> v(elements, 0u);
  UnsubmittedTask t(cl, v);
  starpu_perfmodel_update_history(cl.model, t.task, cpu_arch(), 0, static_cast<unsigned>(slot),
                                  law(slot, 4.0 * static_cast<double>(elements)));
}

double predicted(starpu_codelet& cl, std::size_t elements, int slot) {
  peppher::Vector<std::uint32_t> v(elements, 0u);
  UnsubmittedTask t(cl, v);
  return peppher::detail::regression_us(cl.model, t.task, cpu_arch(), static_cast<unsigned>(slot));
}

}  // namespace

TEST_CASE(
    "a regression model: each variant measured first, then the fitted laws choose "
    "beyond the measured sizes and StarPU within them",
    "[regression]") {
  if (const char* s = std::getenv("STARPU_SCHED"); s != nullptr && *s != '\0') return;
  // Outlives the runtime, which saves the model at shutdown.
  HistoryModel hm("peppher_regression_test_", "two");
  hm.model.type = STARPU_REGRESSION_BASED;
  peppher::Config config = peppher::Config::with_scheduler("dmda");
  config.ncpus = 1;
  config.nopencl = 0;
  peppher::Runtime runtime(config);
  starpu_codelet cl = two_variants(&hm.model);
  peppher::VariantSelector selector("regression_two", {"linear", "square"}, {"CPU", "CPU"});
  peppher::Vector<std::uint32_t> v(4096, 1u);

  // Nothing measured: each variant runs once to be measured (its measurement pending, the
  // other one next), then StarPU decides while both wait for theirs.
  CHECK(choose(cl, selector, v) == 0);
  CHECK(choose(cl, selector, v) == 1);
  CHECK(choose(cl, selector, v) == -1);
  CHECK(std::isnan(predicted(cl, 4096, 0)));

  // One size measured: predicted there (the geometric mean), not far from it.
  measure(cl, 4096, 0);
  measure(cl, 4096, 1);
  CHECK(predicted(cl, 4096, 0) == Approx(law(0, 4 * 4096.0)));
  CHECK(std::isnan(predicted(cl, 16384, 0)));
  // A second size, twice the first: the power laws, exactly, at any size.
  measure(cl, 8192, 0);
  measure(cl, 8192, 1);
  for (const std::size_t elements : {1024, 6000, 16384, 1 << 20}) {
    INFO(elements << " elements");
    CHECK(predicted(cl, elements, 0) == Approx(law(0, 4.0 * elements)).epsilon(1e-9));
    CHECK(predicted(cl, elements, 1) == Approx(law(1, 4.0 * elements)).epsilon(1e-9));
  }

  // Beyond the measured sizes StarPU predicts nothing; the laws do: 4x the largest, linear
  // wins (655 us against 4295), and square, predicted more than twice slower, is not run.
  peppher::Vector<std::uint32_t> large(16384, 1u);
  CHECK(choose(cl, selector, large) == 0);
  // Below them, square wins (17 us against 41: linear is not run either).
  peppher::Vector<std::uint32_t> small(1024, 1u);
  CHECK(choose(cl, selector, small) == 1);
  // Within them, StarPU's own regression predicts both: its scheduler decides.
  peppher::Vector<std::uint32_t> inside(6000, 1u);
  CHECK(choose(cl, selector, inside) == -1);
}
