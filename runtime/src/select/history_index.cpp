// StarPU's history entries by footprint (history_index.h).
#include "select/history_index.h"

#include <mutex>
#include <unordered_map>

namespace peppher::detail {
namespace {

struct Index {
  // The list's first node when last read: StarPU prepends new entries, so the nodes before
  // it are the ones added since.
  const starpu_perfmodel_history_list* head = nullptr;
  std::unordered_map<std::uint32_t, const starpu_perfmodel_history_entry*> by_footprint;
};

std::mutex g_index_mutex;
std::unordered_map<const starpu_perfmodel_per_arch*, Index> g_index;

// @p per_arch's index, brought up to date with its list (g_index_mutex held).
const Index& index_of(const starpu_perfmodel_per_arch* per_arch) {
  Index& index = g_index[per_arch];
  const starpu_perfmodel_history_list* first = per_arch->list;
  for (const starpu_perfmodel_history_list* l = first; l != nullptr && l != index.head;
       l = l->next) {
    if (l->entry == nullptr) continue;
    index.by_footprint.emplace(l->entry->footprint, l->entry);
  }
  index.head = first;
  return index;
}

}  // namespace

const starpu_perfmodel_history_entry* history_entry_of(const starpu_perfmodel_per_arch* per_arch,
                                                       std::uint32_t footprint) {
  if (per_arch == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(g_index_mutex);
  const Index& index = index_of(per_arch);
  const auto it = index.by_footprint.find(footprint);
  return it != index.by_footprint.end() ? it->second : nullptr;
}

void forget_history_index() {
  std::lock_guard<std::mutex> lock(g_index_mutex);
  g_index.clear();
}

}  // namespace peppher::detail
