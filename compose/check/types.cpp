// Type classification for parameters (see types.h): a small hand-written scan, enough for
// the declarations descriptors use (`const float *`, `peppher::Vector<T> &`, `int`, ...).
#include "compose/check/types.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <sstream>

#include "compose/util/text.h"

namespace peppher::check {
namespace {

using text::trim;

// Removes the word `const` and collapses blanks: "const  unsigned int" -> "unsigned int".
std::string strip_const(const std::string& s, bool& had_const) {
  std::istringstream in(s);
  std::string word, out;
  while (in >> word) {
    if (word == "const") {
      had_const = true;
      continue;
    }
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

bool is_arithmetic(const std::string& t) {
  static const std::set<std::string> kTypes = {"bool",
                                               "char",
                                               "signed char",
                                               "unsigned char",
                                               "short",
                                               "short int",
                                               "unsigned short",
                                               "unsigned short int",
                                               "int",
                                               "signed",
                                               "signed int",
                                               "unsigned",
                                               "unsigned int",
                                               "long",
                                               "long int",
                                               "unsigned long",
                                               "unsigned long int",
                                               "long long",
                                               "long long int",
                                               "unsigned long long",
                                               "unsigned long long int",
                                               "float",
                                               "double",
                                               "long double",
                                               "size_t",
                                               "std::size_t",
                                               "ptrdiff_t",
                                               "std::ptrdiff_t",
                                               "int8_t",
                                               "int16_t",
                                               "int32_t",
                                               "int64_t",
                                               "uint8_t",
                                               "uint16_t",
                                               "uint32_t",
                                               "uint64_t",
                                               "std::int32_t",
                                               "std::int64_t",
                                               "std::uint32_t",
                                               "std::uint64_t"};
  return kTypes.count(t) > 0;
}

}  // namespace

bool is_arithmetic_type(const std::string& t) {
  bool had_const = false;
  return is_arithmetic(strip_const(t, had_const));
}

TypeInfo classify_type(const std::string& type_in, const std::vector<std::string>& template_types) {
  TypeInfo info;
  std::string type = trim(type_in);
  if (type.empty()) return info;  // the reader reported it
  static const std::pair<const char*, ir::ParamKind> kContainers[] = {
      {"Vector", ir::ParamKind::Vector},
      {"Matrix", ir::ParamKind::Matrix},
      {"Scalar", ir::ParamKind::ScalarContainer}};
  for (const auto& [name, kind] : kContainers) {
    std::string key = std::string(name) + "<";
    size_t at = type.find(key);
    if (at == std::string::npos) continue;
    std::string before = trim(type.substr(0, at));
    bool had_const = false;
    before = strip_const(before, had_const);
    if (!before.empty() && before != "peppher::") continue;  // e.g. std::Vector<...>
    size_t open = at + key.size() - 1;
    size_t close = type.rfind('>');
    if (close == std::string::npos || close < open) {
      info.problem = "has an unbalanced '<' in its type";
      return info;
    }
    info.kind = kind;
    info.elem_type = strip_const(type.substr(open + 1, close - open - 1), had_const);
    info.is_const = had_const;
    std::string after = trim(type.substr(close + 1));
    if (after.find('*') != std::string::npos) {
      info.problem = "is a pointer to a container; pass the container by reference ('" +
                     std::string(name) + "<" + info.elem_type + "> &')";
    } else if (after.find('&') == std::string::npos) {
      info.problem = "is a container taken by value ('" + type +
                     "'): the variant would work "
                     "on a copy and its result would be lost; take it by reference ('peppher::" +
                     std::string(name) + "<" + info.elem_type + "> &')";
    }
    return info;
  }
  bool had_const = false;
  size_t star = type.find('*');
  if (star != std::string::npos) {
    info.kind = ir::ParamKind::RawPointer;
    info.elem_type = strip_const(type.substr(0, star), had_const);
    info.is_const = had_const;
    if (type.find('*', star + 1) != std::string::npos) {
      info.problem = "is a pointer to a pointer ('" + type +
                     "'), which cannot be registered "
                     "as one operand; use a flat array or peppher::Matrix";
    } else if (type.find('&') != std::string::npos) {
      info.problem = "is a reference to a pointer ('" + type + "'); pass the pointer by value";
    }
    return info;
  }
  std::string base = strip_const(type, had_const);
  bool reference = !base.empty() && base.back() == '&';
  if (reference) base = trim(base.substr(0, base.size() - 1));
  info.elem_type = base;
  info.is_const = had_const;
  if (reference && !had_const) {  // T&: one element, copied back after the call
    info.kind = ir::ParamKind::Reference;
    return info;
  }
  // By value, or const T& (read, so it travels by value like the rest).
  bool templ =
      std::find(template_types.begin(), template_types.end(), base) != template_types.end();
  info.kind =
      is_arithmetic(base) || templ ? ir::ParamKind::ScalarValue : ir::ParamKind::StructValue;
  // By-value arguments travel as bytes; standard types that own memory cannot.
  static const char* const kOwning[] = {
      "std::vector",        "std::string",        "std::basic_string", "std::wstring",
      "std::map",           "std::set",           "std::list",         "std::deque",
      "std::unordered_map", "std::unordered_set", "std::multimap",     "std::multiset",
      "std::shared_ptr",    "std::unique_ptr",    "std::function",     "std::any"};
  for (const char* owning : kOwning) {
    const size_t n = std::strlen(owning);
    if (base.compare(0, n, owning) == 0 && (base.size() == n || base[n] == '<' || base[n] == ' ')) {
      info.problem = "is passed by value as '" + base +
                     "', which owns memory and cannot be "
                     "copied into a task byte by byte; pass an array as a pointer with "
                     "numElements, or a peppher::Vector<T> &";
    }
  }
  return info;
}

}  // namespace peppher::check
