// Golden tests of the plan and emit stages: every generated file kind, rendered in memory
// from hand-built IR and compared byte for byte with test/golden/<case>/expected/.
// Refresh after an intended change: COMPOSE_UPDATE_GOLDEN=1 ctest -R golden (then review
// the diff like code).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "compose/check/check.h"
#include "compose/cli/options.h"
#include "compose/emit/generate.h"
#include "compose/expand/expand.h"
#include "compose/explore/explore.h"
#include "compose/plan/plan.h"
#include "compose/verify/verify.h"
#include "hand_built_ir.h"
#include "peppher_catch.h"

namespace fs = std::filesystem;
using namespace peppher;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

emit::EmitSettings fixed_settings() {
  emit::EmitSettings settings;
  settings.peppher_cflags = "-I/opt/peppher/include";
  settings.peppher_libs = "-L/opt/peppher/lib -lpeppher";
  settings.peppher_lib_file = "/opt/peppher/lib/libpeppher.a";
  settings.nvcc = "nvcc";
  settings.starpu_module = "starpu-1.3";            // the StarPU in use varies
  settings.composition_dir = "/home/user/app/gen";  // the output folder's path varies
  return settings;
}

// The plan and emit stages on `app` into `out`, as the driver runs them (main's sources
// with their flags as given); with `verify`, also what the variants' sources say, read
// before planning (Clang reads them: what a kernel's __local arguments become depends on
// where it takes them).
void generate(const ir::Application& app, const ir::Options& options, output::OutputContext& out,
              diag::Diagnostics& diags, bool verify = false) {
  std::vector<std::string> main_flags;
  for (const ir::SourceFile& s : app.sources) main_flags.push_back(s.compiler.flags);
  facts::SourceFacts facts;
  if (verify) facts.variants = verify::verify_variants(app, options, {}, diags);
  if (diags.has_errors()) return;
  const plan::ApplicationPlan plan = plan::plan_application(app, options, main_flags, facts, diags);
  if (!diags.has_errors()) emit::generate(plan, fixed_settings(), out);
}

// Compares `files` with test/golden/<name>/expected/, or rewrites it on request.
void compare_with_expected(const std::string& name,
                           const std::map<std::string, std::string>& files) {
  fs::path expected_dir = fs::path(PEPPHER_GOLDEN_DIR) / name / "expected";
  if (std::getenv("COMPOSE_UPDATE_GOLDEN") != nullptr) {
    fs::remove_all(expected_dir);
    fs::create_directories(expected_dir);
    for (const auto& [path, text] : files) {
      fs::create_directories((expected_dir / path).parent_path());  // peppher_cmd/<owner>/
      std::ofstream(expected_dir / path, std::ios::binary) << text;
    }
    WARN("updated goldens in " << expected_dir);
    return;
  }
  std::size_t on_disk = 0;
  for (const auto& entry : fs::recursive_directory_iterator(expected_dir)) {
    on_disk += entry.is_regular_file();
  }
  CHECK(on_disk == files.size());
  for (const auto& [path, text] : files) {
    INFO("golden " << (expected_dir / path).string()
                   << " differs; if intended: COMPOSE_UPDATE_GOLDEN=1 ctest -R golden");
    CHECK(read_file(expected_dir / path) == text);
  }
}

void check_golden(const std::string& name, const ir::Application& app) {
  std::ostringstream messages;
  diag::Diagnostics diags(messages);
  output::OutputContext out;
  generate(app, ir::Options{}, out, diags);
  INFO(messages.str());
  REQUIRE_FALSE(diags.has_errors());
  compare_with_expected(name, out.files());
}

// The whole pipeline in memory on test/golden/<name>/input/main.xml, with the command-line
// options in test/golden/<name>/args.txt if present.
void check_golden_descriptors(const std::string& name, bool verify = false) {
  fs::path dir = fs::path(PEPPHER_GOLDEN_DIR) / name;
  std::vector<std::string> args;
  std::istringstream words(fs::exists(dir / "args.txt") ? read_file(dir / "args.txt") : "");
  for (std::string w; words >> w;) args.push_back(w);
  args.push_back((dir / "input" / "main.xml").string());

  std::ostringstream messages;
  diag::Diagnostics diags(messages);
  ir::Options options;
  REQUIRE(cli::parse_options(args, options, diags));
  // As the driver runs them.
  const ir::Application app =
      check::resolve_and_check(explore::load(options, diags), options, diags);
  output::OutputContext out;
  if (!diags.has_errors()) {
    const ir::Application expanded = expand::expand(app, options, {}, diags);
    generate(expanded, options, out, diags, verify);
  }
  INFO(messages.str());
  REQUIRE_FALSE(diags.has_errors());
  compare_with_expected(name, out.files());
}

}  // namespace

TEST_CASE("golden: raw pointers, by-value scalars, C linkage, CPU + CUDA + OpenCL variants") {
  check_golden("vector_scale", golden::vector_scale_app());
}

TEST_CASE("golden: containers, OPENMP variant, launch sizes, history model") {
  check_golden("containers", golden::containers_app());
}

TEST_CASE("golden: the published vector_scale descriptors, unchanged") {
  check_golden_descriptors("published_vector_scale");
}

TEST_CASE("golden: switches: -useHistoryModels, -disableImpls, -wrapperFilesExt; matrices") {
  check_golden_descriptors("switches");
}

TEST_CASE("golden: regression: -useNLRegressionModels, the entry wrapper's regression choice") {
  check_golden_descriptors("regression");
}

TEST_CASE("golden: constraints: can_execute, the entry check, static pruning, platform values") {
  check_golden_descriptors("constraints");
}

TEST_CASE("golden: specializes and priority: the most specific variant, with and without a model") {
  check_golden_descriptors("specializes");
}

TEST_CASE("golden: predictions: prediction functions, a CUDA variant's named where CUDA links") {
  check_golden_descriptors("predictions");
}

TEST_CASE("golden: tunables: one variant per value combination, OpenCL build options, slot limit") {
  check_golden_descriptors("tunables");
}

TEST_CASE("golden: generic: one wrapper per instantiation, the template header, instances file") {
  check_golden_descriptors("generic");
}

TEST_CASE("golden: a second run produces byte-identical output") {
  std::ostringstream messages;
  diag::Diagnostics diags(messages);
  auto app = golden::containers_app();
  output::OutputContext first, second;
  generate(app, ir::Options{}, first, diags);
  generate(app, ir::Options{}, second, diags);
  REQUIRE_FALSE(diags.has_errors());
  REQUIRE(first.files().size() > 3);  // the wrapper pair, peppher.h, Makefile, ...
  for (const auto& [path, text] : first.files()) {
    INFO(path);
    CHECK_FALSE(text.empty());
  }
  CHECK(first.files() == second.files());
}

TEST_CASE("golden: more variants for one backend than StarPU allows is a diagnostic") {
  ir::Application app = golden::vector_scale_app();
  ir::Interface& i = app.interfaces.front();
  for (int k = 0; k < 4; ++k) {
    ir::Variant v = i.variants.front();
    v.name = "extra_cpu_" + std::to_string(k);
    i.variants.push_back(v);
  }
  std::ostringstream messages;
  diag::Diagnostics diags(messages);
  output::OutputContext out;
  generate(app, ir::Options{}, out, diags);
  CHECK(diags.has_errors());
  CHECK_THAT(messages.str(), Catch::Contains("has 5 enabled CPU/OPENMP variants ('scale_cpu_func', "
                                             "'extra_cpu_0', 'extra_cpu_1', 'extra_cpu_2', "
                                             "'extra_cpu_3'), but this StarPU allows at most 4"));
}

TEST_CASE("golden: static dispatch: the trained grid, placement-aware choice of variant") {
  check_golden_descriptors("static_dispatch");
}

TEST_CASE("golden: a 2-D NDRange over row blocks, extents and a tunable as sizes, __local") {
  check_golden_descriptors("ndrange", true);
}

TEST_CASE("golden: partitioned calls: raw blocks, 2-D blocks, '?' with a history model") {
  check_golden_descriptors("partition");
}

TEST_CASE("golden: sizes with arithmetic: checked lengths, row widths, blocks, constraints") {
  check_golden_descriptors("sizes");
}

TEST_CASE("golden: halos on OpenCL variants: a kernel's halo buffers and sizes, Matrix, Vector") {
  check_golden_descriptors("halo", true);
}

namespace {

// vector_scale with a second raw operand `out` (numElements "n"): `arr` is partitioned.
ir::Application partitioned_app(ir::AccessMode out_mode) {
  ir::Application app = golden::vector_scale_app();
  ir::Interface& i = app.interfaces.front();
  ir::Parameter& arr = i.parameters.front();
  arr.partition.kind = ir::PartitionKind::Blocks;
  arr.partition.block = golden::expr("64");
  ir::Parameter out = arr;
  out.name = "out";
  out.partition = {};
  out.access_mode = out_mode;
  out.num_elements = golden::expr("n");
  out.loc = {"/app/vector_scale.xml", 9, 7};
  ir::Parameter n = i.parameters[1];
  n.name = "n";
  i.parameters.push_back(out);
  i.parameters.push_back(n);
  return app;
}

std::string generate_messages(const ir::Application& app) {
  std::ostringstream messages;
  diag::Diagnostics diags(messages);
  output::OutputContext out;
  generate(app, ir::Options{}, out, diags);
  return messages.str();
}

}  // namespace

TEST_CASE("golden: a partitioned call that writes an unpartitioned operand is a diagnostic") {
  CHECK_THAT(generate_messages(partitioned_app(ir::AccessMode::Write)),
             Catch::Contains("/app/vector_scale.xml:9:7: error: parameter 'out' of interface "
                             "'vector_scale' is written (accessMode=\"write\") but not "
                             "partitioned, while 'arr' is: the call becomes one task per block"));
  CHECK(generate_messages(partitioned_app(ir::AccessMode::Read)).empty());
}

TEST_CASE("golden: a block-length parameter that also sizes a shared operand is a diagnostic") {
  ir::Application app = partitioned_app(ir::AccessMode::Read);
  app.interfaces.front().parameters.front().num_elements = golden::expr("n");  // arr, out: n
  CHECK_THAT(generate_messages(app),
             Catch::Contains("/app/vector_scale.xml:9:7: error: parameter 'n' of interface "
                             "'vector_scale' is both the length of a partitioned operand"));
}

TEST_CASE("plan: an OpenCL row dimension that every block's task shares is a warning") {
  // arr is split in blocks of 64 and its numElements `size` receives each block's length;
  // `n` (the shared operand's length) is the whole call's in every task.
  ir::Application app = partitioned_app(ir::AccessMode::Read);
  ir::SourceFile& cl = app.interfaces.front().variants.back().sources.front();
  cl.global_size = {golden::expr("n")};
  cl.global_size.front().loc = {"/app/vector_scale/scale_opencl.xml", 4, 60};
  CHECK_THAT(generate_messages(app),
             Catch::Contains("/app/vector_scale/scale_opencl.xml:4:60: warning: globalSize of "
                             "'vector_scale.cl': its row dimension (dimension 0, the last) 'n' "
                             "names 'n', which every block's task of a call of partitioned "
                             "interface 'vector_scale' receives unchanged"));
  cl.global_size = {golden::expr("64"), golden::expr("n * 2")};
  CHECK_THAT(generate_messages(app), Catch::Contains("row dimension (dimension 1, the last)"));
  cl.global_size = {golden::expr("n"), golden::expr("size")};  // follows the blocks
  CHECK(generate_messages(app).empty());
  cl.global_size = {golden::expr("256")};  // a kernel striding over its block
  CHECK(generate_messages(app).empty());
}

TEST_CASE("expand: tunable expansion past StarPU's slot limit keeps the first, names the rest") {
  ir::Application app = golden::vector_scale_app();
  ir::Variant& cpu = app.interfaces.front().variants.front();
  cpu.tunables.push_back({cpu.loc, "BLOCK", "int", {"1", "2", "3", "4", "5", "6"}});
  std::ostringstream messages;
  diag::Diagnostics diags(messages);
  ir::Application expanded = expand::expand(app, ir::Options{}, {}, diags);
  CHECK_FALSE(diags.has_errors());
  CHECK_THAT(messages.str(),
             Catch::Contains("warning: tunable expansion gives interface 'vector_scale' 6 CPU "
                             "variants, but this StarPU allows at most 4 per backend; kept the "
                             "first (train to keep the fastest), dropped "
                             "'scale_cpu_func__BLOCK_5', 'scale_cpu_func__BLOCK_6'"));
  int enabled_cpu = 0;
  for (const ir::Variant* v : ir::enabled_variants(ir::Options{}, expanded.interfaces.front())) {
    enabled_cpu += v->backend == ir::Backend::Cpu;
  }
  CHECK(enabled_cpu == 4);
  // Named fields, not a braced temporary: GCC 12 at -O3 (CMAKE_BUILD_TYPE=Release) reported
  // the braced SourceLoc's string as maybe used uninitialized, an error under -Werror.
  ir::Tunable tunable;
  tunable.name = "T";
  tunable.type = "float";
  tunable.values = {"-0.5"};
  CHECK(expand::expanded_name("f", {tunable}) == "f__T_m0p5");
}
