// The Clang/LLVM API differences between the releases compose builds with (LLVM 14 to 19),
// in one place: the scan/ and verify/ stages call these instead of the API that changed.
#pragma once

#include <llvm/ADT/StringRef.h>

#include <string_view>
#include <type_traits>

namespace peppher::clang_compat {

/// Whether `text` ends with `suffix` (StringRef::endswith became ends_with in LLVM 16 and
/// is gone in 19).
inline bool ends_with(llvm::StringRef text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         std::string_view(text.data(), text.size()).substr(text.size() - suffix.size()) == suffix;
}

/// The name of a file SourceManager knows (the key of its fileinfo_begin() map): a
/// `const FileEntry*` up to Clang 17, a FileEntryRef (used with '.') since 18. Decided by the
/// type, so no version number has to be right.
template <typename Entry>
llvm::StringRef file_name(const Entry& entry) {
  if constexpr (std::is_pointer_v<Entry>) {
    return entry->getName();
  } else {
    return entry.getName();
  }
}

}  // namespace peppher::clang_compat
