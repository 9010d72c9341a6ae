// libFuzzer target for the reader: arbitrary bytes as a descriptor, then every expression
// attribute through the expression parser. Must never crash, hang or leak past ASan.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "compose/expr/parser.h"
#include "compose/read/reader.h"

namespace {

void parse_all(const peppher::ir::Expression& e) {
  peppher::expr::ParseResult r = peppher::expr::parse(e.text);
  if (r.root) (void)peppher::expr::to_cpp(*r.root);
  if (r.error) (void)peppher::ir::loc_at(e, r.error->offset);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::ostringstream sink;
  peppher::diag::Diagnostics diag(sink);
  peppher::read::Descriptor d = peppher::read::read_descriptor_text(
      "fuzz.xml", std::string(reinterpret_cast<const char*>(data), size), diag);
  if (d.interface) {
    for (const auto& p : d.interface->parameters) {
      if (p.num_elements) parse_all(*p.num_elements);
      if (p.partition.kind != peppher::ir::PartitionKind::None) parse_all(p.partition.block);
    }
  }
  for (const auto& impl : d.implementations) {
    for (const auto& c : impl.variant.constraints) parse_all(c.expr);
  }
  return 0;
}
