// Schema test: runs `xmllint --schema schemas/peppher.xsd` on every descriptor the
// repository ships as valid (components/, apps/, golden inputs, end-to-end inputs) and on
// the bad-input corpus cases marked `schema-invalid`, plus inline samples of the format.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "peppher_catch.h"

namespace fs = std::filesystem;

namespace {

// The tree to check: the source tree this test was built from, or PEPPHER_SCHEMA_TEST_ROOT
// (to check another checkout or an installed copy, and to test this test on a fake tree).
fs::path source_dir() {
  const char* root = std::getenv("PEPPHER_SCHEMA_TEST_ROOT");
  return (root != nullptr && *root != '\0') ? fs::path(root) : fs::path(PEPPHER_SOURCE_DIR);
}

const fs::path kSourceDir = source_dir();
const fs::path kSchema = kSourceDir / "schemas" / "peppher.xsd";

// xmllint's exit codes (xmllint.c): 0 valid, 1 not well-formed / unreadable, 3 invalid,
// 5 the schema itself does not compile.
constexpr int kXmllintInvalid = 3;
constexpr int kXmllintMalformed = 1;

struct LintResult {
  int exit_code = -1;
  std::string output;
};

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// Runs xmllint on one file against the project schema; captures stdout and stderr.
LintResult validate(const fs::path& file) {
  const std::string cmd = shell_quote(PEPPHER_XMLLINT) + " --noout --schema " +
                          shell_quote(kSchema.string()) + " " + shell_quote(file.string()) +
                          " 2>&1";
  LintResult result;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) {
    result.output = "popen failed for: " + cmd;
    return result;
  }
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) {
    result.output.append(buf.data(), n);
  }
  const int status = pclose(pipe);
  result.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string rel_path(const fs::path& p) {
  return fs::relative(p, kSourceDir).string();
}

// Folders never searched: hidden ones and build trees that may sit inside the sources.
bool skipped_dir(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return (!name.empty() && name[0] == '.') || name.rfind("build", 0) == 0;
}

// Every *.xml below root (recursively), filtered by keep(path), sorted.
template <typename Keep>
std::vector<fs::path> xml_files_under(const fs::path& root, Keep keep) {
  std::vector<fs::path> files;
  if (!fs::is_directory(root)) return files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_directory() && skipped_dir(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    // Training tables (peppher_perf.<platform>.xml) are compose's output, not descriptors.
    const bool table = it->path().filename().string().rfind("peppher_perf.", 0) == 0;
    if (it->is_regular_file() && it->path().extension() == ".xml" && !table && keep(it->path())) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool has_path_component(const fs::path& p, const fs::path& base, const std::string& name) {
  for (const auto& part : fs::relative(p, base)) {
    if (part == name) return true;
  }
  return false;
}

// The descriptors shipped as valid: components/, apps/, test/golden/**/input/**,
// test/e2e/**. test/bad/ is never included.
std::vector<fs::path> shipped_valid_descriptors() {
  const auto all = [](const fs::path&) { return true; };
  std::vector<fs::path> files;
  for (const char* dir : {"components", "apps"}) {
    const auto found = xml_files_under(kSourceDir / dir, all);
    files.insert(files.end(), found.begin(), found.end());
  }
  const fs::path golden = kSourceDir / "test" / "golden";
  const auto inputs = xml_files_under(
      golden, [&](const fs::path& p) { return has_path_component(p, golden, "input"); });
  files.insert(files.end(), inputs.begin(), inputs.end());
  const auto e2e = xml_files_under(kSourceDir / "test" / "e2e", all);
  files.insert(files.end(), e2e.begin(), e2e.end());
  return files;
}

// Cases of the bad-input corpus (test/bad/<case>/) that carry a `schema-invalid` marker.
std::vector<fs::path> schema_invalid_cases() {
  std::vector<fs::path> cases;
  const fs::path bad = kSourceDir / "test" / "bad";
  if (!fs::is_directory(bad)) return cases;
  for (const auto& entry : fs::directory_iterator(bad)) {
    if (entry.is_directory() && fs::exists(entry.path() / "schema-invalid")) {
      cases.push_back(entry.path());
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

// A per-process scratch folder for inline samples, removed when the test exits.
struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("peppher-schema-test-" + std::to_string(getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

// Writes an inline descriptor to a scratch file and validates it.
LintResult validate_text(const std::string& name, const std::string& xml) {
  static const ScratchDir kScratch;
  const fs::path file = kScratch.path / name;
  std::ofstream(file) << xml;
  return validate(file);
}

const char* const kNs = "xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\"";

std::string component(const std::string& body) {
  return std::string("<peppher:component ") + kNs + ">\n" + body + "\n</peppher:component>\n";
}

}  // namespace

TEST_CASE("the schema compiles and accepts a minimal interface", "[schema]") {
  REQUIRE(fs::exists(kSchema));
  const auto r = validate_text("minimal.xml", component("<peppher:interface name=\"f\"/>"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
}

TEST_CASE("every shipped descriptor validates against the schema", "[schema]") {
  const auto files = shipped_valid_descriptors();
  INFO("searched components/, apps/, test/golden/**/input/, test/e2e/ under " << kSourceDir);
  REQUIRE_FALSE(files.empty());
  for (const auto& file : files) {
    const auto r = validate(file);
    if (r.exit_code != 0) {
      FAIL_CHECK(rel_path(file) << " does not validate (xmllint exit " << r.exit_code << "):\n"
                                << r.output);
    } else {
      SUCCEED(rel_path(file));
    }
  }
  WARN("validated " << files.size() << " shipped descriptors");
}

TEST_CASE("bad-input cases marked schema-invalid are rejected", "[schema]") {
  const auto cases = schema_invalid_cases();
  // No marker means the schema's rejections go untested (a moved corpus, a wrong root):
  // that is a failure, not a pass.
  INFO("no test/bad/<case>/schema-invalid marker found under " << kSourceDir);
  REQUIRE_FALSE(cases.empty());
  for (const auto& dir : cases) {
    const auto files = xml_files_under(dir, [](const fs::path&) { return true; });
    if (files.empty()) {
      FAIL_CHECK(rel_path(dir) << " is marked schema-invalid but holds no .xml file");
      continue;
    }
    std::string report;
    bool rejected = false;
    for (const auto& file : files) {
      const auto r = validate(file);
      // Only a real rejection counts; a schema that fails to load must not pass the case.
      if (r.exit_code == kXmllintInvalid || r.exit_code == kXmllintMalformed) rejected = true;
      report += rel_path(file) + ": exit " + std::to_string(r.exit_code) + "\n" + r.output;
    }
    if (!rejected) {
      FAIL_CHECK(rel_path(dir) << " is marked schema-invalid but every file validates:\n"
                               << report);
    } else {
      SUCCEED(rel_path(dir));
    }
  }
}

// The format's own examples (FORMAT.md) and the published tool's habits must validate.
TEST_CASE("published-format samples validate", "[schema]") {
  const std::vector<std::pair<std::string, std::string>> samples = {
      {"interface.xml", component(R"(
  <peppher:interface name="vector_scale" impPath="vector_scale/">
    <peppher:parameters>
      <peppher:parameter name="arr" type="float *" numElements="size" accessMode="readwrite"/>
      <peppher:parameter name="size" type="int" accessMode="read"/>
      <peppher:parameter name="factor" type="float" accessMode="read"/>
    </peppher:parameters>
  </peppher:interface>)")},
      {"implementation.xml", component(R"(
  <peppher:implementation name="scale_cpu_func">
    <peppher:sourceFiles>
      <peppher:sourceFile name="vector_scale_cpu.c" version="1.0" language="C">
        <peppher:compilation>
          <peppher:compiler>
            <peppher:name>g++</peppher:name>
            <peppher:flags>-O2</peppher:flags>
          </peppher:compiler>
        </peppher:compilation>
      </peppher:sourceFile>
    </peppher:sourceFiles>
    <peppher:providedInterfaces>
      <peppher:providedInterface name="vector_scale"/>
    </peppher:providedInterfaces>
    <peppher:targetPlatform name="CPU"/>
    <peppher:constraints>
      <peppher:constraint name="small_only" expr="size &lt; 5000"/>
    </peppher:constraints>
  </peppher:implementation>)")},
      // Any prefix, xsi:schemaLocation, the nameless link step, composition (ext).
      {"main.xml", R"(<?xml version="1.0"?>
<p:component xmlns:p="http://www.peppher.eu/ComponentMetaData0.1"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.peppher.eu/ComponentMetaData0.1 ComponentMetaData.xsd">
  <p:implementation name="main">
    <p:sourceFiles>
      <p:sourceFile name="main.cpp" version="1.0" language="C++">
        <p:compilation><p:compiler><p:name>g++</p:name><p:version>4.3</p:version>
          <p:flags>-fopenmp</p:flags></p:compiler></p:compilation>
      </p:sourceFile>
      <p:sourceFile>
        <p:compilation><p:compiler type="link"><p:name>g++</p:name><p:flags>-lm</p:flags>
          <p:output>vector_scale</p:output></p:compiler></p:compilation>
      </p:sourceFile>
    </p:sourceFiles>
    <p:requiredInterfaces>
      <p:requiredInterface name="vector_scale" xmlFile="vector_scale.xml"/>
      <p:requiredInterface name="sort" xmlFile="sort.xml" instantiate="int,float"/>
    </p:requiredInterfaces>
    <p:targetPlatform name="CPU" pdlRef="node.xml"/>
    <p:composition scheduler="dmda" optimizationGoal="time" useHistoryModels="1"/>
  </p:implementation>
</p:component>
)"},
      {"platform.xml", component(R"(
  <peppher:platform name="my-node">
    <peppher:property name="num_cuda" value="1"/>
  </peppher:platform>)")},
      // The original tool's OpenCL skeleton: padded values, a language child, an empty
      // compilation, host-side OpenCL names; children in another order; foreign content.
      {"original_opencl.xml", component(R"(
  <peppher:implementation name=" foo_opencl " xmlns:x="urn:x" x:note="kept">
    <peppher:targetPlatform name=" OPENCL "> </peppher:targetPlatform>
    <x:anything/>
    <peppher:sourceFiles>
      <peppher:sourceFile name="host.cpp" language="OpenCL" starpu_opencl_program="p"
          cl_kernel="k" cl_command_queue="q">
        <peppher:compilation>
          <peppher:compiler><peppher:name> g++ </peppher:name><peppher:version> </peppher:version>
          </peppher:compiler>
          <peppher:language> OpenCL </peppher:language>
        </peppher:compilation>
      </peppher:sourceFile>
      <peppher:sourceFile name="foo.cl" kernel="foo" language="OpenCL" globalSize="n"
          localSize="64"><peppher:compilation></peppher:compilation></peppher:sourceFile>
    </peppher:sourceFiles>
    <peppher:providedInterfaces><peppher:providedInterface name="foo"/></peppher:providedInterfaces>
    <peppher:tunables><peppher:tunable name="BLOCK" type="int" values="16,32"/></peppher:tunables>
    <peppher:parameterConstraints><peppher:constraint expr="n % 4 == 0"/></peppher:parameterConstraints>
    <peppher:performanceAspects><peppher:predictionFunction name="foo_cost"/></peppher:performanceAspects>
  </peppher:implementation>
  <peppher:implementation name="foo_cuda" disable="true"><peppher:targetPlatform name="CUDA"/>
  </peppher:implementation>)")},
      // A 2-D launch with a __local argument (ext).
      {"ndrange.xml", component(R"(
  <peppher:implementation name="blur_opencl">
    <peppher:sourceFiles>
      <peppher:sourceFile name="blur.cl" kernel="blur" globalSize="nj, ni" localSize="16,8">
        <peppher:localArg name="tile" size="(16 + 2) * 10"/>
      </peppher:sourceFile>
    </peppher:sourceFiles>
    <peppher:providedInterfaces><peppher:providedInterface name="blur"/></peppher:providedInterfaces>
    <peppher:targetPlatform name="OPENCL"/>
  </peppher:implementation>)")},
      {"generic.xml", component(R"(
  <peppher:interface name="sort" kind="generic" templateTypes="T" useHistoryModels="true"
      disableCUDA="0">
    <peppher:description>Sorts <b>in place</b>.</peppher:description>
    <peppher:parameters>
      <peppher:parameter name="v" type="peppher::Vector&lt;T&gt; &amp;" accessMode="readwrite"
          partition="?" elemType="T"/>
      <peppher:parameter name="n" type="int" accessMode="read" range="1..100000"/>
    </peppher:parameters>
    <peppher:performanceAspects>average execution time
      <peppher:performanceAspect name="avg_time"/></peppher:performanceAspects>
    <peppher:genericParameters><peppher:genericParameter name="T" types="int,float"/>
    </peppher:genericParameters>
  </peppher:interface>)")},
  };
  for (const auto& [name, xml] : samples) {
    const auto r = validate_text(name, xml);
    INFO(name << ":\n" << xml << "\n" << r.output);
    CHECK(r.exit_code == 0);
  }
}

TEST_CASE("common mistakes are schema-invalid", "[schema]") {
  const std::vector<std::pair<std::string, std::string>> samples = {
      {"bad_access.xml", component(R"(<peppher:interface name="f"><peppher:parameters>
        <peppher:parameter name="a" type="int" accessMode="rw"/></peppher:parameters>
        </peppher:interface>)")},
      {"bad_platform.xml", component(R"(<peppher:implementation name="f">
        <peppher:targetPlatform name="GPU"/></peppher:implementation>)")},
      {"no_name.xml", component("<peppher:interface/>")},
      {"no_access.xml", component(R"(<peppher:interface name="f"><peppher:parameters>
        <peppher:parameter name="a" type="int"/></peppher:parameters></peppher:interface>)")},
      {"typo_element.xml", component(R"(<peppher:interface name="f"><peppher:paramters/>
        </peppher:interface>)")},
      {"typo_attribute.xml", component(R"(<peppher:interface name="f" impPth="x/"/>)")},
      {"unqualified_child.xml", component(R"(<peppher:interface name="f"><parameters/>
        </peppher:interface>)")},
      {"bad_boolean.xml", component(R"(<peppher:interface name="f" disableCPU="yes"/>)")},
      {"bad_kind.xml", component(R"(<peppher:interface name="f" kind="template"/>)")},
      {"both_kinds.xml", component(R"(<peppher:interface name="f"/>
        <peppher:implementation name="g"/>)")},
      {"empty_component.xml", component("")},
      {"wrong_namespace.xml", R"(<peppher:component
        xmlns:peppher="http://www.peppher.eu/ComponentMetaData0.2">
        <peppher:interface name="f"/></peppher:component>)"},
      {"wrong_root.xml", std::string("<peppher:interface ") + kNs + " name=\"f\"/>"},
      {"bad_range.xml", component(R"(<peppher:interface name="f"><peppher:parameters>
        <peppher:parameter name="n" type="int" accessMode="read" range="100"/>
        </peppher:parameters></peppher:interface>)")},
      {"bad_link_type.xml", component(R"(<peppher:implementation name="main">
        <peppher:sourceFiles><peppher:sourceFile><peppher:compilation>
        <peppher:compiler type="lnk"/></peppher:compilation></peppher:sourceFile>
        </peppher:sourceFiles></peppher:implementation>)")},
      {"constraint_no_expr.xml", component(R"(<peppher:implementation name="f">
        <peppher:constraints><peppher:constraint name="c"/></peppher:constraints>
        </peppher:implementation>)")},
  };
  for (const auto& [name, xml] : samples) {
    const auto r = validate_text(name, xml);
    INFO(name << ":\n" << xml << "\n" << r.output);
    CHECK(r.exit_code == kXmllintInvalid);
  }
}
