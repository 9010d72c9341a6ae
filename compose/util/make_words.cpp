// Plain variable references in flag text (see make_words.h).
#include "compose/util/make_words.h"

#include <cctype>

namespace peppher::text {
namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

char closing(char open) {
  return open == '(' ? ')' : '}';
}

// The end of the identifier starting at `from` (`from` when there is none).
size_t name_end(const std::string& text, size_t from) {
  if (from >= text.size() || !is_name_start(text[from])) return from;
  size_t end = from + 1;
  while (end < text.size() && is_name_char(text[end])) ++end;
  return end;
}

// GNU make's functions (make 4.4): `$(name ` followed by a blank calls one.
bool is_make_function(const std::string& name) {
  static const char* const kFunctions[] = {
      "abspath",  "addprefix", "addsuffix", "and",    "basename",   "call",       "dir",
      "error",    "eval",      "file",      "filter", "filter-out", "findstring", "firstword",
      "flavor",   "foreach",   "guile",     "if",     "info",       "intcmp",     "join",
      "lastword", "let",       "notdir",    "or",     "origin",     "patsubst",   "realpath",
      "shell",    "sort",      "strip",     "subst",  "suffix",     "value",      "warning",
      "wildcard", "word",      "wordlist",  "words"};
  for (const char* f : kFunctions) {
    if (name == f) return true;
  }
  return false;
}

}  // namespace

std::vector<FlagPiece> split_variable_references(const std::string& text, size_t* bad_at) {
  std::vector<FlagPiece> pieces;
  *bad_at = std::string::npos;
  std::string literal;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      literal += text[i];
      continue;
    }
    const char open = i + 1 < text.size() ? text[i + 1] : '\0';
    const size_t end = (open == '(' || open == '{') ? name_end(text, i + 2) : i + 2;
    if ((open != '(' && open != '{') || end == i + 2 || end >= text.size() ||
        text[end] != closing(open)) {
      *bad_at = i;
      break;
    }
    if (!literal.empty()) pieces.push_back({literal, ""});
    literal.clear();
    pieces.push_back({text.substr(i, end + 1 - i), text.substr(i + 2, end - i - 2)});
    i = end;
  }
  if (!literal.empty()) pieces.push_back({literal, ""});
  return pieces;
}

DollarProblem describe_dollar(const std::string& text, size_t at) {
  const char open = at + 1 < text.size() ? text[at + 1] : '\0';
  if (open == '$') return {"$$", "is make's escaped '$'"};
  if (open != '(' && open != '{') {
    const size_t stop = text.find_first_of(" \t\r\n", at + 1);
    const std::string excerpt = text.substr(at, stop == std::string::npos ? stop : stop - at);
    if (excerpt == "$") return {excerpt, "ends the text"};
    return {excerpt, "is not a plain variable reference (make reads '$" + std::string(1, open) +
                         "' as the variable '" + std::string(1, open) + "')"};
  }
  // The excerpt runs to the matching bracket, or to the end of the word when there is none.
  int depth = 0;
  size_t stop = std::string::npos;
  for (size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == open) ++depth;
    if (text[i] == closing(open) && --depth == 0) {
      stop = i + 1;
      break;
    }
  }
  const bool closed = stop != std::string::npos;
  if (!closed) {
    stop = text.find_first_of(" \t\r\n", at);
    if (stop == std::string::npos) stop = text.size();
  }
  const std::string excerpt = text.substr(at, stop - at);
  size_t word_end = at + 2;
  while (word_end < text.size() && (is_name_char(text[word_end]) || text[word_end] == '-')) {
    ++word_end;
  }
  const std::string word = text.substr(at + 2, word_end - at - 2);
  if (word_end < text.size() && (text[word_end] == ' ' || text[word_end] == '\t') &&
      is_make_function(word)) {
    return {excerpt, "calls make's function '" + word + "'"};
  }
  if (!closed) return {excerpt, "is not closed by '" + std::string(1, closing(open)) + "'"};
  return {excerpt, "is not a plain variable reference (a name made of letters, digits and '_')"};
}

}  // namespace peppher::text
