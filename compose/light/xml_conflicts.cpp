// Compares a light-form interface with the XML interface descriptor of the same name beside
// its header, parameter by parameter, as texts (both readers keep expressions as written).
#include "compose/light/xml_conflicts.h"

#include <filesystem>

#include "compose/explore/paths.h"
#include "compose/read/reader.h"

namespace peppher::light {
namespace {

std::string text_of(const std::optional<ir::Expression>& e) {
  return e ? e->text : "";
}

std::string partition_of(const ir::Partition& p) {
  const std::string rows = p.kind == ir::PartitionKind::GridCols ? "*" : p.block.text;
  const std::string cols = p.kind == ir::PartitionKind::GridRows ? "*" : p.block_cols.text;
  switch (p.kind) {
    case ir::PartitionKind::None:
      return "";
    case ir::PartitionKind::Auto:
      return "?";
    case ir::PartitionKind::Blocks:
      return rows;
    default:
      return rows + "," + cols;
  }
}

// "const float *" and "const float*" (or "n + 1" and "n+1"): the same type or expression,
// spelled with other blanks.
std::string squeezed(const std::string& type) {
  std::string s;
  for (char c : type) {
    if (c != ' ') s += c;
  }
  return s;
}

}  // namespace

void check_xml_agrees(const ir::Interface& i, diag::Diagnostics& diag) {
  const std::string xml = explore::resolve_relative(i.descriptor_file, i.name + ".xml");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(xml, ec)) return;
  read::Descriptor d = read::read_descriptor_file(xml, i.loc, diag);
  if (!d.ok || !d.interface) return;
  const ir::Interface& x = *d.interface;
  if (x.parameters.size() != i.parameters.size()) {
    diag.error(i.loc, "interface '" + i.name + "' has " + std::to_string(i.parameters.size()) +
                          " parameters here but " + std::to_string(x.parameters.size()) + " in '" +
                          xml + "'; the declaration and the descriptor must agree");
    diag.note(x.loc, "the descriptor of '" + i.name + "'");
    return;
  }
  if (i.perf_model != x.perf_model) {
    const std::string here =
        i.perf_model == ir::PerfModel::None
            ? "none here (no PEPPHER_MODEL)"
            : std::string("'") + ir::to_string(i.perf_model) + "' here (PEPPHER_MODEL)";
    diag.error(i.loc, "interface '" + i.name + "': performance model " + here + ", but '" +
                          ir::to_string(x.perf_model) + "' in its XML descriptor; make them agree");
    diag.note(x.loc, "the descriptor of '" + i.name + "'");
  }
  for (size_t k = 0; k < i.parameters.size(); ++k) {
    const ir::Parameter& h = i.parameters[k];
    const ir::Parameter& p = x.parameters[k];
    struct Fact {
      const char* what;
      std::string here, there;
    };
    const Fact facts[] = {
        {"name", h.name, p.name},
        {"type", squeezed(h.type), squeezed(p.type)},
        {"access mode", ir::to_string(h.access_mode), ir::to_string(p.access_mode)},
        {"numElements", text_of(h.num_elements), text_of(p.num_elements)},
        {"descRowWidth", text_of(h.desc_row_width), text_of(p.desc_row_width)},
        {"partition", partition_of(h.partition), partition_of(p.partition)},
        {"halo", text_of(h.halo), text_of(p.halo)},
        {"blockFirst", h.block_first, p.block_first},
        {"reduction", ir::to_string(h.reduction), ir::to_string(p.reduction)},
        {"csr_nrows", h.csr.nrows, p.csr.nrows},
        {"csr_row_offsets", h.csr.row_offsets, p.csr.row_offsets},
        {"csr_col_indices", h.csr.col_indices, p.csr.col_indices},
        {"csr_first", h.csr.first, p.csr.first},
    };
    for (const Fact& f : facts) {
      if (squeezed(f.here) == squeezed(f.there)) continue;  // "nrows + 1" is "nrows+1"
      diag.error(h.loc, "parameter " + std::to_string(k + 1) + " '" + h.name + "' of '" + i.name +
                            "': " + f.what + " '" + f.here + "' here, but '" + f.there +
                            "' in its XML descriptor; make them agree (or remove one)");
      diag.note(p.loc, "the descriptor's parameter '" + p.name + "'");
    }
  }
}

}  // namespace peppher::light
