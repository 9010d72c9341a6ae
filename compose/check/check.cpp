// The check stage's entry: resolves and checks interfaces, variants and the main
// descriptor in a fixed order so diagnostics come out deterministically.
#include "compose/check/check.h"

#include <filesystem>

#include "compose/check/exhaustive.h"
#include "compose/check/platform_queries.h"
#include "compose/check/untrusted_text.h"

namespace peppher::check {

void check_main(const ir::Application& app, diag::Diagnostics& diag) {
  for (const ir::SourceFile& f : app.sources) {
    if (f.name.empty()) continue;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(f.path, ec)) {
      diag.error(f.loc, "source file '" + f.name + "' does not exist" +
                            (f.path == f.name ? "" : " (looked for '" + f.path + "')"));
    }
  }
  if (!app.link.name.empty() && app.link.output.empty()) {
    diag.warning(app.link.loc,
                 "the link step has no <peppher:output>; the executable will be "
                 "named '" +
                     app.name + "'");
  }
}

void resolve_and_check(ir::Application& app, diag::Diagnostics& diag) {
  check_main(app, diag);
  check_untrusted_text(app, diag);
  for (ir::Interface& iface : app.interfaces) resolve_interface(app, iface, diag);
  resolve_variants(app, diag);
  check_values(app, diag);
  resolve_platform_queries(app);
  if (!diag.has_errors()) check_exhaustive(app, diag);
}

}  // namespace peppher::check
