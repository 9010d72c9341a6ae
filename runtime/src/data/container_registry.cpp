// The registry of live containers (detail::track): what shutdown() detaches, and what a raw
// pointer given to a call is checked against (memory inside a container a task may hold).
#include "data/container_registry.h"

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "peppher/detail/raw_cache.h"
#include "peppher/detail/storage.h"
#include "peppher/error.h"
#include "peppher/inline_call.h"

namespace peppher::detail {
namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
// Each live container's memory as it was when it was (re)tracked: the aliasing check reads
// it here, never from another thread's storage (whose fields only its user's thread may read).
struct Memory {
  const unsigned char* begin = nullptr;
  std::size_t bytes = 0;
};
using Registry = std::unordered_map<Storage*, Memory>;
Registry& registry() {
  static Registry map;
  return map;
}
Memory memory_of(const Storage* s) noexcept {
  if (s->data() == nullptr) return {nullptr, 0};  // e.g. created distributed: no host memory
  return {static_cast<const unsigned char*>(s->data()), s->shape().span() * s->shape().elem_size};
}

}  // namespace

void track(Storage* storage) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().insert_or_assign(storage, memory_of(storage));
}

void untrack(Storage* storage) noexcept {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().erase(storage);
}

void prepare_inline_operand(const void* ptr, std::size_t bytes, bool write) {
  if (ptr == nullptr && bytes != 0)  // the variant would dereference it on this thread
    throw Error("a raw pointer operand is null but its length is " + std::to_string(bytes) +
                " bytes (numElements)");
  raw_cache_wait(ptr, bytes, write);  // another thread's task on a cached registration
  wait_for_aliased_container(ptr, bytes, write);
}

void wait_for_aliased_container(const void* ptr, std::size_t bytes, bool write) {
  // Found under the registry's lock, acquired without it: a storage's lock is taken before
  // the registry's (registration tracks it). A container the memory lies in is the caller's
  // to use now, so it stays alive meanwhile; no other container is touched.
  std::vector<Storage*> found;  // allocates only when the memory lies in a container
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    if (registry().empty()) return;
    const auto* begin = static_cast<const unsigned char*>(ptr);
    for (const auto& [s, m] : registry()) {
      if (begin + bytes <= m.begin || begin >= m.begin + m.bytes) continue;
      found.push_back(s);
    }
  }
  // The raw pointer aliases a container a task may hold: its data comes home first (a
  // no-op when the host already may use it as asked, or when it is not registered).
  for (Storage* s : found) {
    if (write)
      s->ensure_write();
    else
      s->ensure_read();
  }
}

bool is_tracked(const Storage* storage) noexcept {
  std::lock_guard<std::mutex> lock(registry_mutex());
  return registry().count(const_cast<Storage*>(storage)) != 0;
}

void retrack(Storage* from, Storage* to) noexcept {
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().erase(from);
  registry().insert_or_assign(to, memory_of(to));
}

void detach_all_containers() {
  // Taken out of the registry first, then detached without its lock: a storage's own lock
  // is taken before the registry's when it registers (lock order: storage, registry).
  Registry live;
  {
    std::lock_guard<std::mutex> reg(registry_mutex());
    live.swap(registry());
  }
  for (const auto& entry : live) entry.first->detach();
}

}  // namespace peppher::detail
