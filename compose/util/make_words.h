// Variable references in the flags of a descriptor: `<peppher:flags> $(LDFLAGS)</peppher:flags>`
// (as the original tool's examples link) keeps its meaning in the generated Makefile, where
// make expands it, and in peppher.cmake, which takes the environment's value. check/ decides
// which spellings are allowed; emit/ writes each piece for its build file.
#pragma once

#include <string>
#include <vector>

namespace peppher::text {

/// A piece of flag text: literal text, or a plain reference `$(NAME)` / `${NAME}` (NAME a C
/// identifier) to a variable.
struct FlagPiece {
  std::string text;      // as written (the reference with its `$` and brackets)
  std::string variable;  // the reference's NAME; "" for literal text
};

/// `text` cut into literal pieces and plain variable references. Every other use of `$`
/// (`$$`, `$(shell ...)`, `$(X:a=b)`, `$X`, an unclosed `$(`) stops the cut: `bad_at` is then
/// the position of that `$` (std::string::npos when there is none) and the pieces end
/// before it.
std::vector<FlagPiece> split_variable_references(const std::string& text, size_t* bad_at);

/// What the `$` at `at` in `text` starts, when it is not a plain reference: the excerpt
/// ("$(shell date)", "$$", "$(X") and why it is refused ("calls make's function 'shell'").
struct DollarProblem {
  std::string excerpt;
  std::string why;
};
DollarProblem describe_dollar(const std::string& text, size_t at);

}  // namespace peppher::text
