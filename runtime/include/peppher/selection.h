// Variant selection controls: every generated wrapper owns a VariantSelector listing its
// variants; force_variant() (or PEPPHER_VARIANT in the environment) pins an interface to
// one variant, which training runs and benchmarks use. The generated single-variant
// codelets (single_variant_codelet) carry a forced or statically dispatched call.
#pragma once

#include <starpu.h>

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "peppher/detail/backends.h"

namespace peppher {

/// @brief The variants of one composed interface (an instantiation of a generic one counts
///        as its own: "sort<float>"), in the order of the generated single-variant codelets.
/// @attention Constructed at static initialisation by generated code; forced() is a
///            lock-free relaxed load, safe from any thread.
class VariantSelector {
 public:
  VariantSelector(std::string interface_name, std::vector<std::string> variants,
                  std::vector<std::string> backends);
  ~VariantSelector();
  VariantSelector(const VariantSelector&) = delete;
  VariantSelector& operator=(const VariantSelector&) = delete;

  /// @brief The forced variant's index, or -1 when the runtime (or static dispatch) chooses.
  int forced() const noexcept { return forced_.load(std::memory_order_relaxed); }
  void force(int index) noexcept { forced_.store(index, std::memory_order_relaxed); }

  const std::string& interface_name() const noexcept { return interface_; }
  const std::vector<std::string>& variants() const noexcept { return variants_; }
  const std::vector<std::string>& backends() const noexcept { return backends_; }
  /// @brief The record of variant @p k's backend (detail/backends.h), looked up once.
  const detail::Backend& backend(std::size_t k) const noexcept { return *records_[k]; }

 private:
  std::string interface_;
  std::vector<std::string> variants_;
  std::vector<std::string> backends_;            // "CPU", "OPENMP", "CUDA", "OPENCL", per variant
  std::vector<const detail::Backend*> records_;  // per variant, its backend's record
  std::atomic<int> forced_{-1};
};

/// @brief Makes every later call of @p interface_name run @p variant (an empty @p variant
///        gives the choice back). Returns false, changing nothing, when the program has no
///        such interface or variant. Calls already submitted are not affected.
/// @attention A forced variant whose constraints reject a call, or whose backend has no
///            worker, makes that call throw peppher::Error.
bool force_variant(const std::string& interface_name, const std::string& variant);

/// @brief Every composed interface's selector, in registration order.
std::vector<const VariantSelector*> selectors();

/// @brief Applies PEPPHER_VARIANT="iface=variant,variant2" (init() calls it): an item
///        without '=' forces every interface that has a variant of that name; throws
///        peppher::Error naming an unknown interface or variant, listing the composed ones.
void apply_variant_environment();

/// @brief Throws peppher::Error: the variant @p index forced on @p selector does not
///        accept the call at hand (its constraints, or no worker of its kind).
[[noreturn]] void forced_variant_rejects(const VariantSelector& selector, int index);

/// @brief A copy of @p full (name, buffers, modes) that runs only @p func (named
///        @p func_name) on workers of kind @p where (STARPU_CPU, STARPU_CUDA or
///        STARPU_OPENCL): no can_execute, no performance model (under simulation, where
///        every task needs one, @p full's, with @p func at its implementation index in
///        @p full). @p parallel keeps a FORKJOIN type (an OPENMP variant). The variant need
///        not be in @p full: variants beyond StarPU's slot limit exist this way during
///        training.
starpu_codelet single_variant_codelet(const starpu_codelet& full, uint32_t where,
                                      void (*func)(void**, void*), const char* func_name,
                                      bool parallel);

/// @brief A copy of @p full (name, buffers, modes, can_execute, performance model) that
///        keeps only its implementation @p slot for workers of kind @p where: StarPU then
///        runs that implementation and records its time under the same model, architecture
///        and implementation index as a task of @p full would (CalibratingChoice). A @p slot
///        below 0 gives a codelet without implementations, never to be submitted.
starpu_codelet model_codelet(const starpu_codelet& full, uint32_t where, int slot);

}  // namespace peppher

// A CUDA backend wrapper where StarPU has CUDA, else nothing (the generated code names
// CUDA wrappers through it outside their #ifdef).
#ifdef STARPU_USE_CUDA
#define PEPPHER_CUDA_FUNC(f) (f)
#else
#define PEPPHER_CUDA_FUNC(f) nullptr
#endif
