// XPDL platform queries (see platform_queries.h): reading their names, and answering
// is_installed from the platform descriptor or by looking at this machine.
#include "compose/check/platform_queries.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "compose/expr/parser.h"
#include "compose/ir/backends.h"
#include "compose/runtime_location.h"
#include "compose/util/text.h"

namespace peppher::check {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSystem = "xpdl::system::";

// A queried name split into what and which version: XPDL names a library by its id and
// version joined with '_' ("xpdl_cublas_5_0": cublas 5.0); the "xpdl_" prefix is optional.
struct Wanted {
  std::string base;     // "cublas"
  std::string version;  // "5.0", or "" for any version
};

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

Wanted decode(std::string name) {
  if (name.rfind("xpdl_", 0) == 0 && name.size() > 5) name = name.substr(5);
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t k = 0; k <= name.size(); ++k) {
    if (k == name.size() || name[k] == '_') {
      parts.push_back(name.substr(start, k - start));
      start = k + 1;
    }
  }
  size_t first_version = parts.size();
  while (first_version > 1 && all_digits(parts[first_version - 1])) --first_version;
  Wanted w;
  for (size_t k = 0; k < parts.size(); ++k) {
    std::string& into = k < first_version ? w.base : w.version;
    const char* sep = k < first_version ? "_" : ".";
    into += (into.empty() ? "" : sep) + parts[k];
  }
  return w;
}

std::vector<std::string> components(const std::string& version) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : version) {
    if (c == '.' || c == '_' || c == '-') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// "5.0" is met by 5.0 and 5.0.3, not by 5.01 or 6.0; no version wanted is met by any.
bool version_meets(const std::string& wanted, const std::string& found) {
  if (wanted.empty()) return true;
  std::vector<std::string> w = components(wanted), f = components(found);
  return f.size() >= w.size() && std::equal(w.begin(), w.end(), f.begin());
}

// Standard output of a shell command whose words are all checked names (no quoting needed).
std::string capture(const std::string& command) {
  std::string out;
  if (FILE* p = ::popen((command + " 2>/dev/null").c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
  return out;
}

bool safe_word(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
           c == '+';
  });
}

// The folders the linker searches: the compiler's, then LIBRARY_PATH and LD_LIBRARY_PATH.
const std::vector<std::string>& linker_dirs() {
  static const std::vector<std::string> kDirs = [] {
    std::vector<std::string> out;
    auto add = [&](const std::string& d) {
      std::error_code ec;
      if (d.empty() || !fs::is_directory(d, ec)) return;
      std::string n = fs::weakly_canonical(d, ec).string();
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    };
    for (const std::string& line : text::split_list(capture("cc -print-search-dirs"), '\n')) {
      if (line.rfind("libraries: =", 0) == 0) {
        for (const std::string& d : text::split_list(line.substr(12), ':')) add(d);
      }
    }
    for (const char* var : {"LIBRARY_PATH", "LD_LIBRARY_PATH"}) {
      if (const char* v = std::getenv(var)) {
        for (const std::string& d : text::split_list(v, ':')) add(d);
      }
    }
    for (const char* d : {"/usr/local/lib", "/usr/lib", "/lib"}) add(d);
    return out;
  }();
  return kDirs;
}

// The version in a library file's name: "libcublas.so.5.0" -> "5.0", "libstarpu-1.3.so" ->
// "1.3", "libm.so" -> ""; nullopt when the file is not library `base` at all.
std::optional<std::string> library_file_version(const std::string& file, const std::string& base) {
  const std::string stem = "lib" + base;
  if (file.rfind(stem, 0) != 0) return std::nullopt;
  std::string rest = file.substr(stem.size());
  std::string version;
  if (!rest.empty() && rest[0] == '-') {  // libstarpu-1.3.so
    const size_t end = rest.find(".so") != std::string::npos ? rest.find(".so") : rest.find(".a");
    if (end == std::string::npos) return std::nullopt;
    version = rest.substr(1, end - 1);
    rest = rest.substr(end);
  }
  if (rest == ".a" || rest == ".so") return version;
  if (rest.rfind(".so.", 0) == 0 && version.empty()) return rest.substr(4);
  return std::nullopt;
}

std::string library_on_machine(const Wanted& w, bool& installed) {
  std::string evidence;
  // pkg-config: the library's module, or one named with its version (starpu-1.3). StarPU's
  // modules carry their version in the name (starpu-1.4): the one generated builds use comes
  // first, so that xpdl_starpu and xpdl_starpu_1 find it, with its version checked.
  std::vector<std::string> modules = {w.base};
  if (w.base == "starpu") modules.push_back(starpu_module());
  if (!w.version.empty() && w.base + "-" + w.version != modules.back()) {
    modules.push_back(w.base + "-" + w.version);
  }
  for (const std::string& m : modules) {
    if (!safe_word(m)) continue;
    const std::string version = capture("pkg-config --modversion " + m);
    if (version.empty()) continue;
    const bool named_as_wanted = m == w.base + "-" + w.version;
    if (named_as_wanted || version_meets(w.version, version)) {
      installed = true;
      return "pkg-config module '" + m + "' (version " + version + ")";
    }
    evidence = "pkg-config module '" + m + "' has version " + version + ", not " + w.version;
  }
  // The linker's search path: lib<base>.so / .a, with the version in the file name.
  std::vector<std::string> other_versions;
  for (const std::string& dir : linker_dirs()) {
    std::error_code ec;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
      std::optional<std::string> v = library_file_version(f, w.base);
      if (!v) continue;
      if (version_meets(w.version, *v) || (v->empty() && w.version.empty())) {
        installed = true;
        return dir + "/" + f;
      }
      if (!v->empty()) other_versions.push_back(dir + "/" + f);
    }
  }
  std::string searched = "no pkg-config module '" + w.base + "'";
  if (!evidence.empty()) searched = evidence;
  searched += w.version.empty() ? ", no lib" + w.base + ".so or .a"
                                : ", no lib" + w.base + " " + w.version + " file";
  searched += " in the linker's search path";
  if (!other_versions.empty()) searched += " (found " + other_versions.front() + ")";
  return searched;
}

// Programs (XPDL's softwares): an executable in PATH named base, or base-VERSION /
// baseVERSION when a version is asked for (gcc-12, python3.11).
std::string software_on_machine(const Wanted& w, bool& installed) {
  std::vector<std::string> names;
  if (w.version.empty())
    names = {w.base};
  else
    names = {w.base + "-" + w.version, w.base + w.version};
  const char* path = std::getenv("PATH");
  for (const std::string& dir : text::split_list(path != nullptr ? path : "", ':')) {
    for (const std::string& n : names) {
      std::error_code ec;
      fs::path p = fs::path(dir) / n;
      if (fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) {
        installed = true;
        return "executable " + p.string();
      }
    }
  }
  return "no executable '" + names.front() + "'" +
         (names.size() > 1 ? " or '" + names.back() + "'" : "") + " in PATH";
}

// Operating systems (XPDL's oss): /etc/os-release's ID and VERSION_ID, or "linux".
std::string os_on_machine(const Wanted& w, bool& installed) {
  std::ifstream in("/etc/os-release");
  std::string line, id, version;
  while (std::getline(in, line)) {
    auto value = [&](const char* key) {
      std::string v = line.substr(std::string(key).size());
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      return v;
    };
    if (line.rfind("ID=", 0) == 0) id = value("ID=");
    if (line.rfind("VERSION_ID=", 0) == 0) version = value("VERSION_ID=");
  }
  const std::string lower = text::lower(w.base);
  const std::string here = id + (version.empty() ? "" : " " + version);
  if ((lower == id && version_meets(w.version, version)) ||
      (lower == "linux" && w.version.empty())) {
    installed = true;
    return "this machine runs " + here + " (/etc/os-release)";
  }
  return "this machine runs " + (here.empty() ? std::string("an unknown system") : here) +
         " (/etc/os-release)";
}

const char* item_element(const std::string& set) {
  for (const ir::XpdlSet& s : ir::kXpdlSets) {
    if (set == s.set) return s.element;
  }
  return "os";
}

ir::InstalledFact answer(const ir::Application& app, const std::string& set,
                         const std::string& name) {
  ir::InstalledFact fact;
  fact.set = set;
  fact.name = name;
  const Wanted w = decode(name);
  // A platform descriptor that lists any item of this set lists all of them.
  if (app.platform) {
    std::vector<const ir::InstalledItem*> listed;
    for (const ir::InstalledItem& it : app.platform->installed)
      if (it.set == set) listed.push_back(&it);
    if (!listed.empty()) {
      const std::string file = fs::path(app.platform->file).filename().string();
      for (const ir::InstalledItem* it : listed) {
        Wanted have = decode(it->name);
        if (!it->version.empty()) have.version = it->version;
        if (have.base == w.base && version_meets(w.version, have.version)) {
          fact.installed = true;
          fact.evidence = std::string("listed in ") + file + " (<" + item_element(set) +
                          " name=\"" + it->name + "\"" +
                          (it->version.empty() ? "" : " version=\"" + it->version + "\"") +
                          "/>, line " + std::to_string(it->loc.line) + ")";
          return fact;
        }
      }
      fact.evidence =
          "not among the " + std::to_string(listed.size()) + " " + set + " " + file + " lists";
      return fact;
    }
  }
  if (set == "libraries")
    fact.evidence = library_on_machine(w, fact.installed);
  else if (set == "softwares")
    fact.evidence = software_on_machine(w, fact.installed);
  else
    fact.evidence = os_on_machine(w, fact.installed);
  fact.evidence += " (no platform descriptor lists " + set + ")";
  return fact;
}

}  // namespace

std::optional<InstalledQuery> installed_query(const std::string& identifier) {
  const std::string head = "xpdl::is_installed<", tail = ">::value";
  if (identifier.rfind(head, 0) != 0 || identifier.size() < head.size() + tail.size() ||
      identifier.compare(identifier.size() - tail.size(), tail.size(), tail) != 0) {
    return std::nullopt;
  }
  const std::string args =
      identifier.substr(head.size(), identifier.size() - head.size() - tail.size());
  const size_t comma = args.find(',');
  if (comma == std::string::npos) return std::nullopt;
  return InstalledQuery{args.substr(0, comma), args.substr(comma + 1)};
}

std::optional<std::string> xpdl_system_property(const std::string& identifier) {
  if (identifier == "XPDL_NUM_OF_GPUS") return "num_cuda";
  if (identifier.rfind(kSystem, 0) != 0) return std::nullopt;
  const std::string name = identifier.substr(std::string(kSystem).size());
  if (name.empty() || name.find(':') != std::string::npos) return std::nullopt;
  if (name == "num_of_gpus") return "num_cuda";
  if (name == "num_of_cpus") return "num_cpus";
  return name;
}

std::optional<std::string> platform_property(const std::string& identifier) {
  const std::string platform = "platform.";
  if (identifier.rfind(platform, 0) == 0) return identifier.substr(platform.size());
  return xpdl_system_property(identifier);
}

std::optional<ir::Backend> worker_backend(const std::string& property) {
  for (ir::Backend b : ir::codelet_groups()) {
    if (property == ir::info(b).worker_property) return b;
  }
  return std::nullopt;
}

std::string installed_set(const std::string& written) {
  for (const ir::XpdlSet& s : ir::kXpdlSets) {
    if (written == std::string(kSystem) + s.set) return s.set;
  }
  return "";
}

void resolve_platform_queries(ir::Application& app) {
  for (const ir::Interface& iface : app.interfaces) {
    for (const ir::Variant& v : iface.variants) {
      for (const ir::Constraint& c : v.constraints) {
        if (!c.expr.ast) continue;
        std::vector<const expr::Node*> ids;
        expr::collect_identifiers(*c.expr.ast, ids);
        for (const expr::Node* id : ids) {
          std::optional<InstalledQuery> q = installed_query(id->text);
          if (!q || app.installed.count(id->text)) continue;
          const std::string set = installed_set(q->set);
          if (set.empty()) continue;  // reported by resolve_expression
          app.installed[id->text] = answer(app, set, q->name);
        }
      }
    }
  }
}

}  // namespace peppher::check
