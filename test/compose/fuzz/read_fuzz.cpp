// libFuzzer target for the reader and the whole composer: arbitrary bytes as a descriptor,
// then every expression attribute through the expression parser; then, when the bytes are
// an interface descriptor, a complete application around it (main.xml and one CPU variant)
// composed into a temporary output folder. Must never crash, hang, leak past ASan, report
// an internal error, or leave a file anywhere outside the output folder.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compose/driver.h"
#include "compose/expr/parser.h"
#include "compose/read/reader.h"
#include "compose/utility/skeleton/plan.h"
#include "test/compose/test_util.h"

namespace fs = std::filesystem;

namespace {

void parse_all(const peppher::ir::Expression& e) {
  peppher::expr::ParseResult r = peppher::expr::parse(e.text);
  if (r.root) (void)peppher::expr::to_cpp(*r.root);
  if (r.error) (void)peppher::ir::loc_at(e, r.error->offset);
}

// A plain folder name the harness itself may create (it must not escape either).
bool plain_folder(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  if (s.empty() || s.size() > 64 || s == "." || s == "..") return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

const fs::path& scratch() {
  static const fs::path kRoot = [] {
    std::string tmpl = (fs::temp_directory_path() / "compose-fuzz-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) std::abort();
    return fs::path(buf.data());
  }();
  return kRoot;
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// The application around a fuzzed interface descriptor, composed into <root>/a/b/out.
void compose_around(const std::string& text, const peppher::ir::Interface& iface) {
  const fs::path root = scratch();
  std::error_code ec;
  fs::remove_all(root / "a", ec);
  const fs::path work = root / "a" / "b" / "case", out = root / "a" / "b" / "out";
  const char* ns = "xmlns:peppher=\"http://www.peppher.eu/ComponentMetaData0.1\"";
  write(work / "iface.xml", text);
  write(work / "main.cpp", "int main() { return 0; }\n");
  write(work / "main.xml", std::string("<peppher:component ") + ns +
                               "><peppher:implementation name=\"main\"><peppher:sourceFiles>"
                               "<peppher:sourceFile name=\"main.cpp\"/></peppher:sourceFiles>"
                               "<peppher:requiredInterfaces><peppher:requiredInterface name=\"" +
                               peppher::skeleton::xml_escape(iface.name) +
                               "\" xmlFile=\"iface.xml\"/></peppher:requiredInterfaces>"
                               "<peppher:targetPlatform name=\"CPU\"/></peppher:implementation>"
                               "</peppher:component>\n");
  const std::string folder = iface.imp_path.empty() ? iface.name : iface.imp_path;
  if (plain_folder(folder)) {
    write(work / folder / "v_cpu.xml",
          std::string("<peppher:component ") + ns +
              "><peppher:implementation name=\"v_cpu\"><peppher:sourceFiles>"
              "<peppher:sourceFile name=\"v_cpu.cpp\"/></peppher:sourceFiles>"
              "<peppher:providedInterfaces><peppher:providedInterface name=\"" +
              peppher::skeleton::xml_escape(iface.name) +
              "\"/></peppher:providedInterfaces><peppher:targetPlatform name=\"CPU\"/>"
              "</peppher:implementation></peppher:component>\n");
    write(work / folder / "v_cpu.cpp", "// variant\n");
  }
  const auto before = peppher::test::snapshot(root, out);
  std::ostringstream sink_out, sink_err;
  const int code =
      peppher::run_compose({(work / "main.xml").string(), "-o", out.string()}, sink_out, sink_err);
  if (code == 2) {  // "internal error": a bug, not a user mistake
    fprintf(stderr, "%s", sink_err.str().c_str());
    std::abort();
  }
  if (peppher::test::snapshot(root, out) != before) {  // something was written outside -o
    fprintf(stderr, "compose wrote outside its output folder\n%s", sink_err.str().c_str());
    std::abort();
  }
  if (code != 0 && fs::exists(out) && !fs::is_empty(out)) {  // an error must write nothing
    fprintf(stderr, "compose failed but wrote output\n%s", sink_err.str().c_str());
    std::abort();
  }
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): libFuzzer's entry point
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::ostringstream sink;
  peppher::diag::Diagnostics diag(sink);
  const std::string text(reinterpret_cast<const char*>(data), size);
  peppher::read::Descriptor d = peppher::read::read_descriptor_text("fuzz.xml", text, diag);
  if (d.interface) {
    for (const auto& p : d.interface->parameters) {
      if (p.num_elements) parse_all(*p.num_elements);
      if (p.partition.kind != peppher::ir::PartitionKind::None) parse_all(p.partition.block);
    }
  }
  for (const auto& impl : d.implementations) {
    for (const auto& c : impl.variant.constraints) parse_all(c.expr);
  }
  if (d.interface && !diag.has_errors()) compose_around(text, *d.interface);
  return 0;
}
