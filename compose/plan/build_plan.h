// The plan stage, for the build: every decision behind the generated Makefile and
// peppher.cmake (which sources compile, with which compiler and flags, what links them, the
// kernel files copied, the files a rebuild watches), paths already relative to the output
// folder. emit/ only quotes and prints them.
#pragma once

#include <string>
#include <vector>

#include "compose/ir/ir.h"

namespace peppher::plan {

/// One compile step of the Makefile (and of peppher.cmake for variants).
struct CompileStep {
  std::string source;  // relative to the output folder
  std::string object;
  std::string compiler;  // the command as the Makefile runs it ($(MPICXX) under --mpi)
  std::string flags;
  std::string depends;  // more prerequisites, each followed by a blank: included sources
  bool cuda = false;
  bool c_language = false;
};

/// An OpenCL kernel file, copied next to the program under its run-time name.
struct KernelFile {
  std::string name;    // names::kernel_file()
  std::string source;  // relative to the output folder
};

/// One <variant>_instances file: a generic interface's CPU or CUDA variant compiled once,
/// with one explicit instantiation per instantiation of its interface.
struct InstancesFile {
  const ir::Variant* variant = nullptr;  // the first instantiation's copy
  std::string iface;                     // the generic interface's name
  std::vector<std::string> sources;      // the variant's sources, relative to the output folder
  std::vector<const ir::Interface*> instantiations;  // in interface order
};

/// The link step of the program.
struct LinkPlan {
  std::string output;       // the program's name (main.xml's, else "main")
  std::string compiler;     // main.xml's link compiler, else g++
  bool mpi = false;         // composed with --mpi: the MPI C++ compiler links
  bool c_compiler = false;  // a C link step (gcc) that must add the C++ runtime library
  std::string flags;        // main.xml's link flags, as written
  std::string platform;     // the platform's name in main.xml; "" for the host's name
  std::string table_dir;    // the training table's folder ("" or "dir/"), relative
};

/// Everything the build files of one application say.
struct BuildPlan {
  std::vector<CompileStep> wrappers;     // the generated wrapper sources, one per interface
  std::vector<CompileStep> variants;     // the variants' sources (CPU and CUDA), interface order
  std::vector<CompileStep> program;      // the application's own sources, in main.xml order
  std::vector<KernelFile> kernels;       // each kernel file once, first seen first
  std::vector<InstancesFile> instances;  // one per generic CPU/CUDA variant, first seen first
  // Every file compose read (descriptors, sources, the training table), relative:
  // peppher_add_composition reruns compose when one changes.
  std::vector<std::string> inputs;
  LinkPlan link;
  std::string main_descriptor;  // main.xml's file name
  bool c_callers = false;       // C sources call components (has_c_callers)
  // The first compiled source whose path holds a blank: make cannot build it ("" when none).
  std::string blank_source;
};

/// The build of `app` (expanded, composed with `options`) into `output_dir`, with the flags
/// of main's sources (main_source_flags(), in `app.sources` order).
BuildPlan plan_build(const ir::Application& app, const ir::Options& options,
                     const std::vector<std::string>& main_source_flags,
                     const std::string& output_dir);

}  // namespace peppher::plan
