// What a container remembers for the selection of later calls: the `?` splits calls gave
// it and the interfaces sharing them (select/auto_split_choice.cpp reads them), and where
// its data will be once its submitted tasks ran (placement prediction, select/placement.cpp).
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "data/storage_parts.h"

namespace peppher::detail {

SplitRecord Storage::split_record() const {
  std::lock_guard<std::mutex> lock(mutex_);
  SplitRecord r;
  if (active_plan_ >= 0) {
    r.active.sizes = sizes_of(plans_[active_plan_]->spec, shape_);
    if (!r.active.sizes.empty() && r.active.sizes == last_auto_.sizes) r.active = last_auto_;
  }
  r.last_auto = last_auto_;
  // Recent: among the last 2 x (number of interfaces) `?` calls on the container.
  for (const auto& [iface, last] : auto_users_)
    if (auto_calls_ - last < 2 * auto_users_.size()) r.sharing.push_back(iface);
  return r;
}

bool Storage::split_free() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return active_plan_ < 0 && !last_auto_.modelled;
}

void Storage::note_auto_split_locked(const char* iface, const SplitState& split) {
  last_auto_ = split;
  ++auto_calls_;
  for (auto& [name, last] : auto_users_)
    if (name == iface) {
      last = auto_calls_;
      return;
    }
  auto_users_.emplace_back(iface, auto_calls_);
}

void Storage::note_task_locked(starpu_data_access_mode mode, int node) noexcept {
  const std::uint32_t here = node >= 0 && node < 32 ? 1u << node : 0u;
  if ((mode & STARPU_R) != 0 && here != 0) last_reader_ = node;
  if ((mode & STARPU_W) != 0)
    placement_ = here;  // valid only where it was written (0: StarPU chooses where)
  else if (placement_ != 0)
    placement_ |= here;  // one more copy (unknown stays unknown)
}

ReuseCredit& Storage::reuse_credit_locked() {
  if (reuse_ == nullptr) reuse_ = std::make_unique<ReuseCredit>();
  return *reuse_;
}

}  // namespace peppher::detail
