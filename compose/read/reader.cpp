// Entry points of the reader: load a descriptor file, validate it (doc.cpp), check the
// shape of <peppher:component> and build the IR pieces (build.cpp).
#include "compose/read/reader.h"

#include <utility>

#include "common/files.h"
#include "compose/read/build.h"

namespace peppher::read {
namespace {

// A descriptor saved as UTF-16 (with its byte order mark, as XML requires), as UTF-8: the
// parser reads bytes, and positions then count the UTF-8 text's lines and columns.
std::string utf16_to_utf8(const std::string& text) {
  const bool big_endian = text[0] == '\xFE';
  auto unit = [&](size_t i) {
    const auto hi = static_cast<unsigned char>(text[big_endian ? i : i + 1]);
    const auto lo = static_cast<unsigned char>(text[big_endian ? i + 1 : i]);
    return static_cast<char32_t>(hi << 8 | lo);
  };
  std::string out;
  for (size_t i = 2; i + 1 < text.size(); i += 2) {
    char32_t c = unit(i);
    if (c >= 0xD800 && c < 0xDC00 && i + 3 < text.size()) {
      const char32_t low = unit(i + 2);
      if (low >= 0xDC00 && low < 0xE000) {
        c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
        i += 2;
      }
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | c >> 6);
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | c >> 12);
      out += static_cast<char>(0x80 | (c >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | c >> 18);
      out += static_cast<char>(0x80 | (c >> 12 & 0x3F));
      out += static_cast<char>(0x80 | (c >> 6 & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

bool is_utf16(const std::string& text) {
  return text.size() >= 2 &&
         ((text[0] == '\xFF' && text[1] == '\xFE') || (text[0] == '\xFE' && text[1] == '\xFF'));
}

}  // namespace

Descriptor read_descriptor_file(const std::string& path, const ir::SourceLoc& from,
                                diag::Diagnostics& diag) {
  std::string text;
  const std::string problem = files::read_file(path, files::kMaxDescriptorBytes, text);
  if (!problem.empty()) {
    Descriptor d;
    d.file = path;
    diag.error(from, "descriptor '" + path + "' " + problem);
    return d;
  }
  return read_descriptor_text(path, std::move(text), diag);
}

Descriptor read_descriptor_text(const std::string& path, std::string text,
                                diag::Diagnostics& diag) {
  Descriptor out;
  out.file = path;
  if (is_utf16(text)) text = utf16_to_utf8(text);
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
