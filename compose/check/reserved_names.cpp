// Reserved parameter names (see reserved_names.h).
#include "compose/check/reserved_names.h"

#include "compose/names/names.h"

namespace peppher::check {

void check_reserved_names(const ir::Interface& iface, diag::Diagnostics& diag) {
  const std::string prefix = names::reserved_prefix();
  for (const ir::Parameter& p : iface.parameters) {
    const std::string who = "parameter '" + p.name + "' of interface '" + iface.name + "'";
    if (p.name.compare(0, prefix.size(), prefix) == 0 || p.name == names::args_struct()) {
      diag.error(p.loc, who + " uses a name the generated code reserves (the prefix '" + prefix +
                            "' and '" + names::args_struct() +
                            "' are its own identifiers); rename the parameter");
      continue;
    }
    for (const ir::Parameter& q : iface.parameters) {
      for (const names::DerivedName& d : names::derived_names(q)) {
        if (d.name != p.name) continue;
        diag.error(p.loc,
                   who + " collides with '" + d.name + "', " + d.what + "; rename the parameter");
      }
    }
  }
}

}  // namespace peppher::check
