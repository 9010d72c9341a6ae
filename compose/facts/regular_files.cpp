// Clang's file system without FIFOs, devices and sockets (see regular_files.h).
#include "compose/facts/regular_files.h"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include "common/files.h"

namespace peppher::facts {
namespace {

using llvm::sys::fs::file_type;

const char* kind_of(file_type type) {
  switch (type) {
    case file_type::fifo_file:
      return "is not a regular file (a FIFO)";
    case file_type::character_file:
      return "is not a regular file (a character device)";
    case file_type::block_file:
      return "is not a regular file (a block device)";
    case file_type::socket_file:
      return "is not a regular file (a socket)";
    default:
      return "is not a regular file";
  }
}

std::string error_line(const std::string& message) {
  return "#error " + message + "\n";
}

// A refused path, never opened: the #error line is its contents.
class RefusedFile : public llvm::vfs::File {
 public:
  RefusedFile(llvm::vfs::Status status, std::string text)
      : status_(std::move(status)), text_(std::move(text)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return status_; }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine& name, int64_t,
                                                               bool, bool) override {
    return llvm::MemoryBuffer::getMemBufferCopy(text_, name.str());
  }
  std::error_code close() override { return {}; }

 private:
  llvm::vfs::Status status_;
  std::string text_;
};

}  // namespace

const RegularFilesOnly::Refusal* RegularFilesOnly::refusal(
    const llvm::Twine& path, const llvm::ErrorOr<llvm::vfs::Status>& status) {
  if (!status || status->isRegularFile() || status->isDirectory()) return nullptr;
  const std::string name = path.str();
  for (const Refusal& r : refusals_) {
    if (r.path == name) return &r;
  }
  llvm::SmallString<256> absolute(name);
  if (!llvm::sys::path::is_absolute(absolute)) {
    if (llvm::ErrorOr<std::string> wd = getUnderlyingFS().getCurrentWorkingDirectory()) {
      absolute = *wd;
      llvm::sys::path::append(absolute, name);
    }
  }
  std::string words = files::not_a_file(std::string(absolute));
  if (words.empty() || words == files::kDoesNotExist) words = kind_of(status->getType());
  const std::string message = "'" + name + "' " + words;
  const llvm::vfs::Status regular(name, status->getUniqueID(), status->getLastModificationTime(),
                                  status->getUser(), status->getGroup(), error_line(message).size(),
                                  file_type::regular_file, status->getPermissions());
  refusals_.push_back({name, message, regular});
  return &refusals_.back();
}

llvm::ErrorOr<llvm::vfs::Status> RegularFilesOnly::status(const llvm::Twine& path) {
  llvm::ErrorOr<llvm::vfs::Status> status = getUnderlyingFS().status(path);
  if (const Refusal* r = refusal(path, status)) return r->status;
  return status;
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> RegularFilesOnly::openFileForRead(
    const llvm::Twine& path) {
  // stat never blocks; open() of a FIFO waits for a writer, and a device reads without end.
  if (const Refusal* r = refusal(path, getUnderlyingFS().status(path))) {
    return std::unique_ptr<llvm::vfs::File>(new RefusedFile(r->status, error_line(r->message)));
  }
  return getUnderlyingFS().openFileForRead(path);
}

bool RegularFilesOnly::refused(const std::string& clang_message) const {
  for (const Refusal& r : refusals_) {
    if (r.message == clang_message) return true;
  }
  return false;
}

llvm::IntrusiveRefCntPtr<RegularFilesOnly> regular_files_only(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> below, const std::string& directory) {
  auto fs = llvm::makeIntrusiveRefCnt<RegularFilesOnly>(std::move(below));
  if (!directory.empty()) fs->setCurrentWorkingDirectory(directory);
  return fs;
}

}  // namespace peppher::facts
