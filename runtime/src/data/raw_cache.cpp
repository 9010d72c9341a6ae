// The registration cache of raw-pointer operands, whole or split (see
// peppher/detail/raw_cache.h).
#include "peppher/detail/raw_cache.h"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace peppher::detail {
namespace {

// One planned split of a cached registration: the blocks' sizes and handles.
struct Plan {
  std::vector<std::size_t> sizes;
  std::vector<starpu_data_handle_t> blocks;
};

struct Entry {
  starpu_data_handle_t handle = nullptr;
  RawLayout layout;
  int users = 0;        // calls between acquire and release (and waits on them)
  int split_users = 0;  // those of them using the active split's blocks
  std::vector<Plan> plans;
  int active = -1;  // the plan the array is partitioned by, or -1 (whole)
};

// Beyond this many registrations, unused ones are dropped first.
constexpr std::size_t kMaxEntries = 256;
// Beyond this many plans of one array, an inactive one is forgotten first (`?` splits sized
// from models may change from call to call).
constexpr std::size_t kMaxPlans = 4;

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}
std::unordered_map<const void*, Entry>& entries() {
  static std::unordered_map<const void*, Entry> map;
  return map;
}
std::unordered_map<starpu_data_handle_t, const void*>& owners() {
  static std::unordered_map<starpu_data_handle_t, const void*> map;
  return map;
}

// The entry's array made whole again (its blocks gathered at home), when it was split.
void make_whole(Entry& e) noexcept {
  if (e.active < 0) return;
  gather_raw(e.handle, e.plans[static_cast<std::size_t>(e.active)].blocks);
  e.active = -1;
}

// The memory may have been freed: nothing is written back (its only valid copy is home,
// blocks included: every call ends with them home).
void drop(const void* ptr, Entry& e) {
  for (std::size_t i = 0; i < e.plans.size(); ++i)
    clean_raw_split(e.handle, e.plans[i].blocks, static_cast<int>(i) == e.active);
  owners().erase(e.handle);
  starpu_data_unregister_no_coherency(e.handle);
  entries().erase(ptr);
}

// Waits for the tasks on @p handle (or @p blocks: each) and brings the data home for @p mode.
void acquire_home(starpu_data_handle_t handle, starpu_data_access_mode mode) noexcept {
  if (starpu_data_acquire(handle, mode) == 0) starpu_data_release(handle);
}

// Ends one use of the active split of @p whole (a call's, or a wait's on it), whose blocks
// are @p blocks: the last use gathers the split (its plan stays) and acquires the whole with
// @p mode; an earlier one waits for the blocks' tasks, block by block, while it is still a
// user (the split stands until it is done). Acquiring blocks is the exception: StarPU 1.4.7
// aborts (coherency.c, _starpu_select_src_node) about one run in ten when blocks a device
// used are acquired under memory pressure with dm/dmda's prefetches.
void end_split_use(starpu_data_handle_t whole, const std::vector<starpu_data_handle_t>& blocks,
                   starpu_data_access_mode mode) noexcept {
  bool last = false;
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    Entry& e = entries()[owners()[whole]];
    last = e.split_users == 1;
    if (last) {  // after the call's tasks in task order; nobody joins a gathered split
      e.split_users = 0;
      make_whole(e);
    }
  }
  if (!last) {
    for (starpu_data_handle_t b : blocks) acquire_home(b, mode);
    std::lock_guard<std::mutex> lock(cache_mutex());
    Entry& e = entries()[owners()[whole]];
    last = --e.split_users == 0;
    if (last) make_whole(e);
  }
  if (last) acquire_home(whole, mode);
}

void make_room() {
  if (entries().size() < kMaxEntries) return;
  for (auto it = entries().begin(); it != entries().end(); ++it) {
    if (it->second.users == 0) {
      drop(it->first, it->second);
      return;
    }
  }
}

// The entry of @p ptr with @p layout for a new user, registered when there is none; nullptr
// when another call uses that address with another layout.
Entry* entry_for(const void* ptr, const RawLayout& layout) {
  auto it = entries().find(ptr);
  if (it != entries().end()) {
    if (it->second.layout == layout) return &it->second;
    if (it->second.users > 0) return nullptr;  // in use with another shape: for the call
    drop(ptr, it->second);                     // freed and reused, or another view
  }
  make_room();
  Entry e;
  e.handle = register_raw(ptr, layout);
  e.layout = layout;
  owners()[e.handle] = ptr;
  return &(entries()[ptr] = std::move(e));
}

// The plan of @p sizes in @p e, made when there is none (an inactive old one forgotten when
// there are too many).
std::size_t plan_for(Entry& e, const std::vector<std::size_t>& sizes) {
  for (std::size_t i = 0; i < e.plans.size(); ++i)
    if (e.plans[i].sizes == sizes) return i;
  if (e.plans.size() >= kMaxPlans) {
    const std::size_t old = e.active == 0 ? 1 : 0;
    clean_raw_split(e.handle, e.plans[old].blocks, false);
    e.plans.erase(e.plans.begin() + static_cast<std::ptrdiff_t>(old));
    if (e.active > static_cast<int>(old)) --e.active;
  }
  e.plans.push_back({sizes, plan_raw_split(e.handle, e.layout, sizes)});
  return e.plans.size() - 1;
}

}  // namespace

starpu_data_handle_t raw_cache_acquire(const void* ptr, std::size_t count, std::size_t elem_size) {
  std::lock_guard<std::mutex> lock(cache_mutex());
  Entry* e = entry_for(ptr, RawLayout{count, 0, elem_size});
  if (e == nullptr) return nullptr;
  if (e->active >= 0) {
    if (e->users > 0) return nullptr;  // another call's blocks: whole for this call only
    make_whole(*e);                    // the last call's split, gathered (in task order)
  }
  ++e->users;
  return e->handle;
}

void raw_cache_release(starpu_data_handle_t handle) noexcept {
  // Waits for the call's task; the data comes home and device copies are invalidated, so
  // the caller may write the memory before the next call.
  acquire_home(handle, STARPU_RW);
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto owner = owners().find(handle);
  if (owner == owners().end()) return;
  --entries()[owner->second].users;
}

starpu_data_handle_t raw_cache_acquire_blocks(const void* ptr, const RawLayout& layout,
                                              const std::vector<std::size_t>& sizes,
                                              std::vector<starpu_data_handle_t>& blocks) {
  std::lock_guard<std::mutex> lock(cache_mutex());
  Entry* e = entry_for(ptr, layout);
  if (e == nullptr) return nullptr;
  const bool same = e->active >= 0 && e->plans[static_cast<std::size_t>(e->active)].sizes == sizes;
  if (!same) {
    if (e->users > 0) return nullptr;  // another call uses it whole or split otherwise
    make_whole(*e);
    const std::size_t p = plan_for(*e, sizes);
    partition_raw(e->handle, e->plans[p].blocks);
    e->active = static_cast<int>(p);
  }
  ++e->users;
  ++e->split_users;
  blocks = e->plans[static_cast<std::size_t>(e->active)].blocks;
  return e->handle;
}

void raw_cache_release_blocks(starpu_data_handle_t whole,
                              const std::vector<starpu_data_handle_t>& blocks) noexcept {
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    if (owners().find(whole) == owners().end()) return;
  }
  // Its users count keeps the registration while this thread waits, and a call arriving
  // after the gather registers the array for itself.
  end_split_use(whole, blocks, STARPU_RW);
  std::lock_guard<std::mutex> lock(cache_mutex());
  --entries()[owners()[whole]].users;
}

void raw_cache_wait(const void* ptr, std::size_t bytes, bool write) {
  starpu_data_handle_t busy = nullptr;
  std::vector<starpu_data_handle_t> blocks;
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    if (entries().empty()) return;
    auto it = entries().find(ptr);
    if (it == entries().end() || it->second.users == 0) return;
    (void)bytes;
    Entry& e = it->second;
    busy = e.handle;
    // A split array's blocks: this wait is one more use of the split (acquiring the whole
    // would gather it under the calls).
    if (e.active >= 0) {
      blocks = e.plans[static_cast<std::size_t>(e.active)].blocks;
      ++e.split_users;
    }
    ++e.users;  // keeps it registered while this thread waits
  }
  const starpu_data_access_mode mode = write ? STARPU_RW : STARPU_R;
  if (blocks.empty())
    acquire_home(busy, mode);
  else
    end_split_use(busy, blocks, mode);
  std::lock_guard<std::mutex> lock(cache_mutex());
  --entries()[owners()[busy]].users;
}

void raw_cache_clear() noexcept {
  std::lock_guard<std::mutex> lock(cache_mutex());
  while (!entries().empty()) drop(entries().begin()->first, entries().begin()->second);
  owners().clear();
}

}  // namespace peppher::detail
