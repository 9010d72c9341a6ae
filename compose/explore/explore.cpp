// The explorer: reads main.xml, then every interface and implementation descriptor it can
// reach, in a deterministic order (folders listed sorted), applying -disableXMLFiles, then
// attaches variants to interfaces and orders interfaces bottom-up (order.cpp).
#include "compose/explore/explore.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "common/files.h"
#include "compose/explore/order.h"
#include "compose/explore/paths.h"
#include "compose/explore/table.h"
#include "compose/light/light_interface.h"
#include "compose/read/reader.h"
#include "compose/runtime_location.h"

namespace peppher::explore {
namespace {

namespace fs = std::filesystem;

class Explorer {
 public:
  Explorer(const ir::Options& o, diag::Diagnostics& d) : opts_(o), diag_(d) {
    disabled_files_used_.assign(o.disable_xml_files.size(), false);
  }

  ir::Application run() {
    ir::Application app;
    app.descriptor_file = normalize(opts_.main_xml);
    read_main(app);
    for (const ir::RequiredInterface& r : app.required) require(r);
    // Worklist: variants read from implementation folders may require more interfaces.
    for (size_t i = 0; i < pending_variants_.size(); ++i) {
      std::vector<ir::RequiredInterface> reqs = pending_variants_[i].required;
      for (const ir::RequiredInterface& r : reqs) require(r);
    }
    attach_variants();
    resolve_by_name(app.required);
    for (ir::Interface& i : interfaces_) {
      for (ir::Variant& v : i.variants) resolve_by_name(v.required);
    }
    for (size_t k = 0; k < opts_.disable_xml_files.size(); ++k) {
      if (!disabled_files_used_[k]) {
        diag_.warning("-disableXMLFiles: '" + opts_.disable_xml_files[k] +
                      "' matched no implementation descriptor");
      }
    }
    app.interfaces = order_bottom_up(app.required, std::move(interfaces_), diag_);
    return app;
  }

 private:
  void read_main(ir::Application& app) {
    const std::string& path = app.descriptor_file;
    read::Descriptor d = read::read_descriptor_file(path, ir::SourceLoc{}, diag_);
    if (!d.ok) return;
    if (d.implementations.empty()) {
      diag_.error(d.root_loc, "'" + path + "' is not a main descriptor; expected an '" +
                                  "implementation' named 'main' (the application's sources, "
                                  "link step and required interfaces)");
      return;
    }
    if (d.implementations.size() > 1) {
      diag_.error(d.implementations[1].variant.loc,
                  "the main descriptor holds more than one implementation");
    }
    read::Implementation& m = d.implementations[0];
    app.loc = m.variant.loc;
    app.name = m.variant.name;
    if (app.name != "main") {
      diag_.warning(app.loc, "the main descriptor's implementation is named '" + app.name +
                                 "'; expected 'main'");
    }
    // The published examples' main.xml provides `main` itself: normal. Anything else is
    // not something a program's main can provide.
    if (!m.variant.provides.empty() && m.variant.provides != "main") {
      diag_.warning(m.variant.provides_loc,
                    "the main descriptor provides '" + m.variant.provides +
                        "', which is ignored: " + "only 'main' is expected here");
    }
    bool have_link = false;
    for (ir::SourceFile& f : m.variant.sources) {
      if (f.compiler.type == "link") {
        if (have_link) {
          diag_.error(f.loc, "more than one link step in the main descriptor");
          continue;
        }
        have_link = true;
        app.link = f.compiler;
        app.link.flags =
            rebase_flags(f.compiler.flags, parent_dir(path), parent_dir(path), out_dir());
        continue;
      }
      f.path = resolve_relative(path, f.name);
      f.compiler.flags =
          rebase_flags(f.compiler.flags, parent_dir(path), parent_dir(path), out_dir());
      app.sources.push_back(f);
    }
    app.required = m.variant.required;
    for (ir::RequiredInterface& r : app.required) resolve_path(path, r);
    app.target = m.variant.backend;
    if (m.composition) app.composition = *m.composition;
    if (!m.pdl_ref.empty()) {
      app.pdl_ref = resolve_relative(path, m.pdl_ref);
      read::Descriptor p = read::read_descriptor_file(app.pdl_ref, m.pdl_ref_loc, diag_);
      if (p.ok && !p.platform) {
        diag_.error(m.pdl_ref_loc, "'" + app.pdl_ref + "' is not a platform descriptor");
      }
      if (p.platform) app.platform = *p.platform;
    }
    if (!m.variant.constraints.empty() || !m.variant.tunables.empty()) {
      diag_.warning(app.loc, "constraints and tunables of the main descriptor are ignored");
    }
  }

  // Where the generated Makefile runs the compilers.
  std::string out_dir() const {
    return opts_.output_dir.empty() ? parent_dir(normalize(opts_.main_xml)) : opts_.output_dir;
  }

  // Without xmlFile, <name>.xml beside the including descriptor when it exists (for a
  // variant, then beside its interface's descriptor and beside main.xml), else the
  // interface of that name found anywhere (resolve_by_name).
  void resolve_path(const std::string& including, ir::RequiredInterface& r,
                    const std::string& interface_file = "") const {
    if (!r.xml_file.empty()) {
      r.resolved = resolve_relative(including, r.xml_file);
      return;
    }
    if (r.name.empty() || r.name.find('/') != std::string::npos) return;
    for (const std::string& beside : {including, interface_file, normalize(opts_.main_xml)}) {
      if (beside.empty()) continue;
      const std::string file = resolve_relative(beside, r.name + ".xml");
      if (files::not_a_file(file) != files::kDoesNotExist) {  // reading says what it is
        r.resolved = file;
        return;
      }
    }
  }

  bool xml_file_disabled(const std::string& file) {
    fs::path p(file);
    bool hit = false;
    for (size_t k = 0; k < opts_.disable_xml_files.size(); ++k) {
      const std::string& e = opts_.disable_xml_files[k];
      std::string en = normalize(e);
      if (file == en || p.filename().generic_string() == e || p.stem().generic_string() == e ||
          (file.size() > en.size() && file.compare(file.size() - en.size(), en.size(), en) == 0 &&
           file[file.size() - en.size() - 1] == '/')) {
        disabled_files_used_[k] = true;
        hit = true;
      }
    }
    return hit;
  }

  void require(const ir::RequiredInterface& r) {
    if (r.resolved.empty()) return;      // by name, after everything is read
    if (light::is_header(r.resolved)) {  // xmlFile="saxpy.h": a light-form interface
      require_light(r);                  // each by name: a header may declare several
      return;
    }
    auto it = read_files_.find(r.resolved);
    if (it != read_files_.end()) {
      check_name(r, it->second);
      return;
    }
    read_files_[r.resolved] = "";
    read::Descriptor d;
    auto cached = found_interfaces_.find(r.resolved);
    if (cached != found_interfaces_.end()) {
      d = std::move(cached->second);
      found_interfaces_.erase(cached);
    } else {
      d = read::read_descriptor_file(r.resolved, r.loc, diag_);
    }
    if (!d.ok) return;
    if (!d.interface) {
      diag_.error(r.loc, "'" + r.resolved + "', required as interface '" + r.name +
                             "', is not an interface descriptor");
      return;
    }
    ir::Interface i = std::move(*d.interface);
    if (i.name.empty()) i.name = r.name;  // reported by the reader; recover with the required name
    read_files_[r.resolved] = i.name;
    check_name(r, i.name);
    for (const ir::Interface& other : interfaces_) {
      if (other.name == i.name && !i.name.empty()) {
        diag_.error(i.loc, "interface '" + i.name + "' is defined twice");
        diag_.note(other.loc, "first defined here");
        return;
      }
    }
    std::string imp = i.imp_path.empty() ? "./" + i.name + "/" : i.imp_path;
    i.imp_path = resolve_relative(r.resolved, imp);
    if (!i.header_file.empty()) {
      const std::string header = resolve_relative(r.resolved, i.header_file);
      const std::string problem = files::not_a_file(header);
      if (!problem.empty()) {
        diag_.error(i.header_loc, "headerFile '" + i.header_file + "' of interface '" + i.name +
                                      "' " + problem + " (looked for '" + header + "')");
      }
      i.header_file = header;
    }
    read_folder(i);
    interfaces_.push_back(std::move(i));
  }

  // The interface r names among the annotated declarations of the header r.resolved,
  // with its variants found by file name (docs/FORMAT.md, Light form).
  void require_light(const ir::RequiredInterface& r) {
    // Each header is read once (a Clang parse of it and all it includes: a second or more
    // per header), however many of its interfaces main.xml requires.
    auto header = light_headers_.find(r.resolved);
    if (header == light_headers_.end()) {
      header = light_headers_
                   .emplace(r.resolved, light::read_header(r.resolved, opts_.clang_args,
                                                           runtime_header_dirs(), diag_))
                   .first;
    }
    std::vector<std::string> declared;
    for (const ir::Interface& i : header->second) {
      declared.push_back(i.name);
      if (i.name != r.name) continue;
      for (const ir::Interface& other : interfaces_) {
        if (other.name == i.name && other.descriptor_file == i.descriptor_file) return;  // again
        if (other.name == i.name) {
          diag_.error(i.loc, "interface '" + i.name + "' is defined twice");
          diag_.note(other.loc, "first defined here");
          return;
        }
      }
      interfaces_.push_back(i);
      return;
    }
    diag_.error(r.loc, "requiredInterface names '" + r.name + "', but '" + r.resolved +
                           "' declares no annotated function of that name" +
                           diag::did_you_mean(diag::closest_match_in(r.name, declared)));
  }

  void check_name(const ir::RequiredInterface& r, const std::string& found) {
    if (!found.empty() && found != r.name) {
      diag_.error(r.loc, "requiredInterface names '" + r.name + "', but '" + r.resolved +
                             "' defines interface '" + found + "'");
    }
  }

  // A descriptor to read and where it was named (an xmlFile, else the interface).
  struct Named {
    std::string file;
    ir::SourceLoc loc;
  };

  void read_folder(const ir::Interface& i) {
    std::error_code ec;
    std::vector<Named> listed;
    for (const ir::XmlFile& x : i.xml_files) {  // found in impPath, else beside the interface
      const std::string in_folder = resolve_relative(i.imp_path + "/", x.file);
      const std::string beside = resolve_relative(i.descriptor_file, x.file);
      if (files::not_a_file(in_folder) != files::kDoesNotExist) {  // reading says what it is
        listed.push_back({in_folder, x.loc});
      } else if (files::not_a_file(beside) != files::kDoesNotExist) {
        listed.push_back({beside, x.loc});
      } else {
        diag_.error(x.loc, "implementation descriptor '" + x.file + "' of interface '" + i.name +
                               "' does not exist (looked for '" + in_folder + "'" +
                               (beside == in_folder ? "" : " and '" + beside + "'") + ")");
      }
    }
    if (!i.xml_files.empty() && !fs::is_directory(i.imp_path, ec)) {
      read_descriptors(i, listed);  // the listed descriptors are all there is
      return;
    }
    if (!fs::is_directory(i.imp_path, ec)) {
      diag_.error(i.loc, "implementation folder '" + i.imp_path + "' of interface '" + i.name +
                             "' does not exist" +
                             (i.imp_path == resolve_relative(i.descriptor_file, "./" + i.name + "/")
                                  ? " (set impPath to where its variants are, impPath=\".\" "
                                    "for this descriptor's folder)"
                                  : ""));
      return;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(i.imp_path, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().extension() != ".xml") continue;
      const std::string file = normalize(it->path().generic_string());
      const std::string problem = files::not_a_file(file);
      if (problem.empty()) {
        found.push_back(file);
      } else if (problem != files::kDoesNotExist) {  // a link to nothing is no descriptor
        diag_.warning(i.loc, "'" + file + "' in the implementation folder of interface '" + i.name +
                                 "' is not read: it " + problem);
      }
    }
    std::sort(found.begin(), found.end());
    for (const std::string& f : found) listed.push_back({f, i.loc});
    read_descriptors(i, listed);
  }

  // Reads the implementation descriptors `listed` of interface `i` (each once).
  void read_descriptors(const ir::Interface& i, const std::vector<Named>& listed) {
    for (const Named& named : listed) {
      const std::string& f = named.file;
      if (read_files_.count(f) || f == normalize(opts_.main_xml)) continue;
      if (xml_file_disabled(f)) continue;
      if (found_interfaces_.count(f)) continue;
      read_files_[f] = "";
      read::Descriptor d = read::read_descriptor_file(f, named.loc, diag_);
      if (d.interface) {  // an interface kept beside its variants: read it if required
        read_files_.erase(f);
        found_interfaces_[f] = std::move(d);
        continue;
      }
      for (read::Implementation& impl : d.implementations) add_variant(impl, i.descriptor_file);
    }
  }

  // A variant of the interface described in `interface_file`.
  void add_variant(read::Implementation& impl, const std::string& interface_file) {
    ir::Variant v = std::move(impl.variant);
    for (ir::RequiredInterface& r : v.required) resolve_path(v.descriptor_file, r, interface_file);
    for (ir::SourceFile& f : v.sources) {
      if (f.compiler.type == "link") {
        diag_.error(f.compiler.loc,
                    "a link step belongs in the main descriptor, not in "
                    "implementation '" +
                        v.name + "'");
      }
      f.path = resolve_relative(v.descriptor_file, f.name);
      f.compiler.flags = rebase_flags(f.compiler.flags, parent_dir(normalize(opts_.main_xml)),
                                      parent_dir(v.descriptor_file), out_dir());
    }
    if (!impl.has_target) {
      diag_.error(v.loc, "implementation '" + v.name + "' has no target platform; add <" +
                             "peppher:targetPlatform name=\"CPU\"/> (or OPENMP, CUDA, OPENCL)");
    }
    if (impl.composition) {
      diag_.error(impl.composition->loc, "composition settings belong in the main descriptor");
    }
    pending_variants_.push_back(std::move(v));
  }

  void attach_variants() {
    std::vector<std::string> names;
    for (const ir::Interface& i : interfaces_) names.push_back(i.name);
    for (ir::Variant& v : pending_variants_) {
      if (v.provides.empty()) {
        diag_.error(v.loc, "implementation '" + v.name + "' provides no interface; add <" +
                               "peppher:providedInterfaces> naming the interface it implements");
        continue;
      }
      auto it = std::find_if(interfaces_.begin(), interfaces_.end(),
                             [&](const ir::Interface& i) { return i.name == v.provides; });
      if (it == interfaces_.end()) {
        diag_.error(v.provides_loc,
                    "implementation '" + v.name + "' provides unknown interface '" + v.provides +
                        "'" + diag::did_you_mean(diag::closest_match_in(v.provides, names)));
        continue;
      }
      it->variants.push_back(std::move(v));
    }
  }

  void resolve_by_name(const std::vector<ir::RequiredInterface>& reqs) {
    for (const ir::RequiredInterface& r : reqs) {
      if (!r.resolved.empty() || r.name.empty()) continue;
      bool found = std::any_of(interfaces_.begin(), interfaces_.end(),
                               [&](const ir::Interface& i) { return i.name == r.name; });
      if (!found) {
        diag_.error(r.loc, "required interface '" + r.name +
                               "' was not found; give its "
                               "descriptor with xmlFile=\"...\"");
      }
    }
  }

  const ir::Options& opts_;
  diag::Diagnostics& diag_;
  std::vector<ir::Interface> interfaces_;
  std::vector<ir::Variant> pending_variants_;
  std::map<std::string, std::string> read_files_;  // path -> interface name defined ("" none)
  std::map<std::string, read::Descriptor> found_interfaces_;  // seen in folders, not required yet
  std::map<std::string, std::vector<ir::Interface>> light_headers_;  // path -> its interfaces
  std::vector<bool> disabled_files_used_;
};

}  // namespace

ir::Application explore(const ir::Options& options, diag::Diagnostics& diag) {
  return Explorer(options, diag).run();
}

ir::Application load(const ir::Options& options, diag::Diagnostics& diag) {
  ir::Application app = explore(options, diag);
  if (!diag.has_errors() && !options.train) load_table(app, options, diag);
  return app;
}

}  // namespace peppher::explore
