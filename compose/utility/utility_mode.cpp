// Utility mode's sequence: scan every header -> plan -> print into one OutputContext ->
// drop (or, with --force, keep) files that exist -> one atomic write if no error occurred.
#include "compose/utility/utility_mode.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

#include "compose/light/light_skeleton.h"
#include "compose/output/output_context.h"
#include "compose/utility/scan/scanner.h"
#include "compose/utility/skeleton/plan.h"
#include "compose/utility/skeleton/skeleton.h"

namespace peppher::utility {
namespace {

namespace fs = std::filesystem;

// The -I / -D flags the skeleton sources need to compile, with absolute include paths.
std::string skeleton_flags(const std::vector<std::string>& clang_args) {
  std::string flags;
  for (size_t i = 0; i < clang_args.size(); ++i) {
    std::string a = clang_args[i];
    if (a == "-I" || a == "-D") {
      if (i + 1 == clang_args.size()) break;
      a += clang_args[++i];
    }
    if (a.rfind("-I", 0) == 0 && a.size() > 2) {
      a = "-I" + fs::absolute(a.substr(2)).lexically_normal().generic_string();
    } else if (a.rfind("-D", 0) != 0 || a.size() == 2) {
      continue;
    }
    flags += (flags.empty() ? "" : " ") + a;
  }
  return flags;
}

// Every function named by --functions must exist in some header.
void check_requested(const UtilityOptions& options, const std::set<std::string>& found,
                     diag::Diagnostics& diag) {
  for (const std::string& f : options.functions) {
    if (found.count(f) > 0) continue;
    diag.error("--functions: no function named '" + f + "' in the scanned headers" +
               diag::did_you_mean(diag::closest_match_in(f, found)));
  }
}

// The light form's files (--light) from the skeletons `xml_form` holds: the variant sources
// without their descriptors (with PEPPHER_FLAGS when the skeletons need -I / -D flags), and
// the header annotated, as <header's name> beside them.
output::OutputContext light_files(const output::OutputContext& xml_form, const std::string& header,
                                  const scan::ScannedHeader& scanned,
                                  const std::vector<skeleton::ComponentPlan>& plans,
                                  const skeleton::PlanSettings& settings) {
  output::OutputContext out;
  for (const auto& [path, text] : xml_form.files()) {
    const std::string ext = fs::path(path).extension().string();
    if (ext == ".xml") continue;
    const bool flags = !settings.extra_flags.empty() && ext != ".cl";
    out.write(path, flags ? light::with_flags(text, "-O2 " + settings.extra_flags) : text);
  }
  std::ifstream in(header);
  std::stringstream text;
  text << in.rdbuf();
  out.write(fs::path(header).filename().string(),
            light::annotated_header(text.str(), scanned, plans));
  return out;
}

}  // namespace

UtilityOptions utility_options(const ir::Options& options,
                               const std::vector<std::string>& clang_args) {
  UtilityOptions u;
  u.headers = options.generate_comp_files;
  u.output_dir = options.output_dir;
  u.clang_args = clang_args;
  u.verbosity = options.verbosity;
  u.light = options.light_skeletons;
  return u;
}

int run_utility_mode(const ir::Options& options, const std::vector<std::string>& clang_args,
                     diag::Diagnostics& diag, std::ostream& out) {
  return run_utility_mode(utility_options(options, clang_args), diag, out);
}

int run_utility_mode(const UtilityOptions& options, diag::Diagnostics& diag, std::ostream& out) {
  scan::ScanSettings scan_settings{options.clang_args, options.compile_commands_dir};
  for (const std::string& dir : options.system_include_dirs) {
    scan_settings.clang_args.push_back("-isystem");
    scan_settings.clang_args.push_back(dir);
  }
  skeleton::PlanSettings plan_settings;
  plan_settings.functions = {options.functions.begin(), options.functions.end()};
  plan_settings.output_dir = options.output_dir;
  plan_settings.extra_flags = skeleton_flags(options.clang_args);

  output::OutputContext files;  // paths relative to the current folder (or absolute)
  std::set<std::string> found;
  std::map<std::string, std::string> written_by;  // skeleton path -> the header it is for
  std::set<std::string> reported;                 // one error per pair of headers
  // Per output folder's main.xml: the interfaces it requires, the headers they come from.
  std::map<std::string, std::vector<skeleton::RequiredInterface>> required;
  std::map<std::string, std::string> origins;
  for (const std::string& header : options.headers) {
    // The header is named in generated `#include "..."` lines and XML comments.
    if (header.find_first_of("\"\\\n\r<>") != std::string::npos) {
      diag.error("header name '" + header +
                 "' holds a character that an #include line cannot "
                 "(a quote, backslash, '<', '>' or line break); rename the header");
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    std::optional<scan::ScannedHeader> scanned = scan::scan_header(header, scan_settings, diag);
    const auto scanned_at = std::chrono::steady_clock::now();
    if (!scanned) continue;
    for (const scan::ScannedFunction& f : scanned->functions) {
      found.insert(f.name);
      found.insert(f.qualified_name);
    }
    const fs::path dir =
        options.output_dir.empty() ? fs::path(header).parent_path() : fs::path(options.output_dir);
    // The light form's skeletons include the annotated header written into `dir`.
    scan::ScannedHeader planned = *scanned;
    if (options.light) planned.path = (dir / fs::path(header).filename()).generic_string();
    std::vector<skeleton::ComponentPlan> plans =
        skeleton::plan_components(planned, plan_settings, diag);
    if (options.light) plans = light::light_plans(*scanned, std::move(plans), diag);
    output::OutputContext one;
    skeleton::generate_skeletons(plans, one);
    if (options.light) one = light_files(one, header, *scanned, plans, plan_settings);
    const std::string main_xml = (dir / "main.xml").lexically_normal().generic_string();
    std::vector<skeleton::RequiredInterface>& requires_here = required[main_xml];
    for (const skeleton::ComponentPlan& plan : plans) {
      const bool listed =  // a header named twice
          std::any_of(requires_here.begin(), requires_here.end(),
                      [&](const skeleton::RequiredInterface& r) { return r.name == plan.name; });
      if (!listed) requires_here.push_back({plan.name, plan.generic});
    }
    std::string& origin = origins[main_xml];
    origin += (origin.empty() ? "" : ", ") + fs::path(header).filename().string();
    for (const auto& [path, text] : one.files()) {
      const std::string target = (dir / path).generic_string();
      auto [it, fresh] = written_by.emplace(target, header);
      if (!fresh) {
        if (it->second != header && reported.insert(it->second + "\n" + header).second) {
          diag.error("headers '" + it->second + "' and '" + header + "' both give '" + target +
                     "' (a function declared in both, or two functions of one name); "
                     "compose them into different folders with -o, or pick one with "
                     "--functions");
        }
        continue;
      }
      files.write(target, text);
    }
    if (options.verbosity >= 1) {
      using ms = std::chrono::duration<double, std::milli>;
      const auto done = std::chrono::steady_clock::now();
      out << header << ": " << scanned->functions.size() << " functions, " << plans.size()
          << " components in " << std::fixed << std::setprecision(0) << ms(done - start).count()
          << " ms (parse " << ms(scanned_at - start).count() << " ms)\n";
    }
  }
  check_requested(options, found, diag);
  if (diag.has_errors()) return 1;  // nothing is written after an error
  for (const auto& [main_xml, interfaces] : required) {
    if (options.light) break;  // the light form has no main.xml: compose main.cpp
    files.write(main_xml, skeleton::main_descriptor(interfaces,
                                                    skeleton::xml_comment_safe(origins[main_xml])));
  }

  // A set of files a killed run half-replaced gets its previous texts back before any is
  // kept as existing.
  std::vector<std::string> folders;
  for (const auto& [path, text] : files.files())
    folders.push_back(fs::path(path).parent_path().string());
  if (!output::recover_interrupted(folders, diag)) return 1;
  output::OutputContext to_write;
  for (const auto& [path, text] : files.files()) {
    std::error_code ec;
    if (!options.force && fs::exists(path, ec)) {
      out << "kept existing " << path << " (--force overwrites it)\n";
      continue;
    }
    to_write.write(path, text);
  }
  // Existing files were filtered above (kept unless --force); paths follow the headers.
  output::WriteOptions write_options;
  write_options.force = true;
  write_options.confine = false;
  if (!output::write_atomically(to_write, "", diag, write_options)) return 1;
  if (options.verbosity >= 1) out << "wrote " << to_write.files().size() << " files\n";
  return 0;
}

}  // namespace peppher::utility
