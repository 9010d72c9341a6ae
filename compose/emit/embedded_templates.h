// The Mustache templates of every generated file, compiled into the composer from
// templates/ by cmake/EmbedTemplates.cmake. Keyed by file name without ".mustache".
#pragma once

#include <map>
#include <string>

namespace peppher::emit {

const std::map<std::string, std::string>& embedded_templates();

}  // namespace peppher::emit
