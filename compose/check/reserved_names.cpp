// Reserved names (see reserved_names.h).
#include "compose/check/reserved_names.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

#include "compose/names/names.h"

namespace peppher::check {
namespace {

struct Keyword {
  const char* name;
  const char* what;
};

// kKeywordsBegin (test/compose/reserved/system_names.py reads this list)
const Keyword kKeywords[] = {
    // C++20 keywords
    {"alignas", "a C++ keyword"},
    {"alignof", "a C++ keyword"},
    {"asm", "a C++ keyword"},
    {"auto", "a C++ keyword"},
    {"bool", "a C++ keyword"},
    {"break", "a C++ keyword"},
    {"case", "a C++ keyword"},
    {"catch", "a C++ keyword"},
    {"char", "a C++ keyword"},
    {"char8_t", "a C++ keyword"},
    {"char16_t", "a C++ keyword"},
    {"char32_t", "a C++ keyword"},
    {"class", "a C++ keyword"},
    {"concept", "a C++ keyword"},
    {"const", "a C++ keyword"},
    {"consteval", "a C++ keyword"},
    {"constexpr", "a C++ keyword"},
    {"constinit", "a C++ keyword"},
    {"const_cast", "a C++ keyword"},
    {"continue", "a C++ keyword"},
    {"co_await", "a C++ keyword"},
    {"co_return", "a C++ keyword"},
    {"co_yield", "a C++ keyword"},
    {"decltype", "a C++ keyword"},
    {"default", "a C++ keyword"},
    {"delete", "a C++ keyword"},
    {"do", "a C++ keyword"},
    {"double", "a C++ keyword"},
    {"dynamic_cast", "a C++ keyword"},
    {"else", "a C++ keyword"},
    {"enum", "a C++ keyword"},
    {"explicit", "a C++ keyword"},
    {"export", "a C++ keyword"},
    {"extern", "a C++ keyword"},
    {"false", "a C++ keyword"},
    {"float", "a C++ keyword"},
    {"for", "a C++ keyword"},
    {"friend", "a C++ keyword"},
    {"goto", "a C++ keyword"},
    {"if", "a C++ keyword"},
    {"inline", "a C++ keyword"},
    {"int", "a C++ keyword"},
    {"long", "a C++ keyword"},
    {"mutable", "a C++ keyword"},
    {"namespace", "a C++ keyword"},
    {"new", "a C++ keyword"},
    {"noexcept", "a C++ keyword"},
    {"nullptr", "a C++ keyword"},
    {"operator", "a C++ keyword"},
    {"private", "a C++ keyword"},
    {"protected", "a C++ keyword"},
    {"public", "a C++ keyword"},
    {"register", "a C++ keyword"},
    {"reinterpret_cast", "a C++ keyword"},
    {"requires", "a C++ keyword"},
    {"return", "a C++ keyword"},
    {"short", "a C++ keyword"},
    {"signed", "a C++ keyword"},
    {"sizeof", "a C++ keyword"},
    {"static", "a C++ keyword"},
    {"static_assert", "a C++ keyword"},
    {"static_cast", "a C++ keyword"},
    {"struct", "a C++ keyword"},
    {"switch", "a C++ keyword"},
    {"template", "a C++ keyword"},
    {"this", "a C++ keyword"},
    {"thread_local", "a C++ keyword"},
    {"throw", "a C++ keyword"},
    {"true", "a C++ keyword"},
    {"try", "a C++ keyword"},
    {"typedef", "a C++ keyword"},
    {"typeid", "a C++ keyword"},
    {"typename", "a C++ keyword"},
    {"union", "a C++ keyword"},
    {"unsigned", "a C++ keyword"},
    {"using", "a C++ keyword"},
    {"virtual", "a C++ keyword"},
    {"void", "a C++ keyword"},
    {"volatile", "a C++ keyword"},
    {"wchar_t", "a C++ keyword"},
    {"while", "a C++ keyword"},
    // C++ alternative tokens
    {"and", "a C++ alternative token (for '&&')"},
    {"and_eq", "a C++ alternative token (for '&=')"},
    {"bitand", "a C++ alternative token (for '&')"},
    {"bitor", "a C++ alternative token (for '|')"},
    {"compl", "a C++ alternative token (for '~')"},
    {"not", "a C++ alternative token (for '!')"},
    {"not_eq", "a C++ alternative token (for '!=')"},
    {"or", "a C++ alternative token (for '||')"},
    {"or_eq", "a C++ alternative token (for '|=')"},
    {"xor", "a C++ alternative token (for '^')"},
    {"xor_eq", "a C++ alternative token (for '^=')"},
    // C keywords (C23) that C++ does not have, and GCC's
    {"restrict", "a C keyword"},
    {"typeof", "a C keyword"},
    {"typeof_unqual", "a C keyword"},
    {"_Alignas", "a C keyword"},
    {"_Alignof", "a C keyword"},
    {"_Atomic", "a C keyword"},
    {"_BitInt", "a C keyword"},
    {"_Bool", "a C keyword"},
    {"_Complex", "a C keyword"},
    {"_Decimal32", "a C keyword"},
    {"_Decimal64", "a C keyword"},
    {"_Decimal128", "a C keyword"},
    {"_Generic", "a C keyword"},
    {"_Imaginary", "a C keyword"},
    {"_Noreturn", "a C keyword"},
    {"_Static_assert", "a C keyword"},
    {"_Thread_local", "a C keyword"},
};
// kKeywordsEnd

// Found by compiling (test/compose/reserved/system_names.py): what the headers of every
// generated wrapper declare or define at global scope, and the object-like macros among it.
const char* const kSystemNames[] = {
#include "compose/check/system_names.inc"
};
const char* const kSystemMacros[] = {
#include "compose/check/system_macros.inc"
};

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool is_system_name(const std::string& name) {
  return std::binary_search(
      std::begin(kSystemNames), std::end(kSystemNames), name,
      [](const auto& a, const auto& b) { return std::string_view(a) < std::string_view(b); });
}

// Why `name`, starting with the prefix of a library whose header the generated code
// includes, belongs to it; "" for other names. `starpu_only`: StarPU's prefixes alone (the
// generated functions call StarPU's, which a parameter of that name would hide).
std::string library_prefix(const std::string& name, bool starpu_only) {
  static const std::pair<const char*, const char*> kPrefixes[] = {{"starpu_", "StarPU"},
                                                                  {"STARPU_", "StarPU"},
                                                                  {"hwloc_", "hwloc"},
                                                                  {"HWLOC_", "hwloc"},
                                                                  {"pthread_", "POSIX threads"},
                                                                  {"PTHREAD_", "POSIX threads"},
                                                                  {"sem_", "POSIX semaphores"},
                                                                  {"sched_", "POSIX scheduling"},
                                                                  {"cl_", "OpenCL"},
                                                                  {"CL_", "OpenCL"}};
  std::string prefix, library;
  for (const auto& [p, l] : kPrefixes) {
    if (starts_with(name, p) && (!starpu_only || std::string_view(l) == "StarPU")) {
      prefix = p;
      library = l;
      break;
    }
  }
  if (!starpu_only && prefix.empty() && name.size() > 2 && starts_with(name, "cl") &&
      std::isupper(static_cast<unsigned char>(name[2]))) {
    prefix = "clX";
    library = "OpenCL";
  }
  if (prefix.empty()) return "";
  return "names starting with '" +
         (prefix == "clX" ? std::string("cl' and a capital") : prefix + "'") + " belong to " +
         library + ", whose header the generated code includes";
}

bool is_system_macro(const std::string& name) {
  return std::binary_search(
      std::begin(kSystemMacros), std::end(kSystemMacros), name,
      [](const auto& a, const auto& b) { return std::string_view(a) < std::string_view(b); });
}

}  // namespace

std::string reserved_identifier(const std::string& name) {
  for (const Keyword& k : kKeywords) {
    if (name == k.name) return "'" + name + "' is " + k.what;
  }
  if (is_system_macro(name)) {
    return "'" + name +
           "' is a macro of a header the generated code includes (the C or C++ "
           "library, POSIX, StarPU), which would replace the name";
  }
  return library_prefix(name, true);
}

std::string reserved_function_name(const std::string& name) {
  if (std::string why = reserved_identifier(name); !why.empty()) return why;
  if (name == "main") {
    return "a generated function named 'main' would clash with the program's entry point";
  }
  if (name == "peppher") return "'peppher' is the runtime's namespace";
  if (name == "std") return "'std' is the C++ library's namespace";
  if (starts_with(name, "_")) {
    return "names starting with '_' at global scope belong to the C and C++ implementation";
  }
  if (std::string why = library_prefix(name, false); !why.empty()) return why;
  if (is_system_name(name)) {
    return "a header the generated code includes (the C or C++ library, POSIX, StarPU) "
           "declares '" +
           name +
           "'; a generated function of that name would clash with it (with C linkage always, "
           "in C++ when the parameters match)";
  }
  return "";
}

std::vector<std::string> listed_reserved_names() {
  std::vector<std::string> names = {"main", "peppher", "std"};
  for (const Keyword& k : kKeywords) names.push_back(k.name);
  names.insert(names.end(), std::begin(kSystemNames), std::end(kSystemNames));
  return names;
}

void check_reserved_names(const ir::Interface& iface, diag::Diagnostics& diag) {
  const std::string prefix = names::reserved_prefix();
  // Every derived name once, in parameter order (an interface may have many parameters).
  std::multimap<std::string, names::DerivedName> derived;
  for (const ir::Parameter& q : iface.parameters) {
    for (names::DerivedName& d : names::derived_names(q)) derived.emplace(d.name, std::move(d));
  }
  for (const ir::Parameter& p : iface.parameters) {
    const std::string who = "parameter '" + p.name + "' of interface '" + iface.name + "'";
    if (p.name.compare(0, prefix.size(), prefix) == 0 || p.name == names::args_struct()) {
      diag.error(p.loc, who + " uses a name the generated code reserves (the prefix '" + prefix +
                            "' and '" + names::args_struct() +
                            "' are its own identifiers); rename the parameter");
      continue;
    }
    const auto [first, last] = derived.equal_range(p.name);
    for (auto it = first; it != last; ++it) {
      const names::DerivedName& d = it->second;
      diag.error(p.loc,
                 who + " collides with '" + d.name + "', " + d.what + "; rename the parameter");
    }
  }
}

}  // namespace peppher::check
