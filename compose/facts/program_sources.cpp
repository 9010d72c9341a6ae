// The program's own sources with their Clang flags (see program_sources.h).
#include "compose/facts/program_sources.h"

#include <filesystem>

#include "compose/facts/source_parser.h"
#include "compose/plan/wrapper_plan.h"

namespace peppher::facts {

std::vector<ProgramSource> program_sources(const ir::Application& app, const ir::Options& options,
                                           const std::vector<std::string>& main_source_flags,
                                           const std::vector<std::string>& system_include_dirs,
                                           bool with_c) {
  const std::string out = plan::output_dir(app, options);
  std::vector<ProgramSource> sources;
  size_t index = 0;
  for (const ir::SourceFile& s : app.sources) {
    const std::string& flags = main_source_flags[index++];
    const bool c = plan::is_c_compiler(plan::main_source_compiler(app, s));
    if ((c && !with_c) || std::filesystem::path(s.path).extension() == ".cu") continue;
    ProgramSource p;
    p.path = s.path;
    p.c = c;
    p.directory = out;
    p.flags = clang_flags(flags, out);
    for (const std::string& dir : system_include_dirs) {
      p.flags.push_back("-isystem");
      p.flags.push_back(dir);
    }
    sources.push_back(std::move(p));
  }
  return sources;
}

}  // namespace peppher::facts
