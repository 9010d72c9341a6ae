// compose --emit-xml DIR: the original-format descriptors equivalent to a light-form
// program (main.xml, one interface descriptor per interface, one implementation
// descriptor per variant), for inspection or to continue in XML.
#pragma once

#include "compose/ir/ir.h"
#include "compose/output/output_context.h"

namespace peppher::light {

// Prints the descriptors of `app` (as light::load read it, before check/) into `out`,
// paths relative to `dir` (where they will be written): DIR/main.xml, DIR/<iface>.xml,
// DIR/<iface>/<variant>.xml. Source and header paths point back at the user's files.
void emit_xml(const ir::Application& app, const ir::Options& options, const std::string& dir,
              output::OutputContext& out);

}  // namespace peppher::light
