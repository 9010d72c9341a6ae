// Placement-aware static dispatch: a statically dispatched call ranks the variants of its
// trained cell by trained time plus the time StarPU's bus model expects for bringing the
// call's operands to each variant's memory node, from where each container's data will be
// once the tasks submitted before it have run. PEPPHER_PLACEMENT=off gives the per-call
// ranking back.
#pragma once

#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "peppher/detail/small_vector.h"
#include "peppher/detail/storage.h"
#include "peppher/selection.h"

namespace peppher {

/// @brief Whether static dispatch accounts for where the operands are (default: on; the
///        environment variable PEPPHER_PLACEMENT=off, read by init(), or
///        set_placement(false) turns it off).
/// @attention A relaxed atomic load, safe from any thread.
bool placement_enabled() noexcept;
/// @brief Turns placement-aware static dispatch on or off for the calls that follow.
void set_placement(bool on) noexcept;
/// @brief Applies PEPPHER_PLACEMENT (init() calls it, before starting StarPU, so that the
///        program's own set_placement() comes after it): `on`/`1` or unset: on, `off`/`0`:
///        off; anything else throws peppher::Error. Also forgets the last session's calls.
void apply_placement_environment();
/// @brief Notes the memory node of each kind of worker and the largest combined worker of
///        this session (init() calls it once StarPU is up).
void note_worker_layout() noexcept;

/// @brief Merge's rule for one interface (docs/SELECTION.md, "The most specific variant"),
///        per selector index: the variants each one specializes (bit j: variant j, directly
///        or through others) and its priority. Generated as constant arrays.
struct Specificity {
  const std::uint64_t* specializes;
  const int* priority;
};

namespace detail {

/// @brief Narrows @p accepted (@p count variants, selector order) to the most specific:
///        drops every variant that another accepted one specializes, then those below the
///        highest priority left. Returns whether it dropped any.
bool keep_most_specific(const Specificity& specificity, int count, bool* accepted) noexcept;
/// @brief The memory node every worker of the kinds in @p where (STARPU_CPU, STARPU_CUDA,
///        STARPU_OPENCL bits) uses, or -1 when they use several (or there is none).
int memory_node_of(std::uint32_t where) noexcept;
/// @brief The kinds of worker (STARPU_CPU, STARPU_CUDA, STARPU_OPENCL bits) that may run a
///        task of @p codelet: its `where`, or, when 0, what StarPU derives from its functions.
std::uint32_t codelet_where(const starpu_codelet& codelet) noexcept;
/// @brief The memory node a task of @p codelet will run on, when it can tell (one kind of
///        worker, all on one node), else -1.
int memory_node_of(const starpu_codelet& codelet) noexcept;
/// @brief Whether OpenMP (STARPU_FORKJOIN) tasks can run on several cores in this run: the
///        scheduler built combined workers (a parallel-aware one, such as peager or pheft,
///        with several CPU workers).
bool parallel_tasks_possible() noexcept;
/// @brief Before StarPU starts (init()): history models record every task's time
///        (@p conf.calibrate = 1) and StarPU uses an entry from its first measurement
///        (STARPU_CALIBRATE_MINIMUM=1), so that CalibratingChoice's one measurement per
///        variant is enough for the scheduler. STARPU_CALIBRATE and STARPU_CALIBRATE_MINIMUM
///        in the environment win.
void apply_calibration_defaults(starpu_conf& conf);
/// @brief The largest combined worker of this run (all its CPU cores, when the scheduler
///        made combined workers), or -1 when it has none.
int largest_combined_worker() noexcept;
/// @brief Whether an OpenMP variant's task may run on worker @p workerid (a can_execute
///        test, cheap): on the largest combined worker when the run has combined workers
///        (never on one core of a run that could give it all); otherwise on a CPU worker
///        only when @p sequential_accepts is false (no sequential CPU variant accepts the
///        task: the OpenMP one would run on one thread anyway).
bool openmp_may_run(unsigned workerid, bool sequential_accepts) noexcept;
/// @brief Expected microseconds (StarPU's bus model; into OpenCL devices on the host CPU,
///        the measured fresh-buffer bandwidth) to bring @p bytes valid on the memory nodes of
///        bit set @p valid to node @p node, from the nearest of them: 0 when already valid
///        there (or when no prediction exists).
double bring_us(std::uint32_t valid, unsigned node, std::size_t bytes) noexcept;
/// @brief bring_us() for a registered handle, from where StarPU has it at this instant
///        (starpu_data_query_status: a hint read without StarPU's lock, never an assertion);
///        0 when it is valid on @p node or on its way there. Used instead of
///        starpu_data_expected_transfer_time(), which aborts the program when it looks while
///        a task's write has marked every copy invalid (StarPU 1.3, coherency.c:68).
double handle_bring_us(starpu_data_handle_t handle, unsigned node, std::size_t bytes) noexcept;
/// @brief Expected microseconds to move @p bytes from memory node @p src to @p dst: StarPU's
///        bus model, except from host memory into an OpenCL device that runs on the host
///        CPU, where it is the measured bandwidth of writing into a fresh device buffer
///        (StarPU's calibration reuses one warm buffer: ten times faster than a call's first
///        copy there), and to or from a CUDA device, where StarPU's doubling of the time
///        for contention is left out. Implemented in src/devices/devices.cpp.
double transfer_predict_us(unsigned src, unsigned dst, std::size_t bytes) noexcept;
/// @brief The kind of StarPU worker a variant of @p backend ("CPU", "OPENMP", "OPENCL",
///        "CUDA") runs on.
starpu_worker_archtype worker_kind(const std::string& backend) noexcept;
/// @brief Says once per interface on stderr that static dispatch runs the OpenMP variant
///        @p variant of @p iface on one thread (only it accepts the call).
void warn_sequential_openmp(const char* iface, const char* variant);

}  // namespace detail

/// @brief One statically dispatched call's choice of variant: its operands (sizes, access
///        modes, where containers' data will be), then choose().
/// @attention One per call, on the calling thread; it only reads the containers.
class PlacementChoice {
 public:
  /// @brief A container operand (Vector, Matrix, Scalar), whole or partitioned.
  template <typename Container>
  void container(const Container& c, starpu_data_access_mode mode) {
    add(&c.storage(), c.storage().shape().span() * c.storage().shape().elem_size, mode);
  }
  /// @brief A raw operand of @p bytes (registered for the call: home before and after it).
  void raw(std::size_t bytes, starpu_data_access_mode mode) { add(nullptr, bytes, mode); }

  /// @brief The selector index of the variant to run: among @p ranking (selector indices,
  ///        fastest trained first, -1 pads; @p count entries) those that @p accepts, the one
  ///        with the least @p us (trained microseconds per selector index) plus expected
  ///        transfer time when placement_enabled(), else the first. OpenMP variants count
  ///        only when parallel_tasks_possible(), unless nothing else accepts the call (then
  ///        a warning). -1 when no variant accepts the call.
  template <typename Accepts>
  int choose(const signed char* ranking, int count, const double* us,
             const VariantSelector& selector, Accepts&& accepts) const {
    bool ok[kMaxVariants] = {};
    for (int i = 0; i < count && i < kMaxVariants; ++i) {
      const int k = ranking[i];
      if (k >= 0 && k < kMaxVariants) ok[k] = accepts(k);
    }
    return pick(ranking, count, us, selector, ok);
  }

  /// @brief The variant of a call with no performance model when parallel_tasks_possible()
  ///        (docs/SELECTION.md): among the variants that @p accepts, the one that needs the
  ///        least expected transfer time for the operands (the data stays where it is), ties
  ///        going to an OpenMP variant (on all CPU cores), then the other CPU variants, then
  ///        the devices' in selector order. -1 (StarPU chooses) without combined workers or
  ///        when no variant accepts the call.
  template <typename Accepts>
  int choose_without_model(const VariantSelector& selector, Accepts&& accepts) const {
    bool ok[kMaxVariants] = {};
    const int count = static_cast<int>(selector.variants().size());
    for (int k = 0; k < count && k < kMaxVariants; ++k) ok[k] = accepts(k);
    return pick_without_model(selector, ok);
  }

  /// @brief The variant of a call with no performance model of an interface whose variants
  ///        specialize others or have priorities (Merge's rule, docs/SELECTION.md): among the
  ///        variants that @p accepts, the most specific (keep_most_specific); when that leaves
  ///        one, it; when it leaves several, the no-model order among them (least expected
  ///        transfer time, then OpenMP, sequential CPU, devices). When the rule leaves every
  ///        accepting variant, choose_without_model() where @p no_model_choice (an
  ///        unpartitioned interface with an OpenMP variant), else -1 (StarPU chooses).
  template <typename Accepts>
  int choose_most_specific(const VariantSelector& selector, const Specificity& specificity,
                           Accepts&& accepts, bool no_model_choice) const {
    bool ok[kMaxVariants] = {};
    const int count = static_cast<int>(selector.variants().size());
    for (int k = 0; k < count && k < kMaxVariants; ++k) ok[k] = accepts(k);
    return pick_most_specific(selector, specificity, ok, no_model_choice);
  }

  /// @brief Expected microseconds to bring the operands to memory node @p node (the bus
  ///        model; data already valid there, or to be, costs nothing; raw operands also pay
  ///        for coming back when written).
  double transfer_us(unsigned node) const;
  /// @brief The bytes of every operand.
  std::size_t total_bytes() const {
    std::size_t bytes = 0;
    for (const Op& op : ops_) bytes += op.bytes;
    return bytes;
  }

  static constexpr int kMaxVariants = 64;

 private:
  struct Op {
    const detail::Storage* storage;  // null: raw memory, at home
    std::size_t bytes;
    starpu_data_access_mode mode;
  };
  void add(const detail::Storage* s, std::size_t bytes, starpu_data_access_mode mode) {
    ops_.push_back(Op{s, bytes, mode});
  }
  int pick(const signed char* ranking, int count, const double* us, const VariantSelector& selector,
           const bool* accepted) const;
  int pick_without_model(const VariantSelector& selector, const bool* accepted) const;
  int pick_most_specific(const VariantSelector& selector, const Specificity& specificity,
                         bool* accepted, bool no_model_choice) const;
  detail::SmallVector<Op, STARPU_NMAXBUFS> ops_;  // every operand, however many
};

/// @brief What a model's choice of variant notes of a call before its task is built
///        (CalibratingChoice, RegressionChoice): which variants accept the call, under
///        Merge's rule which of them are the most specific, and what moving its operands to
///        each memory node costs.
/// @attention One per call, on the calling thread.
class ModelledChoice {
 public:
  /// @brief Notes which variants accept the call and what moving its operands to each
  ///        memory node costs (@p placement's operands; reads the containers).
  /// @param slots each variant's implementation index in the interface's codelet (selector
  ///        order), -1 for a variant outside the codelet (never a candidate)
  template <typename Accepts>
  void prepare(const PlacementChoice& placement, const VariantSelector& selector,
               const signed char* slots, Accepts&& accepts) {
    const int count = static_cast<int>(selector.variants().size());
    for (int k = 0; k < count && k < PlacementChoice::kMaxVariants; ++k) ok_[k] = accepts(k);
    prepare_costs(placement, selector, slots);
  }
  /// @brief prepare(), for an interface with Merge's rule (docs/SELECTION.md): while
  ///        nothing is measured the call runs its most specific accepting variant, and
  ///        unmeasured most specific variants are explored before the others.
  template <typename Accepts>
  void prepare(const PlacementChoice& placement, const VariantSelector& selector,
               const signed char* slots, Accepts&& accepts, const Specificity& specificity) {
    prepare(placement, selector, slots, accepts);
    int count = static_cast<int>(selector.variants().size());
    if (count > PlacementChoice::kMaxVariants) count = PlacementChoice::kMaxVariants;
    for (int k = 0; k < count; ++k) first_[k] = ok_[k];
    detail::keep_most_specific(specificity, count, first_);
    specific_ = true;
  }

 protected:
  void prepare_costs(const PlacementChoice& placement, const VariantSelector& selector,
                     const signed char* slots);
  /// @brief How many of the selector's variants the choice considers.
  int nvariants() const;
  /// @brief Variant @p k's workers for the model's lookups into @p ids
  ///        (STARPU_NMAXWORKERS; detail::candidate_workers()), or 0 when it is no candidate:
  ///        it does not accept the call, lies outside the codelet, or is an OpenMP variant
  ///        that would get one thread while a sequential variant accepts the call (its
  ///        can_execute says the same).
  int candidate_workers_of(int k, int* ids) const;
  /// @brief Expected microseconds to bring the call's operands to worker @p id's memory (a
  ///        combined worker's: the host's).
  double move_us(int id) const;
  const VariantSelector* selector_ = nullptr;
  const signed char* slots_ = nullptr;
  bool ok_[PlacementChoice::kMaxVariants] = {};
  bool first_[PlacementChoice::kMaxVariants] = {};  // the most specific of ok_ (specific_)
  bool specific_ = false;
  double node_us_[STARPU_MAXNODES] = {};
  std::size_t call_bytes_ = 0;  // the operands' bytes (placement.total_bytes())
};

/// @brief The choice of variant for a call of an interface with a history performance model
///        while that model has not measured every candidate for the call's data size
///        (docs/SELECTION.md, "Calls whose model is still learning"): prepare() before the
///        task is built, choose() once it is (its handles give the footprint under which
///        StarPU keeps the measurements).
/// @attention One per call, on the calling thread.
class CalibratingChoice : public ModelledChoice {
 public:
  /// @brief The selector index of the variant whose task (its implementation alone, the
  ///        model kept) runs this call, or -1 when StarPU's scheduler should choose with the
  ///        full codelet (every candidate measured for this footprint, a single candidate,
  ///        or prepare() not called). The rule: nothing measured: the variant that leaves
  ///        the data where it is (OpenMP on the largest combined worker, else sequential CPU,
  ///        at home); something measured: the unmeasured variant whose transfers cost least,
  ///        when they cost less than the measured best's time plus transfers, once per
  ///        process and again each time its last run's measurement has arrived while StarPU
  ///        still does not predict it (STARPU_CALIBRATE_MINIMUM above 1); else the measured
  ///        best. With Merge's rule (prepare() with a Specificity) the most specific
  ///        candidates come first in both. All measured, in a process that called
  ///        with this footprint before: a variant that is not the best and has one
  ///        measurement runs once more (once per process), else -1.
  int choose(starpu_task* task) const;

  /// @brief The selector index of a host variant to run on the calling thread instead of
  ///        submitting @p task, or -1 for a task (docs/SELECTION.md, "Calls that run on
  ///        the calling thread"). Only while no task is in flight (the workers idle, no task
  ///        holding the call's data): the variant @p chosen (choose()'s result) when it is a
  ///        host one; when choose() left the choice to StarPU (-1): a host candidate the model
  ///        does not predict (any more: StarPU flushed its entry) when no device candidate is
  ///        unpredicted, else the candidate whose measured time plus moving the operands there
  ///        is least, if it is a host one. A host variant: sequential CPU, or OpenMP on all
  ///        CPU cores (a combined worker of them, or the run's only CPU worker). Never under
  ///        simulation (kernels do not run there).
  int here(starpu_task* task, int chosen) const;
  /// @brief Records @p us, the time variant @p k took on the calling thread (here()), in
  ///        @p task's history model under its data footprint, for the worker architecture
  ///        a task of that variant would have run on, as StarPU records a task's.
  void record_here(starpu_task* task, int k, double us) const;

 private:
  struct Costs;
  void evaluate(starpu_task* task, Costs& costs) const;
};

/// @brief A call that CalibratingChoice::here() runs on the calling thread: made just before
///        the variant runs and destroyed just after, it records the variant's time in the
///        history model (record_here(), not when the variant throws) and frees @p task, the
///        call's unsubmitted task (TaskBuilder::take_unsubmitted_task()).
class HereRun {
 public:
  HereRun(starpu_task* task, const CalibratingChoice& choice, int variant) noexcept;
  ~HereRun();
  HereRun(const HereRun&) = delete;
  HereRun& operator=(const HereRun&) = delete;

 private:
  starpu_task* task_;
  const CalibratingChoice& choice_;
  int variant_;
  int exceptions_;  // std::uncaught_exceptions() when the run began
  double start_us_;
};

/// @brief The entry wrapper's choice for an interface with a regression model
///        (`useRegressionModels`: StarPU's a*n^b; `useNLRegressionModels`: a*n^b+c) whose
///        model cannot yet predict the call from StarPU alone (docs/SELECTION.md,
///        "Regression models"): prepare() before the task is built, choose() once it is
///        (its handles' sizes are the regression's n).
/// @attention One per call, on the calling thread.
class RegressionChoice : public ModelledChoice {
 public:
  /// @brief The selector index of the variant whose task (its implementation alone, the
  ///        model kept) runs this call, or -1 when StarPU's scheduler should choose with the
  ///        full codelet: StarPU's own regression predicts every candidate on every worker it
  ///        may run on (the size lies within what each was measured at), or there is a
  ///        single candidate, or none can be predicted nor usefully measured here.
  ///        Otherwise, among the candidates whose run here would widen the sizes they were
  ///        measured at: one the model cannot predict at all, else one whose extrapolated
  ///        prediction is within twice the best's (each again only once its last such run's
  ///        measurement has arrived; the most specific first under Merge's rule, then the
  ///        cheapest); else the candidate whose prediction (the fitted law, extrapolated
  ///        beyond the measured sizes) plus moving its operands is least.
  int choose(starpu_task* task) const;

 private:
  struct Costs;
  void evaluate(starpu_task* task, Costs& costs) const;
};

}  // namespace peppher
