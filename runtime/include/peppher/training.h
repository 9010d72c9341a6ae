// Training runs (compose --train, make train): time each variant of an interface over the
// context ranges its parameters declare, sampling sizes adaptively in the spirit of
// Elastic Computing's implementation assessment, and write the performance table that
// static dispatch and the table-driven cost models read.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "peppher/trained_grid.h"

namespace peppher {

/// @brief One context parameter and its range="lo..hi".
struct ContextRange {
  std::string name;
  long long lo = 0;
  long long hi = 0;
};

/// @brief One interface to train, as the generated trainer describes it.
struct TrainingTarget {
  std::string interface_name;  // as its VariantSelector names it: "sort<float>"
  std::vector<ContextRange> context;
  /// Makes one call of the interface at this point (context values in order) and waits
  /// for it; the variant is forced before each call.
  std::function<void(const std::vector<long long>&)> call;
  /// Whether variant @p index (selector order) accepts a call at this point (its
  /// constraints); null: every variant does.
  std::function<bool(int index, const std::vector<long long>&)> accepts;
};

/// @brief Sampling settings; the defaults suit a shared machine.
struct TrainingOptions {
  double accuracy = 0.05;  // refine where interpolation misses a sample by more
  int max_points_per_context = 12;
  int repetitions = 5;   // timed calls per (variant, point); the median is kept
  std::string platform;  // written into the table
  /// The clock calls are timed with, in microseconds (any origin); empty: steady_clock.
  /// Tests inject one that the target's call advances, so they need not sleep.
  std::function<double()> clock_us;
};

/// @brief Times every variant of each target and keeps the results for the table.
/// @attention Call between PEPPHER_INITIALIZE() and PEPPHER_SHUTDOWN(), from one thread.
class Trainer {
 public:
  explicit Trainer(TrainingOptions options) : options_(std::move(options)) {}

  /// @brief Samples @p target adaptively along each context parameter (the others at the
  ///        middle of their ranges), then measures every combination of the chosen values.
  ///        Progress goes to stderr.
  void train(const TrainingTarget& target);

  /// @brief The performance table (XML, read by compose -staticDispatch).
  std::string table_xml() const;

  /// @brief Writes table_xml() to @p path (a temporary file renamed over it); throws
  ///        peppher::Error when it cannot.
  void write(const std::string& path) const;

 private:
  struct Result {
    std::string interface_name;
    std::vector<ContextRange> context;
    std::vector<std::string> variants;
    std::map<std::vector<long long>, std::vector<double>> times;  // point -> us per variant
  };
  const std::vector<double>& measure(const TrainingTarget& target, Result& result,
                                     const std::vector<long long>& point);
  double time_variant(const TrainingTarget& target, int variant,
                      const std::vector<long long>& point);
  double now_us() const;

  TrainingOptions options_;
  std::vector<Result> results_;
};

/// @brief TrainingOptions with PEPPHER_TRAIN_POINTS (samples per context parameter),
///        PEPPHER_TRAIN_REPS (timed calls per sample) and PEPPHER_TRAIN_ACCURACY from the
///        environment when set, and @p platform.
TrainingOptions training_options_from_environment(const std::string& platform);

}  // namespace peppher
