// The backend table (compose/ir/backends.h): one record per ir::Backend, spellings that the
// reader and the platform queries take back, distinct StarPU names per codelet group, and
// the template sections each group's record names.
#include "compose/ir/backends.h"

#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compose/check/platform_queries.h"
#include "compose/diag/diagnostics.h"
#include "compose/read/reader.h"
#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;

namespace {

// The backend a one-variant descriptor with <peppher:targetPlatform name="platform"> gets.
std::optional<ir::Backend> read_platform(const std::string& platform) {
  std::ostringstream err;
  diag::Diagnostics diag(err);
  const read::Descriptor d =
      read::read_descriptor_text("t.xml",
                                 test::component("  <peppher:implementation name=\"v\">\n"
                                                 "    <peppher:targetPlatform name=\"" +
                                                 platform + "\"/>\n  </peppher:implementation>\n"),
                                 diag);
  if (!err.str().empty() || d.implementations.size() != 1) return std::nullopt;
  return d.implementations[0].variant.backend;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("backends: one record per backend, in enum order", "[backends]") {
  REQUIRE(ir::backends().size() == ir::kBackendCount);
  for (ir::Backend b : ir::kAllBackends) {
    CHECK(ir::info(b).backend == b);
    CHECK(&ir::backends()[static_cast<size_t>(ir::index(b))] == &ir::info(b));
  }
}

TEST_CASE("backends: spellings round-trip through the reader, in any case", "[backends]") {
  std::set<std::string> names, prefixes;
  for (const ir::BackendInfo& r : ir::backends()) {
    INFO(r.name);
    CHECK(names.insert(r.name).second);
    CHECK(prefixes.insert(r.prefix).second);  // backend wrapper names stay apart
    CHECK(std::string(ir::to_string(r.backend)) == r.name);
    CHECK(read_platform(r.name) == r.backend);
    CHECK(read_platform(r.prefix) == r.backend);  // the lower-case spelling
    REQUIRE(ir::find_backend(r.label) != nullptr);
    CHECK(ir::find_backend(r.label)->backend == r.backend);
  }
  CHECK(ir::find_backend("HIP") == nullptr);
  CHECK(read_platform("HIP") == std::nullopt);
}

TEST_CASE("backends: codelet groups have distinct StarPU names", "[backends]") {
  std::set<std::string> fields, wheres, kinds, keys, properties;
  for (ir::Backend g : ir::codelet_groups()) {
    const ir::BackendInfo& r = ir::info(g);
    INFO(r.name);
    CHECK(r.codelet_group == g);
    CHECK(fields.insert(r.codelet_field).second);
    CHECK(wheres.insert(r.where).second);
    CHECK(kinds.insert(r.worker_kind).second);
    CHECK(keys.insert(r.template_key).second);
    CHECK(properties.insert(r.worker_property).second);
    CHECK(check::worker_backend(r.worker_property) == g);
  }
  // A backend sharing a group shares its StarPU names and its disable switches.
  for (const ir::BackendInfo& r : ir::backends()) {
    const ir::BackendInfo& g = ir::info(r.codelet_group);
    INFO(r.name);
    CHECK(ir::same_codelet_group(r.backend, g.backend));
    CHECK(std::string(r.codelet_field) == g.codelet_field);
    CHECK(std::string(r.where) == g.where);
    CHECK(std::string(r.worker_kind) == g.worker_kind);
    CHECK(r.disabled_by_option == g.disabled_by_option);
    CHECK(r.disabled_by_interface == g.disabled_by_interface);
  }
  CHECK(ir::codelet_groups() ==
        std::vector<ir::Backend>{ir::Backend::Cpu, ir::Backend::Cuda, ir::Backend::OpenCl});
}

TEST_CASE("backends: each codelet group has its sections in the wrapper template", "[backends]") {
  const std::string wrapper = file_text(PEPPHER_SOURCE_DIR "/templates/wrapper.cpp.mustache");
  REQUIRE(!wrapper.empty());
  for (ir::Backend g : ir::codelet_groups()) {
    const ir::BackendInfo& r = ir::info(g);
    INFO(r.name);
    CHECK(wrapper.find("{{#" + std::string(r.template_key) + "_variants}}") != std::string::npos);
    CHECK(wrapper.find("cl." + std::string(r.codelet_field) + "[") != std::string::npos);
  }
}

TEST_CASE("backends: disabling a backend goes through its record's switches", "[backends]") {
  ir::Options options;
  ir::Interface iface;
  for (const ir::BackendInfo& r : ir::backends()) {
    INFO(r.name);
    CHECK(ir::backend_enabled(options, iface, r.backend));
    options.*r.disabled_by_option = true;
    CHECK_FALSE(ir::backend_enabled(options, iface, r.backend));
    options.*r.disabled_by_option = false;
    iface.*r.disabled_by_interface = true;
    CHECK_FALSE(ir::backend_enabled(options, iface, r.backend));
    iface.*r.disabled_by_interface = false;
  }
}
