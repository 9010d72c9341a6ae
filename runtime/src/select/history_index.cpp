// StarPU's history entries by footprint and by data size (history_index.h).
#include "select/history_index.h"

#include <cmath>
#include <iterator>
#include <map>
#include <mutex>
#include <unordered_map>

namespace peppher::detail {
namespace {

struct Index {
  // The list's first node when last read: StarPU prepends new entries, so the nodes before
  // it are the ones added since.
  const starpu_perfmodel_history_list* head = nullptr;
  std::multimap<std::size_t, const starpu_perfmodel_history_entry*> by_size;
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
    index.by_size.emplace(l->entry->size, l->entry);
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

void visit_sizes_near(const starpu_perfmodel_per_arch* per_arch, std::size_t size,
                      const std::function<bool(const starpu_perfmodel_history_entry&)>& visit) {
  if (per_arch == nullptr || size == 0) return;
  // The entries in range, copied out so that @p visit may look up other indexes.
  std::multimap<double, const starpu_perfmodel_history_entry*> nearest;
  {
    std::lock_guard<std::mutex> lock(g_index_mutex);
    const Index& index = index_of(per_arch);
    const auto end = index.by_size.upper_bound(2 * size);
    for (auto it = index.by_size.lower_bound(size / 2); it != end; ++it)
      nearest.emplace(std::fabs(std::log(static_cast<double>(it->first) / size)), it->second);
  }
  for (const auto& [distance, entry] : nearest) {
    (void)distance;
    if (visit(*entry)) return;
  }
}

std::size_t history_size(starpu_perfmodel* model, starpu_task* task, starpu_perfmodel_arch* arch,
                         unsigned impl) {
  if (arch != nullptr) {
    const starpu_perfmodel_per_arch* per_arch =
        starpu_perfmodel_get_model_per_arch(model, arch, impl);
    if (per_arch != nullptr && per_arch->size_base != nullptr)
      return per_arch->size_base(task, arch, impl);
  }
  if (model->size_base != nullptr) return model->size_base(task, impl);
  std::size_t size = 0;
  for (unsigned i = 0; i < STARPU_TASK_GET_NBUFFERS(task); ++i)
    size += starpu_data_get_size(STARPU_TASK_GET_HANDLE(task, i));
  return size;
}

void forget_history_index() {
  std::lock_guard<std::mutex> lock(g_index_mutex);
  g_index.clear();
}

}  // namespace peppher::detail
