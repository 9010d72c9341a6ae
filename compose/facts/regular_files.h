// The file system Clang reads through in compose (verification, the program's facts, utility
// mode): a source or header that is not a regular file or folder (a FIFO, a device, a socket)
// is never opened, since opening or reading one blocks or never ends: Clang reads it as an
// #error line naming it, reported through the #include.
#pragma once

#include <llvm/Support/VirtualFileSystem.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace peppher::facts {

class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
 public:
  explicit RegularFilesOnly(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs)
      : ProxyFileSystem(std::move(fs)) {}

  /// A regular file or folder as the file system below has it. Anything else reads as a
  /// file of one line, `#error 'PATH' is not a regular file (a FIFO)` (files::not_a_file's
  /// words), without being opened: Clang reports it, and the include stack leads to the
  /// #include.
  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine& path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override;

  /// Whether `clang_message` is the error of a file refused here.
  bool refused(const std::string& clang_message) const;

 private:
  struct Refusal {
    std::string path;          // as Clang named it
    std::string message;       // "'PATH' is not a regular file (a FIFO)"
    llvm::vfs::Status status;  // a regular file of the #error line's size
  };
  // The refusal for `path`, whose status below is `status` (recorded once), or null when
  // it is a regular file or folder or is not there.
  const Refusal* refusal(const llvm::Twine& path, const llvm::ErrorOr<llvm::vfs::Status>& status);

  std::vector<Refusal> refusals_;
};

/// A physical file system (working in `directory` when not empty) behind RegularFilesOnly.
llvm::IntrusiveRefCntPtr<RegularFilesOnly> regular_files_only(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> below, const std::string& directory = "");

}  // namespace peppher::facts
