// Checks of the program's own sources (see program_checks.h).
#include "compose/verify/program_checks.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "compose/facts/source_parser.h"
#include "compose/names/names.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::verify {

void report_program_definitions(const facts::ProgramDeclarations& d, diag::Diagnostics& diag) {
  for (const auto& [loc, message] : d.refused) diag.error(loc, message);
  for (const auto& [name, loc] : d.definitions) {
    diag.error(loc, "the program defines '" + name + "', the interface whose entry wrapper " +
                        "the composition generates (it makes each call a task): delete this " +
                        "definition, or leave its source out of main.xml; its code belongs " +
                        "in the interface's variants (a sequential one: the same loop)");
  }
}

void warn_shadowed_headers(const ir::Application& app, const ir::Options& options,
                           diag::Diagnostics& diag) {
  namespace fs = std::filesystem;
  fs::path out = plan::output_dir(app, options);
  if (out.filename().empty() && out.has_relative_path()) out = out.parent_path();  // "gen/"
  std::vector<std::string> generated = {names::umbrella_header()};
  for (const ir::Interface& i : app.interfaces) {
    const std::string header = names::wrapper_file(i, options.wrapper_files_ext);
    if (std::find(generated.begin(), generated.end(), header) == generated.end()) {
      generated.push_back(header);
    }
  }
  std::set<fs::path> seen = {out};
  for (const ir::SourceFile& s : app.sources) {
    std::vector<fs::path> folders = {fs::absolute(s.path).parent_path().lexically_normal()};
    const std::vector<std::string> flags = facts::clang_flags(s.compiler.flags, out.string());
    for (size_t k = 0; k < flags.size(); ++k) {
      if ((flags[k] == "-I" || flags[k] == "-iquote") && k + 1 < flags.size()) {
        folders.push_back(fs::path(flags[++k]).lexically_normal());
      } else if (flags[k].rfind("-I", 0) == 0 && flags[k].size() > 2) {
        folders.push_back(fs::path(flags[k].substr(2)).lexically_normal());
      }
    }
    for (const fs::path& folder : folders) {
      if (!seen.insert(folder).second) continue;
      std::string found;
      int count = 0;
      for (const std::string& header : generated) {
        std::error_code ec;
        if (!fs::is_regular_file(folder / header, ec)) continue;
        found += (found.empty() ? "'" : ", '") + (folder / header).string() + "'";
        ++count;
      }
      if (count == 0) continue;
      diag.warning(s.loc, found + (count == 1 ? " shadows the header" : " shadow the headers") +
                              " of the same name that this composition writes to '" + out.string() +
                              "': '" + s.path + "' finds " + (count == 1 ? "it" : "them") +
                              " first (a quoted #include looks next to the including "
                              "file and in its -I folders before the output folder). An "
                              "earlier compose into '" +
                              folder.string() +
                              "' leaves such files: delete them (headers written by this "
                              "version of compose stop the build with an error, older ones "
                              "would be used silently)");
    }
  }
}

}  // namespace peppher::verify
