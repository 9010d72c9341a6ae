// Entry points of the reader: load a descriptor file, validate it (doc.cpp), check the
// shape of <peppher:component> and build the IR pieces (build.cpp).
#include "compose/read/reader.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compose/read/build.h"

namespace peppher::read {

Descriptor read_descriptor_file(const std::string& path, const ir::SourceLoc& from,
                                diag::Diagnostics& diag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    Descriptor d;
    d.file = path;
    std::error_code ec;
    std::string why =
        std::filesystem::is_directory(path, ec) ? "it is a folder" : std::strerror(errno);
    diag.error(from, "cannot open descriptor '" + path + "': " + why);
    return d;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return read_descriptor_text(path, ss.str(), diag);
}

Descriptor read_descriptor_text(const std::string& path, std::string text,
                                diag::Diagnostics& diag) {
  Descriptor out;
  out.file = path;
  Doc doc(path, std::move(text), diag);
  if (!doc.load()) return out;
  pugi::xml_node root = doc.root();
  out.ok = true;
  out.root_loc = doc.loc(root);

  std::vector<pugi::xml_node> interfaces = doc.children(root, "interface");
  std::vector<pugi::xml_node> impls = doc.children(root, "implementation");
  std::vector<pugi::xml_node> platforms = doc.children(root, "platform");
  int kinds = !interfaces.empty() + !impls.empty() + !platforms.empty();
  if (kinds == 0) {
    diag.error(out.root_loc, "descriptor holds no '" + doc.qualified("interface") + "', '" +
                                 doc.qualified("implementation") + "' or '" +
                                 doc.qualified("platform") + "'");
    return out;
  }
  if (kinds > 1) {
    diag.error(out.root_loc,
               "a descriptor holds one interface, or implementations, or one "
               "platform; this one mixes them (split it into several files)");
  }
  if (!interfaces.empty()) {
    for (size_t i = 1; i < interfaces.size(); ++i) {
      diag.error(doc.loc(interfaces[i]),
                 "more than one interface in one descriptor; write "
                 "one interface descriptor per file");
    }
    out.interface = build_interface(doc, interfaces[0]);
  }
  for (pugi::xml_node n : impls) out.implementations.push_back(build_implementation(doc, n));
  if (!platforms.empty()) {
    for (size_t i = 1; i < platforms.size(); ++i) {
      diag.error(doc.loc(platforms[i]), "more than one platform in one descriptor");
    }
    out.platform = build_platform(doc, platforms[0]);
  }
  return out;
}

}  // namespace peppher::read
