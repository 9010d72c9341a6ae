// Variant selection controls (see selection.h): the registry of generated selectors,
// force_variant, PEPPHER_VARIANT, and single-variant codelets.
#include "peppher/selection.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "peppher/detail/backends.h"
#include "peppher/error.h"

namespace peppher {
namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::vector<VariantSelector*>& registry() {
  static std::vector<VariantSelector*> r;
  return r;
}

VariantSelector* find(const std::string& interface_name) {
  for (VariantSelector* s : registry()) {
    if (s->interface_name() == interface_name) return s;
  }
  return nullptr;
}

}  // namespace

VariantSelector::VariantSelector(std::string interface_name, std::vector<std::string> variants,
                                 std::vector<std::string> backends)
    : interface_(std::move(interface_name)),
      variants_(std::move(variants)),
      backends_(std::move(backends)) {
  for (const std::string& b : backends_) records_.push_back(&detail::backend_named(b.c_str()));
  std::lock_guard<std::mutex> lock(registry_mutex());
  registry().push_back(this);
}

VariantSelector::~VariantSelector() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto& r = registry();
  r.erase(std::remove(r.begin(), r.end(), this), r.end());
}

bool force_variant(const std::string& interface_name, const std::string& variant) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  VariantSelector* s = find(interface_name);
  if (s == nullptr) return false;
  if (variant.empty()) {
    s->force(-1);
    return true;
  }
  const auto& v = s->variants();
  auto it = std::find(v.begin(), v.end(), variant);
  if (it == v.end()) return false;
  s->force(static_cast<int>(it - v.begin()));
  return true;
}

std::vector<const VariantSelector*> selectors() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  return {registry().begin(), registry().end()};
}

namespace {

// Forces `variant` on every interface that has a variant of that name (a generic's
// instantiations share their variants' names); false when none has.
bool force_variant_everywhere(const std::string& variant) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  bool found = false;
  for (VariantSelector* s : registry()) {
    const auto& v = s->variants();
    auto it = std::find(v.begin(), v.end(), variant);
    if (it == v.end()) continue;
    s->force(static_cast<int>(it - v.begin()));
    found = true;
  }
  return found;
}

// "iface: variant, variant; iface: ..." of this program's composition, for an error message
// (every one: the name the user meant may be the last).
std::string composed_choices() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  std::string list;
  for (const VariantSelector* s : registry()) {
    list += (list.empty() ? "" : "; ") + s->interface_name() + ":";
    for (std::size_t k = 0; k < s->variants().size(); ++k)
      list += (k == 0 ? " " : ", ") + s->variants()[k];
  }
  return list.empty() ? "none: no interface is composed" : list;
}

}  // namespace

void apply_variant_environment() {
  const char* env = std::getenv("PEPPHER_VARIANT");
  if (env == nullptr) return;
  std::string list = env;
  size_t start = 0;
  while (start < list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    const bool forced = eq == std::string::npos
                            ? force_variant_everywhere(item)
                            : force_variant(item.substr(0, eq), item.substr(eq + 1));
    if (!forced) {
      throw Error("PEPPHER_VARIANT: '" + item +
                  "' names no composed variant (give 'variant' or 'interface=variant'; this "
                  "program has " +
                  composed_choices() + ")");
    }
  }
}

void forced_variant_rejects(const VariantSelector& selector, int index) {
  const std::string& backend = selector.backends()[index];
  const detail::Backend& record = selector.backend(static_cast<std::size_t>(index));
  std::string why = "its constraints reject it";
  if (detail::workers_of(record) == 0) {
    why = "this run has no " + backend + " worker";
    if (!record.driver_built) why += " (this StarPU was built without " + backend + ")";
  }
  throw Error(selector.interface_name() + ": the forced variant '" + selector.variants()[index] +
              "' (" + backend + ") cannot run this call: " + why);
}

starpu_codelet single_variant_codelet(const starpu_codelet& full, uint32_t where,
                                      void (*func)(void**, void*), const char* func_name,
                                      bool parallel) {
  starpu_codelet cl = full;  // name, nbuffers, modes
  cl.can_execute = nullptr;
  cl.model = nullptr;
  for (const detail::Backend& b : detail::kBackends) {
    for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i) {
      (cl.*b.funcs)[i] = nullptr;
      if (b.func_names != nullptr) (cl.*b.func_names)[i] = nullptr;
    }
  }
  if (const detail::Backend* b = detail::backend_of_where(where)) {
    int slot = 0;
#ifdef STARPU_SIMGRID
    // Simulated, every task needs its time from the model: the variant keeps its own
    // implementation index in the model (that of @p full), so that the model predicts it.
    // A variant @p full does not hold (beyond the slot limit) has none.
    for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i)
      if ((full.*b->funcs)[i] == func && func != nullptr) {
        slot = i;
        cl.model = full.model;
        break;
      }
#endif
    (cl.*b->funcs)[slot] = func;
    if (b->func_names != nullptr) (cl.*b->func_names)[slot] = func_name;
  }
  cl.where = where;
  if (!parallel) {
    cl.type = STARPU_SEQ;
    cl.max_parallelism = 1;
  }
  return cl;
}

starpu_codelet model_codelet(const starpu_codelet& full, uint32_t where, int slot) {
  starpu_codelet cl = full;
  for (const detail::Backend& b : detail::kBackends) {
    if (b.where == where) continue;  // below
    for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i) {
      (cl.*b.funcs)[i] = nullptr;
      if (b.func_names != nullptr) (cl.*b.func_names)[i] = nullptr;
    }
  }
  // The kept kind's other implementations go too.
  if (const detail::Backend* b = detail::backend_of_where(where)) {
    for (int i = 0; i < STARPU_MAXIMPLEMENTATIONS; ++i) {
      if (i == slot) continue;
      (cl.*b->funcs)[i] = nullptr;
      if (b->func_names != nullptr) (cl.*b->func_names)[i] = nullptr;
    }
  }
  cl.where = where;
  return cl;
}

}  // namespace peppher
