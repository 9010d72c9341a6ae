// Golden tests of utility mode: each test/scan/golden/<case>/input/header.h is scanned and
// its skeletons rendered in memory, then compared byte for byte with <case>/expected/
// (diagnostics.txt holds the warnings). Refresh after an intended change:
//   COMPOSE_UPDATE_GOLDEN=1 ctest -R scan_golden   (then review the diff like code)
#include <cstdlib>

#include "peppher_catch.h"
#include "scan_test_util.h"

using namespace peppher;
using namespace peppher::scan_test;

namespace {

void check_golden(const std::string& name) {
  const fs::path dir = fs::path(PEPPHER_SCAN_GOLDEN_DIR) / name;
  Generated g = generate(dir / "input" / "header.h");
  INFO(g.messages);
  REQUIRE(g.errors == 0);
  std::map<std::string, std::string> files = g.files.files();
  files["diagnostics.txt"] = g.messages;

  const fs::path expected = dir / "expected";
  if (std::getenv("COMPOSE_UPDATE_GOLDEN") != nullptr) {
    fs::remove_all(expected);
    for (const auto& [path, text] : files) write_file(expected / path, text);
    WARN("updated goldens in " << expected);
    return;
  }
  std::set<std::string> generated;
  for (const auto& [path, text] : files) generated.insert(path);
  INFO("goldens in " << expected.string()
                     << " differ; if intended: COMPOSE_UPDATE_GOLDEN=1 ctest -R scan_golden");
  CHECK(files_under(expected) == generated);
  for (const auto& [path, text] : files) {
    INFO("file " << path);
    CHECK(read_file(expected / path) == text);
  }
}

}  // namespace

TEST_CASE("scan golden: raw pointers, const, __restrict, size_t, [out], unnamed, unknown length") {
  check_golden("pointers");
}

TEST_CASE("scan golden: by-value scalars and structs, typedefs, enums, references, defaults") {
  check_golden("values");
}

TEST_CASE("scan golden: namespaces, templates with type and non-type parameters") {
  check_golden("generics");
}

TEST_CASE("scan golden: overloads, returned values, variadics, function pointers refused") {
  check_golden("refused");
}

TEST_CASE("scan golden: a C header: restrict, sized arrays, va_list, static, opaque, macros") {
  check_golden("c_header");
}

TEST_CASE("scan golden: a C++ header: std::vector, std::string, inline bodies, members") {
  check_golden("cxx_header");
}

TEST_CASE("scan golden: two runs give identical output") {
  const fs::path header = fs::path(PEPPHER_SCAN_GOLDEN_DIR) / "generics" / "input" / "header.h";
  CHECK(generate(header).files.files() == generate(header).files.files());
}

TEST_CASE(
    "scan golden: lengths more than one parameter could give are left to the user, "
    "T** gets the flat-array / Matrix rewrite, a returned value the Scalar one") {
  check_golden("kmeans");
}
