// Exploration tests: following requiredInterface / impPath / variant requirements, the
// bottom-up order, -disableXMLFiles, and cycles reported with their path.
#include "compose/explore/explore.h"

#include <sstream>

#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;

namespace {

std::string iface(const std::string& name) {
  return test::component("  <peppher:interface name=\"" + name +
                         "\">\n"
                         "    <peppher:parameters><peppher:parameter name=\"n\" type=\"int\" "
                         "accessMode=\"read\"/></peppher:parameters>\n"
                         "  </peppher:interface>\n");
}

// An implementation of `provides`, requiring the interfaces in `required` (xmlFile relative
// to the implementation folder's parent).
std::string impl(const std::string& name, const std::string& provides,
                 const std::vector<std::string>& required = {}) {
  std::string req;
  if (!required.empty()) {
    req = "    <peppher:requiredInterfaces>\n";
    for (const std::string& r : required) {
      req += "      <peppher:requiredInterface name=\"" + r + "\" xmlFile=\"../" + r + ".xml\"/>\n";
    }
    req += "    </peppher:requiredInterfaces>\n";
  }
  return test::component("  <peppher:implementation name=\"" + name +
                         "\">\n"
                         "    <peppher:sourceFiles><peppher:sourceFile name=\"" +
                         name +
                         ".c\"/></peppher:sourceFiles>\n"
                         "    <peppher:providedInterfaces><peppher:providedInterface name=\"" +
                         provides + "\"/></peppher:providedInterfaces>\n" + req +
                         "    <peppher:targetPlatform name=\"CPU\"/>\n"
                         "  </peppher:implementation>\n");
}

std::string main_xml(const std::vector<std::string>& required) {
  std::string req;
  for (const std::string& r : required) {
    req += "      <peppher:requiredInterface name=\"" + r + "\" xmlFile=\"" + r + ".xml\"/>\n";
  }
  return test::component(
      "  <peppher:implementation name=\"main\">\n"
      "    <peppher:requiredInterfaces>\n" +
      req +
      "    </peppher:requiredInterfaces>\n"
      "    <peppher:targetPlatform name=\"CPU\"/>\n"
      "  </peppher:implementation>\n");
}

struct Explored {
  ir::Application app;
  std::string diags;
};

Explored explore_in(const test::TempDir& dir, ir::Options o = {}) {
  std::filesystem::path old = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::ostringstream err;
  diag::Diagnostics diag(err);
  if (o.main_xml.empty()) o.main_xml = "main.xml";
  Explored e{explore::explore(o, diag), ""};
  std::filesystem::current_path(old);
  e.diags = err.str();
  return e;
}

std::vector<std::string> names(const ir::Application& app) {
  std::vector<std::string> out;
  for (const ir::Interface& i : app.interfaces) out.push_back(i.name);
  return out;
}

}  // namespace

TEST_CASE("interfaces come bottom-up; variants found in impPath, sorted", "[explore]") {
  test::TempDir d;
  d.write("main.xml", main_xml({"top", "leaf"}));
  d.write("top.xml", iface("top"));
  d.write("mid.xml", iface("mid"));
  d.write("leaf.xml", iface("leaf"));
  d.write("top/b_top.xml", impl("b_top", "top", {"mid"}));
  d.write("top/a_top.xml", impl("a_top", "top", {"leaf"}));
  d.write("mid/mid1.xml", impl("mid1", "mid", {"leaf"}));
  d.write("leaf/leaf1.xml", impl("leaf1", "leaf"));
  d.write("leaf/notes.txt", "not a descriptor");
  Explored e = explore_in(d);
  CHECK(e.diags == "");
  CHECK(names(e.app) == std::vector<std::string>{"leaf", "mid", "top"});
  REQUIRE(e.app.interfaces[2].variants.size() == 2);
  CHECK(e.app.interfaces[2].variants[0].name == "a_top");
  CHECK(e.app.interfaces[2].variants[0].descriptor_file == "top/a_top.xml");
  CHECK(e.app.interfaces[2].variants[0].sources[0].path == "top/a_top.c");
  CHECK(e.app.interfaces[0].imp_path == "leaf/");
}

TEST_CASE("-disableXMLFiles skips descriptors while exploring", "[explore]") {
  test::TempDir d;
  d.write("main.xml", main_xml({"top"}));
  d.write("top.xml", iface("top"));
  d.write("leaf.xml", iface("leaf"));
  d.write("top/a.xml", impl("a", "top", {"leaf"}));
  d.write("top/b.xml", impl("b", "top"));
  d.write("leaf/l.xml", impl("l", "leaf"));
  ir::Options o;
  o.disable_xml_files = {"a.xml", "nothing.xml"};
  Explored e = explore_in(d, o);
  CHECK(e.diags ==
        "compose: warning: -disableXMLFiles: 'nothing.xml' matched no implementation descriptor\n");
  CHECK(names(e.app) == std::vector<std::string>{"top"});  // leaf only reachable through a
  REQUIRE(e.app.interfaces[0].variants.size() == 1);
  CHECK(e.app.interfaces[0].variants[0].name == "b");
}

TEST_CASE("a cycle is an error printing the cycle", "[explore]") {
  test::TempDir d;
  d.write("main.xml", main_xml({"a"}));
  d.write("a.xml", iface("a"));
  d.write("b.xml", iface("b"));
  d.write("c.xml", iface("c"));
  d.write("a/a1.xml", impl("a1", "a", {"b"}));
  d.write("b/b1.xml", impl("b1", "b", {"c"}));
  d.write("c/c1.xml", impl("c1", "c", {"a"}));
  Explored e = explore_in(d);
  CHECK(e.diags ==
        "c/c1.xml:6:7: error: cycle in required interfaces: a -> b -> c -> a\n"
        "a/a1.xml:6:7: note: 'a' requires 'b' here\n"
        "b/b1.xml:6:7: note: 'b' requires 'c' here\n");
}

TEST_CASE("a variant requiring its own interface (recursion) is no cycle", "[explore]") {
  test::TempDir d;
  d.write("main.xml", main_xml({"sort"}));
  d.write("sort.xml", iface("sort"));
  d.write("leaf.xml", iface("leaf"));
  d.write("sort/s1.xml", impl("s1", "sort", {"sort", "leaf"}));
  d.write("leaf/l.xml", impl("l", "leaf"));
  Explored e = explore_in(d);
  CHECK(e.diags == "");
  CHECK(names(e.app) == std::vector<std::string>{"leaf", "sort"});
}

TEST_CASE("an interface file shared by two requirers is read once", "[explore]") {
  test::TempDir d;
  d.write("main.xml", main_xml({"top", "leaf"}));
  d.write("top.xml", iface("top"));
  d.write("leaf.xml", iface("leaf"));
  d.write("top/t.xml", impl("t", "top", {"leaf"}));
  d.write("leaf/l.xml", impl("l", "leaf"));
  Explored e = explore_in(d);
  CHECK(e.diags == "");
  CHECK(names(e.app) == std::vector<std::string>{"leaf", "top"});
}

TEST_CASE("a main descriptor providing 'main' is normal; anything else is a warning", "[explore]") {
  // The published examples' main.xml says <peppher:providedInterface name="main"/>.
  auto main_providing = [](const std::string& provided) {
    return test::component(
        "  <peppher:implementation name=\"main\">\n"
        "    <peppher:providedInterfaces>\n"
        "      <peppher:providedInterface name=\"" +
        provided +
        "\"/>\n"
        "    </peppher:providedInterfaces>\n"
        "    <peppher:requiredInterfaces>\n"
        "      <peppher:requiredInterface name=\"leaf\" xmlFile=\"leaf.xml\"/>\n"
        "    </peppher:requiredInterfaces>\n"
        "    <peppher:targetPlatform name=\"CPU\"/>\n"
        "  </peppher:implementation>\n");
  };
  test::TempDir d;
  d.write("leaf.xml", iface("leaf"));
  d.write("leaf/l.xml", impl("l", "leaf"));
  d.write("main.xml", main_providing("main"));
  CHECK(explore_in(d).diags == "");
  d.write("main.xml", main_providing("leaf"));
  CHECK(explore_in(d).diags ==
        "main.xml:4:7: warning: the main descriptor provides 'leaf', which "
        "is ignored: only 'main' is expected here\n");
}

TEST_CASE("a requiredInterface without xmlFile is <name>.xml beside main.xml or the interface",
          "[explore]") {
  test::TempDir d;
  d.write("main.xml", test::component("  <peppher:implementation name=\"main\">\n"
                                      "    <peppher:requiredInterfaces>\n"
                                      "      <peppher:requiredInterface name=\"top\"/>\n"
                                      "    </peppher:requiredInterfaces>\n"
                                      "    <peppher:targetPlatform name=\"CPU\"/>\n"
                                      "  </peppher:implementation>\n"));
  d.write("top.xml", iface("top"));
  std::string variant = impl("a", "top", {"leaf"});  // by name, leaf.xml beside top.xml
  const std::string by_file = " xmlFile=\"../leaf.xml\"";
  REQUIRE(variant.find(by_file) != std::string::npos);
  variant.erase(variant.find(by_file), by_file.size());
  d.write("top/a.xml", variant);
  d.write("leaf.xml", iface("leaf"));
  d.write("leaf/l.xml", impl("l", "leaf"));
  Explored e = explore_in(d);
  CHECK(e.diags == "");
  CHECK(names(e.app) == std::vector<std::string>{"leaf", "top"});
}

TEST_CASE("relative paths in flags keep meaning what they meant beside main.xml with -o",
          "[explore]") {
  // The original tool's Makefile ran beside main.xml: a program's -I../include is taken
  // from main.xml's folder; a variant's from there, or from its own folder where only that
  // exists; a library archive named by the link flags too.
  test::TempDir d;
  d.write("app/main.xml",
          test::component("  <peppher:implementation name=\"main\">\n"
                          "    <peppher:sourceFiles>\n"
                          "      <peppher:sourceFile name=\"main.cpp\"><peppher:compilation>"
                          "<peppher:compiler><peppher:flags>-O2 -I../include -isystem ./sys "
                          "-DX=1 -I/usr/include</peppher:flags></peppher:compiler>"
                          "</peppher:compilation></peppher:sourceFile>\n"
                          "      <peppher:sourceFile><peppher:compilation><peppher:compiler "
                          "type=\"link\"><peppher:flags>-L../lib ../lib/libx.a -lm"
                          "</peppher:flags></peppher:compiler></peppher:compilation>"
                          "</peppher:sourceFile>\n"
                          "    </peppher:sourceFiles>\n"
                          "    <peppher:requiredInterfaces><peppher:requiredInterface name=\"top\" "
                          "xmlFile=\"../top.xml\"/></peppher:requiredInterfaces>\n"
                          "    <peppher:targetPlatform name=\"CPU\"/>\n"
                          "  </peppher:implementation>\n"));
  d.write("include/h.h", "");
  d.write("app/sys/s.h", "");
  d.write("lib/libx.a", "");
  d.write("top.xml", iface("top"));
  std::string variant = impl("a", "top");
  const std::string source = "<peppher:sourceFile name=\"a.c\"/>";
  REQUIRE(variant.find(source) != std::string::npos);
  variant.replace(variant.find(source), source.size(),
                  "<peppher:sourceFile name=\"a.c\"><peppher:compilation><peppher:compiler>"
                  "<peppher:flags>-Iinc -I../include</peppher:flags></peppher:compiler>"
                  "</peppher:compilation></peppher:sourceFile>");
  d.write("top/a.xml", variant);
  d.write("top/inc/i.h", "");
  ir::Options o;
  o.main_xml = "app/main.xml";
  o.output_dir = "out/gen";
  Explored e = explore_in(d, o);
  CHECK(e.diags == "");
  REQUIRE(e.app.sources.size() == 1);
  CHECK(e.app.sources[0].compiler.flags ==
        "-O2 -I../../include -isystem ../../app/sys -DX=1 -I/usr/include");
  CHECK(e.app.link.flags == "-L../../lib ../../lib/libx.a -lm");
  REQUIRE(e.app.interfaces.size() == 1);
  REQUIRE(e.app.interfaces[0].variants.size() == 1);
  CHECK(e.app.interfaces[0].variants[0].sources[0].compiler.flags ==
        "-I../../top/inc -I../../include");
  // Composed beside main.xml, as the original tool did: the flags as written, but for the
  // variant's own folder.
  o.output_dir.clear();
  Explored beside = explore_in(d, o);
  CHECK(beside.app.sources[0].compiler.flags ==
        "-O2 -I../include -isystem ./sys -DX=1 -I/usr/include");
  CHECK(beside.app.interfaces[0].variants[0].sources[0].compiler.flags ==
        "-I../top/inc -I../include");
}

TEST_CASE("<peppher:xmlFiles> names implementation descriptors besides impPath's", "[explore]") {
  test::TempDir d;
  d.write("main.xml", main_xml({"top"}));
  d.write("top.xml", test::component("  <peppher:interface name=\"top\">\n"
                                     "    <peppher:xmlFiles file=\"../shared/b.xml\"/>\n"
                                     "    <peppher:xmlFiles>\n"
                                     "      <peppher:xmlFile file=\"c.xml\"/>\n"
                                     "      <peppher:xmlFile file=\"a.xml\"/>\n"
                                     "    </peppher:xmlFiles>\n"
                                     "  </peppher:interface>\n"));
  d.write("top/a.xml", impl("a", "top"));  // in impPath (also listed: read once)
  d.write("shared/b.xml", impl("b", "top"));
  d.write("c.xml", impl("c", "top"));  // beside the interface
  Explored e = explore_in(d);
  CHECK(e.diags == "");
  REQUIRE(e.app.interfaces.size() == 1);
  std::vector<std::string> variants;
  for (const ir::Variant& v : e.app.interfaces[0].variants) variants.push_back(v.name);
  CHECK(variants == std::vector<std::string>{"b", "c", "a"});

  // Without an impPath folder, the listed descriptors are all there is; a missing one is
  // an error at its file attribute.
  test::TempDir m;
  m.write("main.xml", main_xml({"top"}));
  m.write("top.xml", test::component("  <peppher:interface name=\"top\">\n"
                                     "    <peppher:xmlFiles><peppher:xmlFile file=\"c.xml\"/>"
                                     "<peppher:xmlFile file=\"gone.xml\"/></peppher:xmlFiles>\n"
                                     "  </peppher:interface>\n"));
  m.write("c.xml", impl("c", "top"));
  Explored missing = explore_in(m);
  CHECK(missing.diags ==
        "top.xml:3:77: error: implementation descriptor 'gone.xml' of interface 'top' does not "
        "exist (looked for 'top/gone.xml' and 'gone.xml')\n");
  REQUIRE(missing.app.interfaces.size() == 1);
  CHECK(missing.app.interfaces[0].variants.size() == 1);
}
