// The PEPPHER descriptor vocabulary the reader accepts (FORMAT.md): for each element in
// the PEPPHER namespace, its attributes, required attributes and allowed children.
#pragma once

#include <string>
#include <vector>

namespace peppher::read {

inline constexpr const char* kPeppherNamespace = "http://www.peppher.eu/ComponentMetaData0.1";

struct ElementSpec {
  const char* name;
  std::vector<const char*> attributes;
  std::vector<const char*> required;
  std::vector<const char*> children;
  bool text = false;  // holds character data (name, flags, description, ...)
};

// The spec of element `name`, or null when it is not a PEPPHER element.
const ElementSpec* find_element(const std::string& name);
const std::vector<ElementSpec>& all_elements();
bool has_attribute(const ElementSpec& spec, const std::string& attr);
bool allows_child(const ElementSpec& spec, const std::string& child);

}  // namespace peppher::read
