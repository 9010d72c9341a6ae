// Small string helpers every stage uses (trimming, splitting lists, lower case): one copy.
#pragma once

#include <string>
#include <vector>

namespace peppher::text {

/// `s` without leading and trailing blanks (space, tab, CR, LF).
std::string trim(const std::string& s);

/// The items of a `sep`-separated list, each trimmed; empty items are dropped.
std::vector<std::string> split_list(const std::string& s, char sep);

/// `s` in ASCII lower case.
std::string lower(std::string s);

}  // namespace peppher::text
