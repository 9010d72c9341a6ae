// Built OpenCL programs kept between runs.
//
// Building a program from its source costs every run what the platform's compiler takes
// before it even looks in its own cache: pocl preprocesses the source with all of OpenCL C's
// headers to make its cache key, about 70 ms for GEMM's 30-line kernel on this machine,
// although its cache holds the result; from its binary (clCreateProgramWithBinary) the same
// program builds in about 1 ms. Beside pocl a composed program whose OpenCL variant never
// runs still paid those 70 ms, at shutdown, which waits for the background build. So the
// binary of a program built from source is kept in StarPU's model folder
// (<sampling>/peppher-opencl/<file and device>-<everything the build depends on>.bin), and
// the next run builds from it.
//
// The key holds every input of the build: the source, the headers it includes (followed as
// the compiler follows them: next to the including file for "...", then through the -I
// folders), the options (-D...), and the device, driver and platform names and versions.
// A program whose includes cannot all be followed ("..." not found, a macro) is not kept. A
// kept file carries its length and checksum: a damaged one, or one the platform refuses, is
// removed and the program built from source again.
#include "devices/opencl_binaries.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/files.h"
#include "lifecycle/model_files.h"

namespace peppher::detail {
namespace {

constexpr const char* kMagic = "PEPPHER-OPENCL-BINARY 1";
constexpr std::uintmax_t kMaxBinaryBytes = std::uintmax_t{256} << 20;
constexpr int kMaxIncludeDepth = 64;

// FNV-1a, 64 bits, from @p basis: two bases give the key's 128 bits.
std::uint64_t fnv1a(const std::string& text, std::uint64_t basis) {
  std::uint64_t h = basis;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string hash128(const std::string& text) {
  return hex(fnv1a(text, 14695981039346656037ull)) + hex(fnv1a(text, 0x9e3779b97f4a7c15ull));
}

// Appends @p part with its length, so that no two different lists of parts read the same.
void add(std::string& material, const std::string& part) {
  material += std::to_string(part.size()) + ":" + part + ";";
}

std::string device_string(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  if (clGetDeviceInfo(device, what, size, text.data(), nullptr) != CL_SUCCESS) return "";
  return text;
}

std::string platform_string(cl_device_id device, cl_platform_info what) {
  cl_platform_id platform = nullptr;
  if (clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr) !=
          CL_SUCCESS ||
      platform == nullptr)
    return "";
  std::size_t size = 0;
  if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
  std::string text(size, '\0');
  if (clGetPlatformInfo(platform, what, size, text.data(), nullptr) != CL_SUCCESS) return "";
  return text;
}

// The folders of the options' -I (as "-I dir" or "-Idir").
std::vector<std::string> include_folders(const std::string& options) {
  std::vector<std::string> folders;
  std::istringstream words(options);
  for (std::string word; words >> word;) {
    if (word == "-I") {
      if (words >> word) folders.push_back(word);
    } else if (word.rfind("-I", 0) == 0) {
      folders.push_back(word.substr(2));
    }
  }
  return folders;
}

std::string folder_of(const std::string& path) {
  const std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? "." : folder;
}

// The header named @p name, searched next to the including file (@p quoted only) and then
// in @p folders; "" when none is a regular file.
std::string find_header(const std::string& name, bool quoted, const std::string& here,
                        const std::vector<std::string>& folders) {
  if (!name.empty() && name[0] == '/') return files::not_a_file(name).empty() ? name : "";
  std::vector<std::string> places;
  if (quoted) places.push_back(here);
  places.insert(places.end(), folders.begin(), folders.end());
  for (const std::string& place : places) {
    const std::string path = (std::filesystem::path(place) / name).lexically_normal().string();
    if (files::not_a_file(path).empty()) return path;
  }
  return "";
}

// Adds the headers @p text (the file @p path) includes to @p material, recursively; false
// when one cannot be followed. Every `#include` line counts, conditional or not: a header
// hashed needlessly only makes the key more careful.
bool add_includes(const std::string& path, const std::string& text,
                  const std::vector<std::string>& folders, std::set<std::string>& seen,
                  std::string& material, int depth) {
  if (depth > kMaxIncludeDepth) return false;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line[at] != '#') continue;
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos || line.compare(at, 7, "include") != 0) continue;
    at = line.find_first_not_of(" \t", at + 7);
    if (at == std::string::npos) return false;
    const char open = line[at];
    if (open != '"' && open != '<') return false;  // a macro: only the preprocessor knows
    const std::size_t close = line.find(open == '"' ? '"' : '>', at + 1);
    if (close == std::string::npos) return false;
    const std::string name = line.substr(at + 1, close - at - 1);
    const std::string header = find_header(name, open == '"', folder_of(path), folders);
    if (header.empty()) {
      if (open == '"') return false;
      add(material, "<" + name + ">");  // the platform's own header: its version is keyed
      continue;
    }
    add(material, header);
    if (!seen.insert(header).second) continue;
    std::string content;
    if (!files::read_file(header, files::kMaxDescriptorBytes, content).empty()) return false;
    add(material, content);
    if (!add_includes(header, content, folders, seen, material, depth + 1)) return false;
  }
  return true;
}

std::string binaries_folder() {
  const std::string sampling = sampling_folder();
  return sampling.empty() ? "" : sampling + "peppher-opencl/";
}

void remove_file(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
}

std::atomic<bool> g_warned_keep{false};

void warn_keep_once(const std::string& what) {
  if (!g_warned_keep.exchange(true))
    std::cerr << "peppher: warning: " << what
              << ": OpenCL programs are built from source at every run\n";
}

}  // namespace

std::string opencl_binary_key(const std::string& path, const std::string& source,
                              const std::string& options, cl_device_id device) {
  std::string material = kMagic;
  add(material, source);
  add(material, options);
  for (const cl_device_info what : std::initializer_list<cl_device_info>{
           CL_DEVICE_NAME, CL_DEVICE_VENDOR, CL_DEVICE_VERSION, CL_DRIVER_VERSION})
    add(material, device_string(device, what));
  for (const cl_platform_info what :
       std::initializer_list<cl_platform_info>{CL_PLATFORM_NAME, CL_PLATFORM_VERSION})
    add(material, platform_string(device, what));
  std::set<std::string> seen;
  if (!add_includes(path, source, include_folders(options), seen, material, 0)) return "";
  // The file and the device name the kept binary (a new build of either replaces it).
  std::string where;
  add(where, std::filesystem::path(path).lexically_normal().string());
  add(where, device_string(device, CL_DEVICE_NAME));
  return hex(fnv1a(where, 14695981039346656037ull)) + "-" + hash128(material);
}

cl_program load_kept_binary(const std::string& key, cl_context context, cl_device_id device,
                            const std::string& options) {
  const std::string folder = binaries_folder();
  if (key.empty() || folder.empty()) return nullptr;
  const std::string path = folder + key + ".bin";
  std::string text;
  if (!files::read_file(path, kMaxBinaryBytes, text).empty()) return nullptr;
  // "<magic> <bytes> <checksum>\n<binary>"
  const std::size_t newline = text.find('\n');
  std::istringstream header(text.substr(0, newline == std::string::npos ? 0 : newline));
  std::string magic, version, checksum;
  std::size_t bytes = 0;
  const bool framed = newline != std::string::npos &&
                      static_cast<bool>(header >> magic >> version >> bytes >> checksum) &&
                      magic + " " + version == kMagic && bytes == text.size() - newline - 1;
  const std::string binary = framed ? text.substr(newline + 1) : "";
  if (!framed || bytes == 0 || hash128(binary) != checksum) {
    remove_file(path);
    return nullptr;
  }
  const auto* data = reinterpret_cast<const unsigned char*>(binary.data());
  cl_int status = CL_SUCCESS;
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithBinary(context, 1, &device, &bytes, &data, &status, &err);
  if (err == CL_SUCCESS && status == CL_SUCCESS)
    err = clBuildProgram(program, 1, &device, options.empty() ? nullptr : options.c_str(), nullptr,
                         nullptr);
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    if (program != nullptr) clReleaseProgram(program);
    remove_file(path);
    return nullptr;
  }
  return program;
}

void keep_binary(const std::string& key, cl_program program, cl_device_id device) {
  const std::string folder = binaries_folder();
  if (key.empty() || folder.empty()) return;
  cl_uint ndevices = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof ndevices, &ndevices, nullptr) !=
          CL_SUCCESS ||
      ndevices == 0)
    return;
  std::vector<cl_device_id> devices(ndevices);
  std::vector<std::size_t> sizes(ndevices);
  if (clGetProgramInfo(program, CL_PROGRAM_DEVICES, ndevices * sizeof(cl_device_id), devices.data(),
                       nullptr) != CL_SUCCESS ||
      clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, ndevices * sizeof(std::size_t),
                       sizes.data(), nullptr) != CL_SUCCESS)
    return;
  std::vector<std::string> binaries(ndevices);
  std::vector<unsigned char*> pointers(ndevices);
  std::size_t mine = ndevices;
  for (cl_uint i = 0; i < ndevices; ++i) {
    binaries[i].resize(sizes[i]);
    pointers[i] = reinterpret_cast<unsigned char*>(binaries[i].data());
    if (devices[i] == device) mine = i;
  }
  if (mine == ndevices || sizes[mine] == 0 ||
      clGetProgramInfo(program, CL_PROGRAM_BINARIES, ndevices * sizeof(unsigned char*),
                       pointers.data(), nullptr) != CL_SUCCESS)
    return;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) {
    warn_keep_once("cannot make '" + folder + "' (" + error.message() + ")");
    return;
  }
  // The builds kept before for the same file and device: outdated by this one.
  const std::string same_place = key.substr(0, key.find('-') + 1);
  for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(same_place, 0) == 0 && name != key + ".bin") remove_file(it->path().string());
  }
  const std::string& binary = binaries[mine];
  const std::string text = std::string(kMagic) + " " + std::to_string(binary.size()) + " " +
                           hash128(binary) + "\n" + binary;
  if (const std::string problem = files::write_file(folder + key + ".bin", text); !problem.empty())
    warn_keep_once("'" + folder + key + ".bin' " + problem);
}

}  // namespace peppher::detail
