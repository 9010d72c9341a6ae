// The descriptor vocabulary stays in step in three places: the reader's table
// (compose/read/vocabulary.cpp), the schema (schemas/peppher.xsd) and the users' reference
// (docs/FORMAT.md). Every element and attribute the reader accepts is in the other two.
#include <regex>
#include <set>
#include <string>

#include "compose/read/vocabulary.h"
#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;

namespace {

std::set<std::string> matches(const std::string& text, const std::string& pattern) {
  std::set<std::string> out;
  std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator();
       ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

}  // namespace

TEST_CASE("the schema declares every element and attribute the reader accepts", "[format]") {
  const std::string xsd = test::read_file(std::string(PEPPHER_SOURCE_DIR) + "/schemas/peppher.xsd");
  REQUIRE(!xsd.empty());
  const std::set<std::string> xsd_elements = matches(xsd, "<xs:element name=\"([A-Za-z_]+)\"");
  const std::set<std::string> xsd_attributes = matches(xsd, "<xs:attribute name=\"([A-Za-z_]+)\"");
  std::set<std::string> elements, attributes;
  for (const read::ElementSpec& e : read::all_elements()) {
    elements.insert(e.name);
    for (const char* a : e.attributes) attributes.insert(a);
  }
  CHECK(elements == xsd_elements);
  CHECK(attributes == xsd_attributes);
}

TEST_CASE("docs/FORMAT.md documents every element and attribute", "[format]") {
  const std::string doc = test::read_file(std::string(PEPPHER_SOURCE_DIR) + "/docs/FORMAT.md");
  REQUIRE(!doc.empty());
  for (const read::ElementSpec& e : read::all_elements()) {
    INFO("element " << e.name);
    CHECK(doc.find("peppher:" + std::string(e.name)) != std::string::npos);
    for (const char* a : e.attributes) {
      INFO("attribute " << a);
      CHECK(doc.find("`" + std::string(a)) != std::string::npos);
    }
  }
}
