// A text search, not Clang: a program that names StarPU anywhere in its sources is taken to
// call it after PEPPHER_INITIALIZE(), where StarPU must already be up. Erring towards that
// costs the program only the overlap of its set-up with the runtime's start.
#include "compose/facts/starpu_callers.h"

#include <filesystem>

#include "common/files.h"

namespace peppher::facts {

std::string source_calling_starpu(const ir::Application& app) {
  for (const ir::SourceFile& s : app.sources) {
    std::string text;
    // A source that cannot be read fails its compile later, with the compiler's words.
    if (!files::read_file(s.path, files::kMaxDescriptorBytes, text).empty()) continue;
    // Its file name alone: the light form and its --emit-xml descriptors name it by other
    // paths, and generate the same peppher.h.
    if (text.find("starpu_") != std::string::npos)
      return std::filesystem::path(s.path).filename().string();
  }
  return "";
}

}  // namespace peppher::facts
