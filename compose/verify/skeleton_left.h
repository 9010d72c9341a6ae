// A variant whose source is still the skeleton that utility mode wrote
// (compose -generateCompFiles): between its markers only comments and `(void)param;` lines.
// It compiles and runs, and computes nothing: a call that runs it leaves its outputs as they
// were, a wrong result printed as right. compose refuses it (verify.cpp).
#pragma once

#include <string>

namespace peppher::verify {

/// The line (1-based) of the first skeleton body in @p text that was left as generated, or 0.
int untouched_skeleton_line(const std::string& text);

}  // namespace peppher::verify
