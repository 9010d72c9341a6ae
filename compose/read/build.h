// Internal to read/: builders from validated XML elements to IR pieces (build.cpp).
#pragma once

#include "compose/read/doc.h"
#include "compose/read/reader.h"

namespace peppher::read {

ir::Interface build_interface(const Doc& d, pugi::xml_node n);
Implementation build_implementation(const Doc& d, pugi::xml_node n);
ir::Platform build_platform(const Doc& d, pugi::xml_node n);

}  // namespace peppher::read
