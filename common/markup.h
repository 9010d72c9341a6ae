// Escaping text for XML and HTML, shared by compose's utility mode (descriptor skeletons)
// and the reports' page.
#pragma once

#include <string>

namespace peppher::common {

// @p s with &, <, > and " replaced by their entities (valid in element text and in
// double-quoted attribute values of XML and HTML).
std::string xml_escape(const std::string& s);

}  // namespace peppher::common
