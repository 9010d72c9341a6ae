// XPDL platform queries in constraints: the names the PEPPHER/XPDL papers use
// (xpdl::system::num_of_gpus, xpdl::system::num_of_cpus, XPDL_NUM_OF_GPUS, and
// xpdl::is_installed<xpdl::system::libraries,NAME>::value), and the compose-time answer to
// each is_installed query: from the platform descriptor's list when it has one for that set,
// else from this machine (pkg-config, the linker's search path, PATH, /etc/os-release).
#pragma once

#include <optional>
#include <string>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"

namespace peppher::check {

// One is_installed query, from its identifier text ("xpdl::is_installed<SET,NAME>::value").
struct InstalledQuery {
  std::string set;   // as written: "xpdl::system::libraries"
  std::string name;  // "xpdl_cublas_5_0"
};
std::optional<InstalledQuery> installed_query(const std::string& identifier);

// The platform property an XPDL system name reads: xpdl::system::num_of_gpus and
// XPDL_NUM_OF_GPUS -> "num_cuda", xpdl::system::num_of_cpus -> "num_cpus", any other
// xpdl::system::X -> "X"; nullopt for a name that is not one.
std::optional<std::string> xpdl_system_property(const std::string& identifier);

// The platform property any platform name of a constraint reads: platform.X -> "X", an XPDL
// system name as above; nullopt for a name that is neither.
std::optional<std::string> platform_property(const std::string& identifier);

// The backend whose StarPU worker count a property is ("num_cpus", "num_opencl",
// "num_cuda"); nullopt for any other property.
std::optional<ir::Backend> worker_backend(const std::string& property);

// "libraries", "softwares" or "oss" for xpdl::system::libraries etc., else "".
std::string installed_set(const std::string& written);

// Answers every is_installed query of the application's constraints (once each) into
// app.installed. Run after the constraints are parsed.
void resolve_platform_queries(ir::Application& app);

}  // namespace peppher::check
