// The errors of component calls made inside a running task (peppher/nested_call.h): each
// names the interface, the worker and what the call would need, instead of a task that
// would wait on its own worker.
#include <string>

#include "observe/worker_names.h"
#include "peppher/error.h"
#include "peppher/nested_call.h"

namespace peppher::detail {
namespace {

std::string where() {
  const int worker = starpu_worker_get_id();
  if (worker < 0) return "inside a task, on a thread of an OpenMP variant's team";
  return "inside a task on worker '" + worker_name(worker) + "'";
}

}  // namespace

void nested_call_fails(const char* iface, const char* why) {
  throw Error(std::string(iface) + " called " + where() + ": " + why +
              " (a nested call runs on the calling CPU worker, with a sequential CPU or OpenMP "
              "variant; it cannot wait for a task there; docs/SELECTION.md, \"Nested calls\")");
}

void nested_container_fails(const char* iface, const char* param) {
  throw Error(std::string(iface) + " called " + where() + ": container operand '" + param +
              "' is not the task's own data (a view its variant was given, or one made with "
              "view() over the task's memory); a container of its own would have to be "
              "acquired or waited for on the worker, which StarPU does not allow "
              "(docs/SELECTION.md, \"Nested calls\")");
}

}  // namespace peppher::detail
