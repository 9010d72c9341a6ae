// VariantCheck's out-of-line half (peppher/task.h): the values a call's constraints read,
// written as std::ostringstream writes them, and the error naming why no variant accepts the
// call. Kept here so that the headers generated wrappers include need no <sstream>.
#include <sstream>
#include <string>

#include "peppher/error.h"
#include "peppher/task.h"

namespace peppher {
namespace detail {
namespace {

template <typename T>
std::string streamed(const T& v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

std::string value_text(bool v) {
  return streamed(v);
}
std::string value_text(char v) {
  return streamed(v);
}
std::string value_text(signed char v) {
  return streamed(v);
}
std::string value_text(unsigned char v) {
  return streamed(v);
}
std::string value_text(long long v) {
  return streamed(v);
}
std::string value_text(unsigned long long v) {
  return streamed(v);
}
std::string value_text(float v) {
  return streamed(v);
}
std::string value_text(double v) {
  return streamed(v);
}
std::string value_text(long double v) {
  return streamed(v);
}

ValueText::ValueText() : text_(std::make_unique<std::ostringstream>()) {}
ValueText::~ValueText() = default;
std::ostream& ValueText::stream() {
  return *text_;
}
std::string ValueText::str() const {
  return text_->str();
}

}  // namespace detail

void VariantCheck::add_value(const char* label, const std::string& text) {
  values_ += (values_.empty() ? "" : ", ") + std::string(label) + " = " + text;
}

void VariantCheck::fail() const {
  std::string why;
  bool first_reason = true;
  for (int i = 0; i < count_; ++i) {
    const Entry& e = entries_[i];
    if (e.variant != nullptr) {
      why += std::string(why.empty() ? "" : "; ") + e.variant + " (" + e.backend + ")";
      first_reason = true;
      if (e.workers == 0) {
        why += std::string(": no ") + e.backend + " worker in this run";
        first_reason = false;
      }
    } else if (!e.holds) {
      why += std::string(first_reason ? ": " : ", ") + e.label + " is false";
      first_reason = false;
    }
  }
  std::string values = values_.empty() ? "" : " (" + values_ + ")";
  throw Error(std::string(iface_) + ": no variant accepts this call" + values + ": " + why);
}

}  // namespace peppher
