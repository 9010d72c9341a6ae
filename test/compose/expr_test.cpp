// Expression parser tests: precedence, literals, qualified names, error offsets, and
// printing back to C++.
#include "compose/expr/parser.h"
#include "peppher_catch.h"

using namespace peppher::expr;

namespace {

std::string cpp(const std::string& text) {
  ParseResult r = parse(text);
  if (r.error) return "error@" + std::to_string(r.error->offset) + ": " + r.error->message;
  return to_cpp(*r.root);
}

}  // namespace

TEST_CASE("precedence and printing", "[expr]") {
  CHECK(cpp("size < 5000") == "size < 5000");
  CHECK(cpp("a + b * c") == "a + b * c");
  CHECK(cpp("(a + b) * c") == "(a + b) * c");
  CHECK(cpp("a - (b - c)") == "a - (b - c)");
  CHECK(cpp("a - b - c") == "a - b - c");
  CHECK(cpp("a || b && c") == "a || b && c");
  CHECK(cpp("(a || b) && c") == "(a || b) && c");
  CHECK(cpp("!(a == b) || -x % 3 != 0") == "!(a == b) || -x % 3 != 0");
  CHECK(cpp("1.5e3 <= 2.f") == "1.5e3 <= 2.f");
  CHECK(cpp("platform.num_cuda > 0 && xpdl::system::num_of_gpus >= 1") ==
        "platform.num_cuda > 0 && xpdl::system::num_of_gpus >= 1");
  CHECK(cpp("nrows*ncols") == "nrows * ncols");
  CHECK(cpp("- - x") == "-(-x)");
}

TEST_CASE("literal and identifier kinds", "[expr]") {
  ParseResult r = parse("n >= 0.5");
  REQUIRE(r.root);
  CHECK(r.root->kind == NodeKind::Binary);
  CHECK(r.root->operands[0]->kind == NodeKind::Identifier);
  CHECK(r.root->operands[1]->kind == NodeKind::FloatLiteral);
  CHECK(r.root->operands[1]->offset == 5);
  std::vector<const Node*> ids;
  ParseResult r2 = parse("a + b.c * a");
  collect_identifiers(*r2.root, ids);
  REQUIRE(ids.size() == 3);
  CHECK(ids[1]->text == "b.c");
  CHECK(ids[1]->offset == 4);
}

TEST_CASE("errors carry the offset inside the text", "[expr]") {
  CHECK(cpp("") == "error@0: empty expression");
  CHECK(cpp("size <") == "error@5: expected an operand after '<'");
  CHECK(cpp("size < < 3") == "error@7: expected an operand before '<'");
  CHECK(cpp("(a + b") == "error@0: '(' is never closed");
  CHECK(cpp("a + b)") == "error@5: unmatched ')'");
  CHECK(cpp("a = 3") == "error@2: '=' is not a comparison; did you mean '=='?");
  CHECK(cpp("a & b") == "error@2: '&' is not supported; did you mean '&&'?");
  CHECK(cpp("a $ b") == "error@2: unexpected '$' after the end of the expression");
  CHECK(cpp("size 5000") == "error@5: unexpected '5000' after the end of the expression");
  CHECK(cpp("12abc") == "error@0: malformed number '12abc'");
  CHECK(cpp("f(x)") == "error@1: function calls are not supported in expressions");
  CHECK(cpp("platform.") == "error@9: expected a name after '.'");
}

TEST_CASE("deep nesting is an error, not a crash", "[expr]") {
  std::string deep(10000, '(');
  CHECK(parse(deep + "1").error);
  std::string neg(10000, '!');
  CHECK(parse(neg + "x").error);
}
