// Path helpers for exploration: descriptor-relative resolution, lexically normalised and
// printed with '/' so diagnostics and the IR are the same on every run.
#pragma once

#include <string>

namespace peppher::explore {

// `rel` resolved against the folder holding `including_file`.
std::string resolve_relative(const std::string& including_file, const std::string& rel);
std::string normalize(const std::string& path);
std::string parent_dir(const std::string& file);  // "" for a bare file name

}  // namespace peppher::explore
