// The check stage's entry: resolves and checks interfaces, variants and the main
// descriptor in a fixed order so diagnostics come out deterministically.
#include "compose/check/check.h"

#include "common/files.h"
#include "compose/check/exhaustive.h"
#include "compose/check/platform_queries.h"
#include "compose/check/specializes.h"
#include "compose/check/untrusted_text.h"

namespace peppher::check {

void check_source_file(const ir::SourceFile& f, diag::Diagnostics& diag) {
  const std::string problem = files::not_a_file(f.path);
  if (!problem.empty()) {
    diag.error(f.loc, "source file '" + f.name + "' " + problem +
                          (f.path == f.name ? "" : " (looked for '" + f.path + "')"));
  }
}

void check_main(const ir::Application& app, diag::Diagnostics& diag) {
  for (const ir::SourceFile& f : app.sources) {
    if (f.name.empty()) continue;
    check_source_file(f, diag);
  }
  if (!app.link.name.empty() && app.link.output.empty()) {
    diag.warning(app.link.loc,
                 "the link step has no <peppher:output>; the executable will be "
                 "named '" +
                     app.name + "'");
  }
}

ir::Application resolve_and_check(ir::Application app, const ir::Options& options,
                                  diag::Diagnostics& diag) {
  check_main(app, diag);
  check_untrusted_text(app, diag);
  for (ir::Interface& iface : app.interfaces) resolve_interface(app, iface, diag);
  resolve_variants(app, options, diag);
  check_specializations(app, options, diag);
  check_values(app, diag);
  resolve_platform_queries(app);
  if (!diag.has_errors()) check_exhaustive(app, options, diag);
  return app;
}

}  // namespace peppher::check
