// Descriptor-relative path resolution used by exploration.
#include "compose/explore/paths.h"

#include <filesystem>
#include <sstream>
#include <vector>

namespace peppher::explore {

namespace fs = std::filesystem;

std::string normalize(const std::string& path) {
  std::string s = fs::path(path).lexically_normal().generic_string();
  if (s.empty()) return ".";
  return s;
}

std::string parent_dir(const std::string& file) {
  return fs::path(file).parent_path().generic_string();
}

std::string resolve_relative(const std::string& including_file, const std::string& rel) {
  fs::path r(rel);
  if (r.is_absolute()) return normalize(rel);
  return normalize((fs::path(parent_dir(including_file)) / r).generic_string());
}

namespace {

// The path of `word` (a path option's argument, or a bare word) as seen from `out`, or ""
// to keep the word as written.
std::string rebased(const std::string& word, const fs::path& main, const fs::path& own,
                    const fs::path& out, bool path_option) {
  // `$(PREFIX)/lib`: where a variable points is known only when make runs.
  if (word.empty() || word[0] == '$' || fs::path(word).is_absolute()) return "";
  std::error_code ec;
  fs::path base = main;
  if (!fs::exists(main / word, ec) && fs::exists(own / word, ec)) base = own;
  if (!path_option && !fs::is_regular_file(base / word, ec)) return "";  // not a file
  std::string moved = (base / word).lexically_normal().lexically_relative(out).generic_string();
  if (moved.empty()) moved = ".";
  if (moved.find_first_of(" \t") != std::string::npos) return "";
  return moved == fs::path(word).lexically_normal().generic_string() ? "" : moved;
}

}  // namespace

std::string rebase_flags(const std::string& flags, const std::string& main_dir,
                         const std::string& own_dir, const std::string& out_dir) {
  const fs::path main = fs::absolute(main_dir.empty() ? "." : main_dir).lexically_normal();
  const fs::path own = fs::absolute(own_dir.empty() ? "." : own_dir).lexically_normal();
  const fs::path out = fs::absolute(out_dir.empty() ? "." : out_dir).lexically_normal();
  static const std::vector<std::string> kPathOptions = {
      "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-I", "-L"};
  std::istringstream in(flags);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  bool changed = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    std::string option;  // kept before the rewritten path
    for (const std::string& o : kPathOptions) {
      if (w.compare(0, o.size(), o) == 0) {
        option = o;
        break;
      }
    }
    const bool bare = option.empty();
    if (bare && w[0] == '-') continue;         // another option
    if (!bare && w.size() == option.size()) {  // the path is the next word
      if (++i == words.size()) break;
      option.clear();
    }
    const std::string moved = rebased(words[i].substr(option.size()), main, own, out, !bare);
    if (moved.empty()) continue;
    words[i] = option + moved;
    changed = true;
  }
  if (!changed) return flags;
  std::string result;
  for (const std::string& w : words) result += (result.empty() ? "" : " ") + w;
  return result;
}

}  // namespace peppher::explore
