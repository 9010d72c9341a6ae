// Reads a light-form variant file's annotation comments (`// PEPPHER_NAME(value) ...` on a
// line of its own) into the variant: what an implementation descriptor's compiler element,
// constraints and OpenCL launch sizes say, located at the annotation in the variant file.
#include "compose/light/variant_annotations.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>
#include <vector>

#include "compose/ir/toolchain.h"
#include "compose/util/text.h"

namespace peppher::light {
namespace {

const std::vector<std::string>& known_names() {
  static const std::vector<std::string> kNames = {
      "PEPPHER_FLAGS",      "PEPPHER_COMPILER", "PEPPHER_CONSTRAINT", "PEPPHER_GLOBAL_SIZE",
      "PEPPHER_LOCAL_SIZE", "PEPPHER_KERNEL",   "PEPPHER_BACKEND"};
  return kNames;
}

std::string known_list() {
  std::string s;
  for (const std::string& n : known_names()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// One annotation as written: NAME(value), each located (1-based columns).
struct Written {
  std::string name;
  std::string value;
  ir::SourceLoc loc;        // the name
  ir::SourceLoc value_loc;  // the value's first character
};

ir::Expression expression(const std::string& text, const ir::SourceLoc& loc) {
  ir::Expression e;
  e.text = text;
  e.raw = text;
  e.loc = loc;
  return e;
}

// "a, (b, c)" -> "a" and "(b, c)", each located; an empty item is an error.
std::vector<ir::Expression> launch_sizes(const Written& w, diag::Diagnostics& diag) {
  std::vector<ir::Expression> out;
  int depth = 0;
  size_t from = 0;
  const std::string& v = w.value;
  for (size_t i = 0; i <= v.size(); ++i) {
    if (i < v.size() && v[i] == '(') ++depth;
    if (i < v.size() && v[i] == ')') --depth;
    if (i < v.size() && (v[i] != ',' || depth != 0)) continue;
    const std::string item = v.substr(from, i - from);
    const size_t b = item.find_first_not_of(" \t");
    ir::SourceLoc at = w.value_loc;
    at.col += static_cast<int>(from + (b == std::string::npos ? 0 : b));
    if (b == std::string::npos) {
      diag.error(at, w.name + "(" + v +
                         ") has an empty size; give 1 to 3 comma-separated "
                         "expressions, dimension 0 first");
      return {};
    }
    out.push_back(expression(item.substr(b, item.find_last_not_of(" \t") - b + 1), at));
    from = i + 1;
  }
  if (out.size() > 3) {
    diag.error(w.loc, w.name + "(" + v + ") has " + std::to_string(out.size()) +
                          " dimensions; an OpenCL NDRange has 1 to 3, dimension 0 first");
    return {};
  }
  return out;
}

// The annotations of one comment line: after `//`, NAME(value) items separated by blanks.
// Returns false (after an error) when the line is not made of such items only.
bool parse_line(const std::string& line, size_t at, const ir::SourceLoc& line_loc,
                std::vector<Written>& out, diag::Diagnostics& diag) {
  size_t i = at;
  while (true) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size()) return true;
    ir::SourceLoc loc = line_loc;
    loc.col = static_cast<int>(i) + 1;
    size_t end = i;
    while (end < line.size() &&
           (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_'))
      ++end;
    const std::string name = line.substr(i, end - i);
    if (name.rfind("PEPPHER_", 0) != 0) {
      diag.error(loc, "a variant annotation line holds PEPPHER_NAME(value) items only; '" +
                          line.substr(i) + "' is not one (write other text on a line of its own)");
      return false;
    }
    if (end >= line.size() || line[end] != '(') {
      diag.error(loc, name + " takes its value in parentheses, e.g. " + name + "(...)");
      return false;
    }
    int depth = 0;
    size_t close = end;
    for (; close < line.size(); ++close) {
      if (line[close] == '(') ++depth;
      if (line[close] == ')' && --depth == 0) break;
    }
    if (close >= line.size()) {
      diag.error(loc, name + "( has no closing parenthesis on its line");
      return false;
    }
    Written w;
    w.name = name;
    w.loc = loc;
    w.value = text::trim(line.substr(end + 1, close - end - 1));
    w.value_loc = line_loc;
    w.value_loc.col = static_cast<int>(line.find_first_not_of(" \t", end + 1)) + 1;
    out.push_back(std::move(w));
    i = close + 1;
  }
}

// Every annotation of `path`, in order: lines whose first text is `// PEPPHER_`.
std::vector<Written> read_file(const std::string& path, diag::Diagnostics& diag) {
  std::vector<Written> out;
  for_each_annotation_line(path, [&](const std::string& line, size_t first, int number) {
    parse_line(line, first, ir::SourceLoc{path, number, 1}, out, diag);
    return true;
  });
  return out;
}

// The annotations of one file `s` of variant `v` (a host-side OpenCL variant has two: the
// host file and its kernel file) into `v`.
void read_file_annotations(ir::Variant& v, ir::SourceFile& s, bool host_side,
                           std::vector<std::string>& seen, diag::Diagnostics& diag) {
  const bool kernel = ir::is_opencl_source(s);
  for (const Written& w : read_file(s.path, diag)) {
    const bool known =
        std::find(known_names().begin(), known_names().end(), w.name) != known_names().end();
    if (!known) {
      diag.error(w.loc, "unknown variant annotation '" + w.name + "'" +
                            diag::did_you_mean(diag::closest_match_in(w.name, known_names())) +
                            " (a variant file takes " + known_list() +
                            "; see docs/FORMAT.md, Light form)");
      continue;
    }
    if (w.value.empty()) {
      diag.error(w.loc, w.name + "() is empty; give its value in the parentheses");
      continue;
    }
    if (w.name != "PEPPHER_CONSTRAINT") {
      if (std::find(seen.begin(), seen.end(), w.name) != seen.end()) {
        diag.error(w.loc, w.name + " is given twice in '" + s.name + "'; keep one");
        continue;
      }
      seen.push_back(w.name);
    }
    const bool launch = w.name == "PEPPHER_GLOBAL_SIZE" || w.name == "PEPPHER_LOCAL_SIZE";
    if (launch && host_side) {
      diag.error(w.loc, w.name +
                            " is a launch size of the kernel the generated wrapper launches; "
                            "a host-side OpenCL variant ('" +
                            v.sources.front().name + "') launches its kernels itself");
      continue;
    }
    if (launch && !kernel) {
      diag.error(w.loc, w.name + " is an OpenCL launch size; it belongs in the kernel file " +
                            v.provides + "_opencl.cl, not in '" + s.name + "'");
      continue;
    }
    if (w.name == "PEPPHER_KERNEL" && (!host_side || kernel)) {
      diag.error(w.loc, "PEPPHER_KERNEL names the kernel of " + v.provides +
                            "_opencl.cl that a host-side OpenCL variant's variable " + v.provides +
                            "_kernel holds; it belongs in the host file " + v.provides +
                            "_opencl.cpp (or .c), not in '" + s.name + "'");
      continue;
    }
    if (w.name == "PEPPHER_BACKEND") {
      // Applied when the folder was listed (variant_files.cpp); a backend's own file name
      // already says it.
      if (v.from["targetPlatform"].rfind("file name", 0) == 0) {
        diag.error(w.loc,
                   "PEPPHER_BACKEND makes a file that is not named after a backend a "
                   "further variant; '" +
                       s.name + "' is named after its backend already");
      }
      continue;
    }
    const bool build = w.name == "PEPPHER_FLAGS" || w.name == "PEPPHER_COMPILER";
    if (build && kernel) {
      diag.error(w.loc, w.name +
                            " sets how a variant's source compiles; an OpenCL kernel file is "
                            "built at run time by the OpenCL implementation");
      continue;
    }
    const std::string at = "annotation at " + w.loc.file + ":" + std::to_string(w.loc.line) + ":" +
                           std::to_string(w.loc.col);
    if (w.name == "PEPPHER_FLAGS") {
      v.from["flags"] = at;
      s.compiler.flags = w.value;
      s.compiler.loc = w.loc;
    } else if (w.name == "PEPPHER_COMPILER") {
      s.compiler.name = w.value;
      v.from["compiler"] = at;
      s.compiler.loc = w.loc;
    } else if (w.name == "PEPPHER_CONSTRAINT") {
      ir::Constraint c;
      c.loc = w.loc;
      c.name = "constraint" + std::to_string(v.constraints.size() + 1);
      v.from[c.name] = at;
      c.expr = expression(w.value, w.value_loc);
      v.constraints.push_back(std::move(c));
    } else if (w.name == "PEPPHER_KERNEL") {
      // The kernel file's kernel= and the host file's cl_kernel, as the XML form has them.
      s.cl_kernel = v.provides + "_kernel";
      v.from["cl_kernel"] = at;
      v.from["kernel"] = at;
      for (ir::SourceFile& k : v.sources) {
        if (ir::is_opencl_source(k)) k.kernel = w.value;
      }
    } else if (w.name == "PEPPHER_GLOBAL_SIZE") {
      s.global_size = launch_sizes(w, diag);
      v.from["globalSize"] = at;
    } else {
      s.local_size = launch_sizes(w, diag);
      v.from["localSize"] = at;
    }
  }
}

}  // namespace

void read_variant_annotations(ir::Variant& v, diag::Diagnostics& diag) {
  const bool host_side = ir::host_side_source(v) != nullptr;
  std::vector<std::string> seen;  // across the variant's files: one FLAGS, one KERNEL, ...
  for (ir::SourceFile& s : v.sources) read_file_annotations(v, s, host_side, seen, diag);
}

void for_each_annotation_line(
    const std::string& path,
    const std::function<bool(const std::string& line, size_t first, int number)>& line_fn) {
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const size_t text = line.find_first_not_of(" \t");
    if (text == std::string::npos || line.compare(text, 2, "//") != 0) continue;
    const size_t first = line.find_first_not_of(" \t/", text);
    if (first == std::string::npos || line.compare(first, 8, "PEPPHER_") != 0) continue;
    if (!line_fn(line, first, number)) return;
  }
}

}  // namespace peppher::light
