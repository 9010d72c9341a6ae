// Internal to read/: a parsed, namespace-resolved, vocabulary-validated XML descriptor
// with position-aware accessors. reader.cpp builds and validates it; build.cpp maps it to IR.
#pragma once

#include <pugixml.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/ir/ir.h"
#include "compose/read/line_table.h"
#include "compose/read/vocabulary.h"

namespace peppher::read {

class Doc {
 public:
  Doc(std::string file, std::string text, diag::Diagnostics& diag);

  // Parses and validates; false if the XML is malformed or the root is not ours.
  bool load();
  pugi::xml_node root() const { return root_; }
  diag::Diagnostics& diag() const { return diag_; }

  // PEPPHER-namespace children of `node` named `local`, in document order.
  std::vector<pugi::xml_node> children(pugi::xml_node node, const char* local) const;
  // The only such child (reports duplicates at the second one), or a null node.
  pugi::xml_node single_child(pugi::xml_node node, const char* local) const;
  // The element's local name if it is a valid PEPPHER element, else "".
  std::string local_name(pugi::xml_node node) const;
  std::string qualified(const char* local) const { return prefix_ + local; }

  pugi::xml_attribute attr(pugi::xml_node node, const char* local) const;
  std::string text(pugi::xml_node node) const;  // trimmed character data

  ir::SourceLoc loc(pugi::xml_node node) const;          // at '<'
  ir::SourceLoc attr_loc(pugi::xml_attribute a) const;   // at the attribute name
  ir::SourceLoc value_loc(pugi::xml_attribute a) const;  // at the value's first character
  ir::SourceLoc text_loc(pugi::xml_node node) const;
  // The attribute value (or the part [start, start+len) of it) as an expression.
  ir::Expression expr(pugi::xml_attribute a, size_t start = 0,
                      size_t len = std::string::npos) const;

  // Boolean attribute (1/0/true/false); reports other values and returns `fallback`.
  bool boolean(pugi::xml_node node, const char* local, bool fallback) const;

 private:
  void validate(pugi::xml_node node, const ElementSpec* parent, int depth);
  std::string resolve_prefix(const std::string& prefix) const;
  size_t offset_of(const char* p) const;

  std::string file_;
  std::string original_;  // untouched copy for raw attribute spellings
  std::string buffer_;    // parsed in place by pugixml
  LineTable lines_;
  diag::Diagnostics& diag_;
  pugi::xml_document doc_;
  pugi::xml_node root_;
  std::string prefix_ = "peppher:";  // prefix used for the root, for messages
  std::vector<std::pair<std::string, std::string>> scope_;  // prefix -> namespace URI
  std::unordered_map<const void*, const ElementSpec*> ours_;
};

}  // namespace peppher::read
