// Finding and loading the training table (see table.h).
#include "compose/explore/table.h"

#include <unistd.h>

#include <filesystem>

#include "compose/explore/paths.h"
#include "compose/read/table.h"

namespace peppher::explore {

std::string platform_name(const ir::Application& app) {
  if (app.platform && !app.platform->name.empty()) return app.platform->name;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "localhost";
  return host;
}

std::string default_table_path(const ir::Application& app) {
  return resolve_relative(app.descriptor_file, "peppher_perf." + platform_name(app) + ".xml");
}

void load_table(ir::Application& app, const ir::Options& o, diag::Diagnostics& diag) {
  // A platform name that is not a plain word (check/ reports it) names no table.
  if (o.performance_table.empty() && platform_name(app).find('/') != std::string::npos) return;
  std::string path = o.performance_table.empty() ? default_table_path(app) : o.performance_table;
  const bool asked = o.static_dispatch;
  if (!asked && !std::filesystem::exists(path)) return;
  app.table = read::read_performance_table(path, diag);
}

}  // namespace peppher::explore
