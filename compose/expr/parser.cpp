// Recursive-descent parser for descriptor expressions (C precedence for
// || && == != < <= > >= + - * / % and unary ! - +) and the precedence-aware C++ printer.
#include "compose/expr/parser.h"

#include <cctype>
#include <cstring>

namespace peppher::expr {
namespace {

constexpr int kMaxDepth = 100;

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  ParseResult run() {
    ParseResult r;
    skip_space();
    if (pos_ >= s_.size()) {
      r.error = ParseError{0, "empty expression"};
      return r;
    }
    auto root = parse_binary(0, 0);
    if (!error_ && pos_ < s_.size()) {
      if (s_[pos_] == ')')
        fail(pos_, "unmatched ')'");
      else
        fail(pos_, "unexpected '" + token_text() + "' after the end of the expression");
    }
    if (error_) {
      r.error = error_;
      return r;
    }
    r.root = std::move(root);
    return r;
  }

 private:
  // Binary operators by precedence level, lowest first.
  static int level_of(const std::string& op) {
    if (op == "||") return 0;
    if (op == "&&") return 1;
    if (op == "==" || op == "!=") return 2;
    if (op == "<" || op == "<=" || op == ">" || op == ">=") return 3;
    if (op == "+" || op == "-") return 4;
    if (op == "*" || op == "/" || op == "%") return 5;
    return -1;
  }
  static constexpr int kLevels = 6;

  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }

  void fail(size_t at, const std::string& message) {
    if (!error_) error_ = ParseError{static_cast<int>(at), message};
  }

  std::string token_text() const {
    if (pos_ >= s_.size()) return "";
    if (is_ident_char(s_[pos_])) {
      size_t e = pos_;
      while (e < s_.size() && is_ident_char(s_[e])) ++e;
      return s_.substr(pos_, e - pos_);
    }
    return s_.substr(pos_, 1);
  }

  // The binary operator at pos_, or "" (does not consume).
  std::string peek_operator() {
    if (pos_ >= s_.size()) return "";
    static const char* const kOps[] = {"||", "&&", "==", "!=", "<=", ">=", "<",
                                       ">",  "+",  "-",  "*",  "/",  "%"};
    for (const char* op : kOps) {
      if (s_.compare(pos_, std::char_traits<char>::length(op), op) == 0) return op;
    }
    return "";
  }

  std::unique_ptr<Node> parse_binary(int level, int depth) {
    if (depth > kMaxDepth) {
      fail(pos_, "expression is nested too deeply");
      return nullptr;
    }
    if (level == kLevels) return parse_unary(depth);
    auto left = parse_binary(level + 1, depth + 1);
    while (!error_) {
      skip_space();
      check_bad_operator();
      if (error_) break;
      std::string op = peek_operator();
      if (op.empty() || level_of(op) != level) break;
      size_t op_pos = pos_;
      pos_ += op.size();
      skip_space();
      if (pos_ >= s_.size()) {
        fail(op_pos, "expected an operand after '" + op + "'");
        break;
      }
      auto right = parse_binary(level + 1, depth + 1);
      if (error_) break;
      auto n = std::make_unique<Node>();
      n->kind = NodeKind::Binary;
      n->text = op;
      n->offset = left->offset;
      n->operands.push_back(std::move(left));
      n->operands.push_back(std::move(right));
      left = std::move(n);
    }
    return error_ ? nullptr : std::move(left);
  }

  // Spellings that look like operators but are not ours; reported with a suggestion.
  void check_bad_operator() {
    if (pos_ >= s_.size()) return;
    char c = s_[pos_];
    char n = pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0';
    if (c == '=' && n != '=')
      fail(pos_, "'=' is not a comparison; did you mean '=='?");
    else if (c == '&' && n != '&')
      fail(pos_, "'&' is not supported; did you mean '&&'?");
    else if (c == '|' && n != '|')
      fail(pos_, "'|' is not supported; did you mean '||'?");
  }

  std::unique_ptr<Node> parse_unary(int depth) {
    skip_space();
    if (depth > kMaxDepth) {
      fail(pos_, "expression is nested too deeply");
      return nullptr;
    }
    if (pos_ < s_.size() && (s_[pos_] == '!' || s_[pos_] == '-' || s_[pos_] == '+') &&
        !(s_[pos_] == '!' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '=')) {
      size_t at = pos_;
      std::string op(1, s_[pos_++]);
      skip_space();
      if (pos_ >= s_.size()) {
        fail(at, "expected an operand after '" + op + "'");
        return nullptr;
      }
      auto operand = parse_unary(depth + 1);
      if (error_) return nullptr;
      auto n = std::make_unique<Node>();
      n->kind = NodeKind::Unary;
      n->text = op;
      n->offset = static_cast<int>(at);
      n->operands.push_back(std::move(operand));
      return n;
    }
    return parse_primary(depth);
  }

  std::unique_ptr<Node> parse_primary(int depth) {
    skip_space();
    if (pos_ >= s_.size()) {
      fail(pos_, "expected an operand at the end of the expression");
      return nullptr;
    }
    char c = s_[pos_];
    if (c == '(') {
      size_t open = pos_++;
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == ')') {
        fail(pos_, "expected an expression inside '()'");
        return nullptr;
      }
      auto inner = parse_binary(0, depth + 1);
      if (error_) return nullptr;
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != ')') {
        fail(open, "'(' is never closed");
        return nullptr;
      }
      ++pos_;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < s_.size() &&
         std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
      return parse_number();
    }
    if (is_ident_start(c)) return parse_identifier();
    std::string op = peek_operator();
    if (!op.empty() || c == ')') {
      fail(pos_, "expected an operand before '" + (op.empty() ? std::string(")") : op) + "'");
    } else {
      fail(pos_, "unexpected character '" + std::string(1, c) + "'");
    }
    return nullptr;
  }

  std::unique_ptr<Node> parse_number() {
    size_t start = pos_;
    bool is_float = false;
    auto digits = [&] {
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    };
    if (s_.compare(pos_, 2, "0x") == 0 || s_.compare(pos_, 2, "0X") == 0) {
      pos_ += 2;
      size_t hex_start = pos_;
      while (pos_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ == hex_start) {
        fail(start, "malformed number '" + s_.substr(start, pos_ - start) + "'");
        return nullptr;
      }
    } else {
      digits();
      if (pos_ < s_.size() && s_[pos_] == '.') {
        is_float = true;
        ++pos_;
        digits();
      }
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        is_float = true;
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
        size_t exp_start = pos_;
        digits();
        if (pos_ == exp_start) {
          fail(start, "malformed number '" + s_.substr(start, pos_ - start) + "'");
          return nullptr;
        }
      }
    }
    while (pos_ < s_.size() && std::strchr("uUlLfF", s_[pos_]) != nullptr && s_[pos_] != '\0') {
      if (s_[pos_] == 'f' || s_[pos_] == 'F') is_float = true;
      ++pos_;
    }
    if (pos_ < s_.size() && (is_ident_char(s_[pos_]) || s_[pos_] == '.')) {
      size_t e = pos_;
      while (e < s_.size() && (is_ident_char(s_[e]) || s_[e] == '.')) ++e;
      fail(start, "malformed number '" + s_.substr(start, e - start) + "'");
      return nullptr;
    }
    auto n = std::make_unique<Node>();
    n->kind = is_float ? NodeKind::FloatLiteral : NodeKind::IntLiteral;
    n->text = s_.substr(start, pos_ - start);
    n->offset = static_cast<int>(start);
    return n;
  }

  std::unique_ptr<Node> parse_identifier() {
    size_t start = pos_;
    while (true) {
      while (pos_ < s_.size() && is_ident_char(s_[pos_])) ++pos_;
      size_t sep = 0;
      if (pos_ < s_.size() && s_[pos_] == '.')
        sep = 1;
      else if (s_.compare(pos_, 2, "::") == 0)
        sep = 2;
      if (sep == 0) break;
      if (pos_ + sep >= s_.size() || !is_ident_start(s_[pos_ + sep])) {
        fail(pos_ + sep, "expected a name after '" + s_.substr(pos_, sep) + "'");
        return nullptr;
      }
      pos_ += sep;
    }
    auto n = std::make_unique<Node>();
    n->kind = NodeKind::Identifier;
    n->text = s_.substr(start, pos_ - start);
    n->offset = static_cast<int>(start);
    if (n->text == kIsInstalled) return parse_is_installed(std::move(n));
    if (n->text.rfind(std::string(kIsInstalled) + "::", 0) == 0) {  // is_installed::value
      pos_ = start + std::char_traits<char>::length(kIsInstalled);
      return parse_is_installed(std::move(n));
    }
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '(') {
      fail(pos_, "function calls are not supported in expressions");
      return nullptr;
    }
    return n;
  }

  // XPDL's platform query `xpdl::is_installed{SET,NAME}::value` (the published examples'
  // spelling, braces because XML makes `<` awkward) or `xpdl::is_installed<SET,NAME>::value`
  // (the C++ one): one identifier node whose text is the `<...>` spelling, no blanks.
  std::unique_ptr<Node> parse_is_installed(std::unique_ptr<Node> n) {
    skip_space();
    if (pos_ >= s_.size() || (s_[pos_] != '{' && s_[pos_] != '<')) {
      fail(pos_, std::string("expected '{' or '<' after '") + kIsInstalled +
                     "', as in xpdl::is_installed{xpdl::system::libraries,NAME}::value");
      return nullptr;
    }
    const char close = s_[pos_] == '{' ? '}' : '>';
    const size_t open = pos_++;
    std::string args[2];
    for (int k = 0; k < 2; ++k) {
      skip_space();
      const size_t at = pos_;
      while (pos_ < s_.size() && (is_ident_char(s_[pos_]) || s_[pos_] == ':')) ++pos_;
      args[k] = s_.substr(at, pos_ - at);
      if (args[k].empty() || !is_ident_start(args[k][0])) {
        fail(at, k == 0 ? "expected the set queried (xpdl::system::libraries, softwares or oss)"
                        : "expected the name of what must be installed, e.g. xpdl_cublas_5_0");
        return nullptr;
      }
      skip_space();
      const char want = k == 0 ? ',' : close;
      if (pos_ >= s_.size() || s_[pos_] != want) {
        if (pos_ >= s_.size())
          fail(open, std::string("'") + s_[open] + "' is never closed");
        else
          fail(pos_, std::string("expected '") + want + "' in " + kIsInstalled);
        return nullptr;
      }
      ++pos_;
    }
    skip_space();
    if (s_.compare(pos_, 7, "::value") != 0 ||
        (pos_ + 7 < s_.size() && is_ident_char(s_[pos_ + 7]))) {
      fail(pos_, std::string("expected '::value' after ") + kIsInstalled + "{...}");
      return nullptr;
    }
    pos_ += 7;
    n->text = std::string(kIsInstalled) + "<" + args[0] + "," + args[1] + ">::value";
    return n;
  }

  static constexpr const char* kIsInstalled = "xpdl::is_installed";

  const std::string& s_;
  size_t pos_ = 0;
  std::optional<ParseError> error_;
};

int precedence(const Node& n) {
  if (n.kind == NodeKind::Unary) return 6;
  if (n.kind != NodeKind::Binary) return 7;
  const std::string& op = n.text;
  if (op == "||") return 0;
  if (op == "&&") return 1;
  if (op == "==" || op == "!=") return 2;
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return 3;
  if (op == "+" || op == "-") return 4;
  return 5;
}

// A printed operand that is a non-zero number ("16", "16LL", "0.5"): no guard needed.
bool nonzero_constant(const std::string& text) {
  std::string t = text;
  if (t.size() > 2 && t.compare(t.size() - 2, 2, "LL") == 0) t.resize(t.size() - 2);
  if (t.empty() || t.find_first_not_of("0123456789.") != std::string::npos) return false;
  return t.find_first_not_of("0.") != std::string::npos;
}

// `guards`, when given, asks for guarded divisions and counts those printed.
void print(const Node& n, const std::function<std::string(const std::string&)>& rename,
           std::string& out, int* guards = nullptr) {
  const bool guard = guards != nullptr;
  switch (n.kind) {
    case NodeKind::IntLiteral:
    case NodeKind::FloatLiteral:
      out += n.text;
      return;
    case NodeKind::Identifier:
      out += rename ? rename(n.text) : n.text;
      return;
    case NodeKind::Unary: {
      out += n.text;
      const Node& a = *n.operands[0];
      bool paren = precedence(a) < 6 || (a.kind == NodeKind::Unary && a.text == n.text);
      if (paren) out += '(';
      print(a, rename, out, guards);
      if (paren) out += ')';
      return;
    }
    case NodeKind::Binary: {
      int p = precedence(n);
      const Node& l = *n.operands[0];
      const Node& r = *n.operands[1];
      if (guard && (n.text == "/" || n.text == "%")) {
        // (r == 0 ? (peppher_zero = true, 0) : l / r): a primary, so no outer parentheses
        // are needed; peppher_zero makes the enclosing predicate false (to_cpp_guarded).
        std::string ls, rs;
        print(l, rename, ls, guards);
        print(r, rename, rs, guards);
        if (!nonzero_constant(rs)) ++*guards;
        if (nonzero_constant(rs)) {
          out += "(" + ls + ") " + n.text + " " + rs;
          return;
        }
        out += "((" + rs + ") == 0 ? (peppher_zero = true, 0) : (" + ls + ") " + n.text + " (" +
               rs + "))";
        return;
      }
      bool lp = precedence(l) < p;
      bool rp = precedence(r) <= p;  // left associative: a - (b - c) keeps its parens
      if (lp) out += '(';
      print(l, rename, out, guards);
      if (lp) out += ')';
      out += ' ' + n.text + ' ';
      if (rp) out += '(';
      print(r, rename, out, guards);
      if (rp) out += ')';
      return;
    }
  }
}

}  // namespace

ParseResult parse(const std::string& text) {
  return Parser(text).run();
}

std::string to_cpp(const Node& node, const std::function<std::string(const std::string&)>& rename) {
  std::string out;
  print(node, rename, out);
  return out;
}

std::string to_cpp_guarded(const Node& node,
                           const std::function<std::string(const std::string&)>& rename) {
  std::string body;
  int guards = 0;
  print(node, rename, body, &guards);
  if (guards == 0) return to_cpp(node, rename);
  return "[&] { bool peppher_zero = false; const bool peppher_holds = " + body +
         "; return peppher_holds && !peppher_zero; }()";
}

void collect_identifiers(const Node& node, std::vector<const Node*>& out) {
  if (node.kind == NodeKind::Identifier) out.push_back(&node);
  for (const auto& o : node.operands) collect_identifiers(*o, out);
}

}  // namespace peppher::expr
