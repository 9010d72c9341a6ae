// Reader unit tests: inline descriptors in, IR fields and exact source locations out,
// plus the reader's own diagnostics (namespaces, unknown names, malformed XML).
#include <sstream>
#include <string>
#include <vector>

#include "compose/diag/diagnostics.h"
#include "compose/read/reader.h"
#include "peppher_catch.h"
#include "test_util.h"

using namespace peppher;

namespace {

struct Read {
  read::Descriptor d;
  std::string diags;
};

Read read_text(const std::string& text, const std::string& file = "t.xml") {
  std::ostringstream err;
  diag::Diagnostics diag(err);
  Read r{read::read_descriptor_text(file, text, diag), ""};
  r.diags = err.str();
  return r;
}

std::string at(const ir::SourceLoc& l) {
  return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

}  // namespace

TEST_CASE("interface descriptor: fields and locations", "[read]") {
  Read r = read_text(
      "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
      "  <peppher:interface name=\"vector_scale\" impPath=\"vs/\" useHistoryModels=\"true\">\n"
      "    <peppher:parameters>\n"
      "      <peppher:parameter name=\"arr\" type=\"float *\" numElements=\"size\" "
      "accessMode=\"readwrite\" partition=\"size/4\"/>\n"
      "      <peppher:parameter name=\"size\" type=\"int\" accessMode=\"read\" "
      "range=\"1..4096\"/>\n"
      "    </peppher:parameters>\n"
      "    <peppher:description>Scales a vector.</peppher:description>\n"
      "  </peppher:interface>\n"
      "</peppher:component>\n");
  CHECK(r.diags == "");
  REQUIRE(r.d.ok);
  REQUIRE(r.d.interface);
  const ir::Interface& i = *r.d.interface;
  CHECK(i.name == "vector_scale");
  CHECK(i.imp_path == "vs/");
  CHECK(i.perf_model == ir::PerfModel::History);
  CHECK(i.description == "Scales a vector.");
  CHECK(at(i.loc) == "t.xml:2:3");
  REQUIRE(i.parameters.size() == 2);
  const ir::Parameter& arr = i.parameters[0];
  CHECK(arr.name == "arr");
  CHECK(arr.type == "float *");
  CHECK(arr.access_mode == ir::AccessMode::ReadWrite);
  CHECK(at(arr.loc) == "t.xml:4:7");
  REQUIRE(arr.num_elements);
  CHECK(arr.num_elements->text == "size");
  CHECK(at(arr.num_elements->loc) == "t.xml:4:65");
  CHECK(arr.partition.kind == ir::PartitionKind::Blocks);
  CHECK(arr.partition.block.text == "size/4");
  const ir::Parameter& size = i.parameters[1];
  REQUIRE(size.range);
  CHECK(size.range->lo == "1");
  CHECK(size.range->hi == "4096");
}

TEST_CASE("implementation descriptor: sources, compiler, platform, constraints", "[read]") {
  Read r = read_text(test::component(
      "  <peppher:implementation name=\"scale_cl\">\n"
      "    <peppher:sourceFiles>\n"
      "      <peppher:sourceFile name=\"k.cl\" language=\"OpenCL\" kernel=\"scale\" "
      "globalSize=\"size\">\n"
      "        <peppher:compilation><peppher:compiler><peppher:name> gcc </peppher:name>"
      "<peppher:flags>-O3 -DX</peppher:flags></peppher:compiler></peppher:compilation>\n"
      "      </peppher:sourceFile>\n"
      "    </peppher:sourceFiles>\n"
      "    <peppher:providedInterfaces><peppher:providedInterface "
      "name=\"vs\"/></peppher:providedInterfaces>\n"
      "    <peppher:targetPlatform name=\"OPENCL\"/>\n"
      "    <peppher:constraints><peppher:constraint name=\"big\" expr=\"size &gt;= 100 &amp;&amp; "
      "platform.num_opencl > 0\"/></peppher:constraints>\n"
      "    <peppher:tunables><peppher:tunable name=\"BLOCK\" type=\"int\" values=\"16, "
      "32,64\"/></peppher:tunables>\n"
      "    <peppher:performanceAspects><peppher:predictionFunction "
      "name=\"predict\"/></peppher:performanceAspects>\n"
      "  </peppher:implementation>\n"));
  CHECK(r.diags == "");
  REQUIRE(r.d.implementations.size() == 1);
  const ir::Variant& v = r.d.implementations[0].variant;
  CHECK(v.name == "scale_cl");
  CHECK(v.provides == "vs");
  CHECK(v.backend == ir::Backend::OpenCl);
  CHECK(at(v.backend_loc) == "t.xml:9:35");
  REQUIRE(v.sources.size() == 1);
  CHECK(v.sources[0].kernel == "scale");
  CHECK(v.sources[0].compiler.name == "gcc");
  CHECK(v.sources[0].compiler.flags == "-O3 -DX");
  REQUIRE(v.sources[0].global_size.size() == 1);
  CHECK(v.sources[0].global_size[0].text == "size");
  REQUIRE(v.constraints.size() == 1);
  CHECK(v.constraints[0].expr.text == "size >= 100 && platform.num_opencl > 0");
  CHECK(at(v.constraints[0].expr.loc) == "t.xml:10:63");
  // A position inside the value, after the entities, maps back to the file.
  CHECK(at(ir::loc_at(v.constraints[0].expr, 15)) == "t.xml:10:89");
  REQUIRE(v.tunables.size() == 1);
  CHECK(v.tunables[0].values == std::vector<std::string>{"16", "32", "64"});
  CHECK(v.prediction_function == "predict");
}

TEST_CASE("any prefix bound to the namespace works; foreign elements are ignored", "[read]") {
  Read r = read_text(
      "<p:component xmlns:p=\"http://www.peppher.eu/ComponentMetaData0.1\" xmlns:x=\"urn:other\">\n"
      "  <p:interface name=\"f\" x:note=\"ignored\">\n"
      "    <x:extra><p:bogus/></x:extra>\n"
      "    <p:parameters><p:parameter name=\"n\" type=\"int\" "
      "accessMode=\"read\"/></p:parameters>\n"
      "  </p:interface>\n"
      "</p:component>\n");
  CHECK(r.diags == "");
  REQUIRE(r.d.interface);
  CHECK(r.d.interface->parameters.size() == 1);
}

TEST_CASE("default namespace works", "[read]") {
  Read r = read_text(
      "<component xmlns=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
      "  <interface name=\"f\"/>\n"
      "</component>\n");
  CHECK(r.diags == "");
  REQUIRE(r.d.interface);
  CHECK(r.d.interface->name == "f");
}

TEST_CASE("unknown element and attribute get suggestions", "[read]") {
  Read r =
      read_text(test::component("  <peppher:interface name=\"f\">\n"
                                "    <peppher:paramters/>\n"
                                "    <peppher:parameters><peppher:parameter name=\"n\" "
                                "type=\"int\" acessMode=\"read\"/></peppher:parameters>\n"
                                "  </peppher:interface>\n"));
  CHECK(
      r.diags ==
      "t.xml:3:5: error: unknown element 'peppher:paramters'; did you mean 'peppher:parameters'?\n"
      "t.xml:4:64: error: unknown attribute 'acessMode' on 'peppher:parameter'; did you mean "
      "'accessMode'?\n"
      "t.xml:4:25: error: parameter 'n' is missing required attribute 'accessMode'\n");
}

TEST_CASE("a suggestion prefers a name that differs in case only", "[read]") {
  // globalSize="N" where the kernel's interface has 'A' and 'n': 'n' is meant.
  const std::vector<std::string> params = {"alpha", "A", "x", "n"};
  CHECK(diag::closest_match_in(std::string("N"), params) == "n");
  CHECK(diag::closest_match_in(std::string("ALPHA"), params) == "alpha");
  CHECK(diag::closest_match_in(std::string("B"), params) == "A");  // a typo still suggests
  CHECK(diag::closest_match_in(std::string("n"), params) == "n");
  CHECK(diag::closest_match_in(std::string("zzz"), params).empty());
}

TEST_CASE("malformed XML is reported at the parser's position", "[read]") {
  Read r = read_text("<a>\n  <b>\n</a>\n");
  CHECK(r.diags == "t.xml:3:3: error: malformed XML: Start-end tags mismatch\n");
  CHECK_FALSE(r.d.ok);
}

TEST_CASE("root must be peppher:component", "[read]") {
  CHECK(
      read_text("<component/>").diags ==
      "t.xml:1:1: error: root element 'component' is not in the PEPPHER namespace; declare "
      "xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\" and use 'peppher:component'\n");
  CHECK(
      read_text("<peppher:interface xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\"/>")
          .diags ==
      "t.xml:1:1: error: root element is 'peppher:interface'; expected 'peppher:component'\n");
}

TEST_CASE("main descriptor pieces: link step and composition", "[read]") {
  Read r = read_text(test::component(
      "  <peppher:implementation name=\"main\">\n"
      "    <peppher:sourceFiles><peppher:sourceFile><peppher:compilation><peppher:compiler "
      "type=\"link\">"
      "<peppher:name>g++</peppher:name><peppher:output>app</peppher:output>"
      "</peppher:compiler></peppher:compilation></peppher:sourceFile></peppher:sourceFiles>\n"
      "    <peppher:targetPlatform name=\"CPU\"/>\n"
      "    <peppher:composition scheduler=\"dmda\" useRegressionModels=\"1\"/>\n"
      "  </peppher:implementation>\n"));
  CHECK(r.diags == "");
  REQUIRE(r.d.implementations.size() == 1);
  const read::Implementation& m = r.d.implementations[0];
  REQUIRE(m.variant.sources.size() == 1);
  CHECK(m.variant.sources[0].compiler.type == "link");
  CHECK(m.variant.sources[0].compiler.output == "app");
  REQUIRE(m.composition);
  CHECK(m.composition->scheduler == "dmda");
  CHECK(m.composition->perf_model == ir::PerfModel::Regression);
}

TEST_CASE("instantiate lists and generic parameters", "[read]") {
  Read r = read_text(test::component(
      "  <peppher:implementation name=\"main\">\n"
      "    <peppher:requiredInterfaces>\n"
      "      <peppher:requiredInterface name=\"a\" instantiate=\"int, float\"/>\n"
      "      <peppher:requiredInterface name=\"b\" instantiate=\"int,char;float,char\"/>\n"
      "    </peppher:requiredInterfaces>\n"
      "  </peppher:implementation>\n"));
  CHECK(r.diags == "");
  REQUIRE(r.d.implementations.size() == 1);
  const auto& req = r.d.implementations[0].variant.required;
  REQUIRE(req.size() == 2);
  CHECK(req[0].instantiate == std::vector<std::vector<std::string>>{{"int"}, {"float"}});
  CHECK(req[1].instantiate ==
        std::vector<std::vector<std::string>>{{"int", "char"}, {"float", "char"}});
}

TEST_CASE("the original tool's spellings: padded values, any-case platforms, templateTypes alone",
          "[read]") {
  // As the original's -generateCompFiles skeletons write them.
  Read i = read_text(test::component(
      "  <peppher:interface name=\" vmax \" impPath=\" ./vmax/ \" templateTypes=\" T \">\n"
      "  </peppher:interface>\n"));
  CHECK(i.diags == "");
  REQUIRE(i.d.interface);
  CHECK(i.d.interface->name == "vmax");
  CHECK(i.d.interface->imp_path == "./vmax/");
  CHECK(i.d.interface->generic);  // the original had no kind="generic"
  CHECK(i.d.interface->template_types == std::vector<std::string>{"T"});
  Read ng = read_text(test::component(
      "  <peppher:interface name=\"f\" kind=\"non-generic\" templateTypes=\"T\"/>\n"));
  REQUIRE(ng.d.interface);
  CHECK_FALSE(ng.d.interface->generic);
  const std::pair<const char*, ir::Backend> platforms[] = {
      {" CPU ", ir::Backend::Cpu},       {"cpu", ir::Backend::Cpu},
      {" OpenCL ", ir::Backend::OpenCl}, {"OpenMP", ir::Backend::OpenMp},
      {"Cuda", ir::Backend::Cuda},       {"OPENCL", ir::Backend::OpenCl}};
  for (const auto& [name, backend] : platforms) {
    INFO(name);
    Read r = read_text(
        test::component(std::string("  <peppher:implementation name=\" v \">\n"
                                    "    <peppher:targetPlatform name=\"") +
                        name + "\"> </peppher:targetPlatform>\n  </peppher:implementation>\n"));
    CHECK(r.diags == "");
    REQUIRE(r.d.implementations.size() == 1);
    CHECK(r.d.implementations[0].variant.backend == backend);
  }
}

TEST_CASE("encodings: UTF-8 with a BOM, ISO-8859-1, UTF-16 with its BOM, CRLF", "[read]") {
  const std::string body =
      "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\r\n"
      "  <peppher:interface name=\"f\">\r\n"
      "    <peppher:description>\xE9l\xE9ment</peppher:description>\r\n"
      "  </peppher:interface>\r\n"
      "</peppher:component>\r\n";
  Read bom = read_text("\xEF\xBB\xBF" + body);
  CHECK(bom.diags == "");
  REQUIRE(bom.d.interface);
  CHECK(at(bom.d.interface->loc) == "t.xml:2:3");
  Read latin1 = read_text("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\r\n" + body);
  CHECK(latin1.diags == "");
  REQUIRE(latin1.d.interface);
  CHECK(at(latin1.d.interface->loc) == "t.xml:3:3");
  // UTF-16, little and big endian (the description in UTF-16 is "élément").
  for (bool big : {false, true}) {
    std::string utf16 = big ? "\xFE\xFF" : "\xFF\xFE";
    for (unsigned char c : "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + body) {
      const char hi = '\0', lo = static_cast<char>(c);
      utf16 += big ? std::string{hi, lo} : std::string{lo, hi};
    }
    Read r = read_text(utf16);
    CHECK(r.diags == "");
    REQUIRE(r.d.interface);
    CHECK(r.d.interface->name == "f");
    CHECK(at(r.d.interface->loc) == "t.xml:3:3");
    CHECK(r.d.interface->description == "\xC3\xA9l\xC3\xA9ment");
  }
}

TEST_CASE("partition spellings: '*', '?', 'auto', 1-D and 2-D expressions", "[read]") {
  auto partition_of = [](const std::string& value) {
    Read r = read_text(
        "<peppher:component xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\">\n"
        "  <peppher:interface name=\"f\">\n"
        "    <peppher:parameters>\n"
        "      <peppher:parameter name=\"v\" type=\"float *\" numElements=\"n\" "
        "accessMode=\"read\" partition=\"" +
        value +
        "\"/>\n"
        "    </peppher:parameters>\n"
        "  </peppher:interface>\n"
        "</peppher:component>\n");
    REQUIRE(r.d.interface);
    return r.d.interface->parameters.at(0).partition;
  };
  CHECK(partition_of("*").kind == ir::PartitionKind::None);
  CHECK(partition_of("?").kind == ir::PartitionKind::Auto);
  CHECK(partition_of("auto").kind == ir::PartitionKind::Auto);
  CHECK(partition_of("n/4").kind == ir::PartitionKind::Blocks);
  ir::Partition two_d = partition_of("16, (n+1)/2");
  CHECK(two_d.kind == ir::PartitionKind::Blocks2D);
  CHECK(two_d.block.text == "16");
  CHECK(two_d.block_cols.text == "(n+1)/2");
  // One dimension of the call's 2-D grid, the other whole: row blocks, column blocks.
  ir::Partition rows = partition_of("M.rows/2, *");
  CHECK(rows.kind == ir::PartitionKind::GridRows);
  CHECK(rows.block.text == "M.rows/2");
  CHECK(rows.block_cols.text.empty());
  ir::Partition cols = partition_of(" * ,tile");
  CHECK(cols.kind == ir::PartitionKind::GridCols);
  CHECK(cols.block.text.empty());
  CHECK(cols.block_cols.text == "tile");
  CHECK(partition_of("*,*").kind == ir::PartitionKind::None);  // with an error (test/bad)
}
