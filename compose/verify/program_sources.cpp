// The program's C++ sources with their Clang flags (see program_sources.h).
#include "compose/verify/program_sources.h"

#include <filesystem>

#include "compose/plan/wrapper_plan.h"
#include "compose/verify/source_parser.h"

namespace peppher::verify {

std::vector<ProgramSource> program_cxx_sources(
    const ir::Application& app, const std::vector<std::string>& system_include_dirs) {
  const std::string out = plan::output_dir(app);
  std::vector<ProgramSource> sources;
  for (const ir::SourceFile& s : app.sources) {
    if (plan::is_c_compiler(plan::main_source_compiler(app, s)) ||
        std::filesystem::path(s.path).extension() == ".cu") {
      continue;
    }
    ProgramSource p;
    p.path = s.path;
    p.directory = out;
    p.flags = clang_flags(s.compiler.flags, out);
    for (const std::string& dir : system_include_dirs) {
      p.flags.push_back("-isystem");
      p.flags.push_back(dir);
    }
    sources.push_back(std::move(p));
  }
  return sources;
}

}  // namespace peppher::verify
