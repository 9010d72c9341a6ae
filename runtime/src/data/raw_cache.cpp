// The registration cache of raw-pointer operands (see peppher/detail/raw_cache.h).
#include "peppher/detail/raw_cache.h"

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace peppher::detail {
namespace {

struct Entry {
  starpu_data_handle_t handle = nullptr;
  std::size_t count = 0;
  std::size_t elem_size = 0;
  int users = 0;  // calls between acquire and release
};

// Beyond this many registrations, unused ones are dropped first.
constexpr std::size_t kMaxEntries = 256;

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

// The memory may have been freed: nothing is written back (its only valid copy is home).
void drop(const void* ptr, Entry& e) {
  owners().erase(e.handle);
  starpu_data_unregister_no_coherency(e.handle);
  entries().erase(ptr);
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

}  // namespace

starpu_data_handle_t raw_cache_acquire(const void* ptr, std::size_t count, std::size_t elem_size) {
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto it = entries().find(ptr);
  if (it != entries().end()) {
    Entry& e = it->second;
    if (e.count == count && e.elem_size == elem_size) {
      ++e.users;
      return e.handle;
    }
    if (e.users > 0) return nullptr;  // in use with another shape: register for the call
    drop(ptr, e);                     // freed and reused, or another view: re-register
  }
  make_room();
  Entry e;
  starpu_vector_data_register(&e.handle, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(ptr),
                              static_cast<uint32_t>(count), elem_size);
  e.count = count;
  e.elem_size = elem_size;
  e.users = 1;
  owners()[e.handle] = ptr;
  entries()[ptr] = e;
  return e.handle;
}

void raw_cache_release(starpu_data_handle_t handle) noexcept {
  // Waits for the call's task; the data comes home and device copies are invalidated, so
  // the caller may write the memory before the next call.
  if (starpu_data_acquire(handle, STARPU_RW) == 0) starpu_data_release(handle);
  std::lock_guard<std::mutex> lock(cache_mutex());
  auto owner = owners().find(handle);
  if (owner == owners().end()) return;
  --entries()[owner->second].users;
}

void raw_cache_wait(const void* ptr, std::size_t bytes, bool write) {
  starpu_data_handle_t busy = nullptr;
  {
    std::lock_guard<std::mutex> lock(cache_mutex());
    if (entries().empty()) return;
    auto it = entries().find(ptr);
    if (it == entries().end() || it->second.users == 0) return;
    (void)bytes;
    busy = it->second.handle;
    ++it->second.users;  // keeps it registered while this thread waits
  }
  if (starpu_data_acquire(busy, write ? STARPU_RW : STARPU_R) == 0) starpu_data_release(busy);
  std::lock_guard<std::mutex> lock(cache_mutex());
  --entries()[owners()[busy]].users;
}

void raw_cache_clear() noexcept {
  std::lock_guard<std::mutex> lock(cache_mutex());
  for (auto& [ptr, e] : entries()) starpu_data_unregister_no_coherency(e.handle);
  entries().clear();
  owners().clear();
}

}  // namespace peppher::detail
