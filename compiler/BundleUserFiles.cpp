// compiler/BundleUserFiles.cpp — see BundleUserFiles.h.
#include "BundleUserFiles.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <unistd.h>

using namespace llvm;

namespace offload::compiler {

std::vector<std::string> entriesUnder(const std::string &Dir) {
  std::vector<std::string> Entries;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Dir, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Path = It->path();
    Path.consume_front(Dir);
    Path.consume_front("/");
    const bool Folder = It->type() == sys::fs::file_type::directory_file;
    if (Folder) {  // listed only when empty: the files inside say the rest
      std::error_code InnerEC;
      if (sys::fs::directory_iterator(It->path(), InnerEC) != sys::fs::directory_iterator())
        continue;
    }
    Entries.push_back(Path.str() + (Folder ? "/" : ""));
  }
  llvm::sort(Entries);
  return Entries;
}

Error recordBundleContents(const std::string &Dir, StringRef Marker) {
  std::error_code EC;
  raw_fd_ostream OS(Dir + "/" + Marker.str(), EC, sys::fs::OF_Append);
  if (EC)
    return createFileError(Dir + "/" + Marker.str(), EC);
  OS << "# what offload-cxx wrote here; a rebuild keeps everything else\n";
  for (const std::string &Entry : entriesUnder(Dir))
    if (Entry != Marker)
      OS << Entry << "\n";
  OS.close();
  if (OS.has_error())
    return createFileError(Dir + "/" + Marker.str(), OS.error());
  return Error::success();
}

/// To gets From's permissions and modification time (a user's data keeps its dates).
static Error keepMetadata(const std::string &From, const std::string &To) {
  sys::fs::file_status Status;
  if (sys::fs::status(From, Status))
    return Error::success();
  sys::fs::setPermissions(To, Status.permissions());
  int FD;
  if (sys::fs::openFileForWrite(To, FD, sys::fs::CD_OpenExisting, sys::fs::OF_None))
    return Error::success();  // a read-only folder: its mode is what counts
  sys::fs::setLastAccessAndModificationTime(FD, Status.getLastAccessedTime(),
                                            Status.getLastModificationTime());
  ::close(FD);
  return Error::success();
}

/// Copies one entry (file, symbolic link, empty folder) from From to To, its folders made.
static Error copyEntry(const std::string &From, const std::string &To, bool Folder) {
  if (std::error_code EC = sys::fs::create_directories(Folder ? To : sys::path::parent_path(To)))
    return createFileError(To, EC);
  if (Folder)
    return Error::success();
  if (sys::fs::is_symlink_file(From)) {
    char Target[4096];
    const ssize_t Length = ::readlink(From.c_str(), Target, sizeof Target - 1);
    if (Length < 0)
      return createFileError(From, std::error_code(errno, std::generic_category()));
    Target[Length] = '\0';
    if (std::error_code EC = sys::fs::create_link(Target, To))
      return createFileError(To, EC);
    return Error::success();
  }
  if (std::error_code EC = sys::fs::copy_file(From, To))
    return createFileError(To, EC);
  return keepMetadata(From, To);
}

Error carryUserFiles(const std::string &Old, const std::string &Stage, StringRef Marker) {
  StringSet<> Made;
  bool Listed = false;
  if (auto Text = MemoryBuffer::getFile(Old + "/" + Marker.str())) {
    SmallVector<StringRef, 64> Lines;
    (*Text)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (StringRef Line : Lines)
      if (Line.starts_with("#"))
        Listed = true;
      else
        Made.insert(Line);
  }
  std::vector<std::pair<std::string, bool>> Carry;
  for (const std::string &Entry : entriesUnder(Old)) {
    if (Entry == Marker)
      continue;
    const bool Folder = StringRef(Entry).ends_with("/");
    const std::string New = Stage + "/" + Entry;
    if (Listed ? Made.contains(Entry)
               : StringRef(Entry).starts_with("bin/") || StringRef(Entry).starts_with("lib/") ||
                     sys::fs::exists(New))
      continue;
    // The entry, or a folder it is in, where the new bundle writes a file.
    StringRef Prefix = StringRef(Entry).rtrim('/');
    for (StringRef Path = Prefix; !Path.empty(); Path = sys::path::parent_path(Path, sys::path::Style::posix)) {
      const std::string At = Stage + "/" + Path.str();
      if ((sys::fs::exists(At) || sys::fs::is_symlink_file(At)) &&
          !(Path != Prefix && sys::fs::is_directory(At)) && !(Folder && sys::fs::is_directory(At)))
        return createStringError(inconvertibleErrorCode(),
                                 "'%s/%s' is not a file offload-cxx put in the bundle, and the new "
                                 "bundle writes that path: move it out of the bundle first",
                                 Old.c_str(), Path.str().c_str());
    }
    sys::fs::file_status Status;
    if (!Folder && !sys::fs::status(Old + "/" + Entry, Status, /*follow=*/false) &&
        Status.type() != sys::fs::file_type::regular_file &&
        Status.type() != sys::fs::file_type::symlink_file)
      return createStringError(inconvertibleErrorCode(),
                               "'%s/%s' is not a file, a link or a folder (a pipe, a socket or a "
                               "device) and cannot be carried into the new bundle: move it out "
                               "of the bundle first",
                               Old.c_str(), Entry.c_str());
    Carry.emplace_back(Entry, Folder);
  }
  for (const auto &[Entry, Folder] : Carry)
    if (Error E = copyEntry(Old + "/" + Entry, Stage + "/" + Entry, Folder))
      return E;
  // The folders the user made (and the bundle's own) keep their modes, deepest first.
  std::vector<std::string> Folders;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Old, EC, /*follow_symlinks=*/false), End;
       It != End && !EC; It.increment(EC))
    if (It->type() == sys::fs::file_type::directory_file)
      Folders.push_back(It->path().substr(Old.size()));
  Folders.push_back("");
  for (auto It = Folders.rbegin(); It != Folders.rend(); ++It)
    if (sys::fs::is_directory(Stage + *It))
      if (Error E = keepMetadata(Old + *It, Stage + *It))
        return E;
  return Error::success();
}

} // namespace offload::compiler
