// compiler/BundleUserFiles.cpp — see BundleUserFiles.h.
#include "BundleUserFiles.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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
  if (std::error_code EC = OS.error()) {
    OS.clear_error();  // (reported here, by name: not by the stream's destructor)
    return createFileError(Dir + "/" + Marker.str(), EC);
  }
  return Error::success();
}

Error updateBundleInPlace(const std::string &Old, const std::string &Stage, StringRef Marker) {
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
  auto ours = [&](StringRef Entry) {
    return Listed ? Made.contains(Entry)
                  : Entry.starts_with("bin/") || Entry.starts_with("lib/") ||
                        sys::fs::exists(Stage + "/" + Entry.str());
  };
  // First every check, so that a refusal changes nothing: a user's entry (or a folder it is in)
  // where the new bundle writes a file.
  for (const std::string &Entry : entriesUnder(Old)) {
    if (Entry == Marker || ours(Entry))
      continue;
    const bool Folder = StringRef(Entry).ends_with("/");
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
  }
  // Then offload-cxx's new files move in, each replacing its old one at once (a program running
  // from the bundle keeps the file it started from); the user's stay as they are — the same
  // files, open descriptors and hard links included (a job's log written during a rebuild lost
  // its lines when the folder was replaced by a copy: adversarial pass).
  StringSet<> New;
  std::vector<std::string> Entries = entriesUnder(Stage);
  std::stable_partition(Entries.begin(), Entries.end(), [&](const std::string &E) { return E != Marker; });
  for (const std::string &Entry : Entries) {
    New.insert(Entry);
    const std::string To = Old + "/" + Entry;
    if (StringRef(Entry).ends_with("/")) {
      if (std::error_code EC = sys::fs::create_directories(To, true, sys::fs::all_all))
        return createFileError(To, EC);
      continue;
    }
    if (std::error_code EC = sys::fs::create_directories(sys::path::parent_path(To), true, sys::fs::all_all))
      return createFileError(To, EC);
    if (sys::fs::is_directory(To) && !sys::fs::is_symlink_file(To))  // (an old folder of ours)
      sys::fs::remove_directories(To);
    if (std::error_code EC = sys::fs::rename(Stage + "/" + Entry, To))
      return createFileError(To, EC);
  }
  // What offload-cxx wrote before and writes no more goes (files, then folders left empty).
  std::vector<std::string> Gone;
  for (const std::string &Entry : entriesUnder(Old))
    if (Entry != Marker && !New.contains(Entry) && ours(Entry))
      Gone.push_back(Entry);
  for (auto It = Gone.rbegin(); It != Gone.rend(); ++It)
    if (!StringRef(*It).ends_with("/"))
      sys::fs::remove(Old + "/" + *It);
  for (const char *Folder : {"bin", "lib/offload-cxx", "lib"})
    if (!New.contains(std::string(Folder) + "/"))
      sys::fs::remove(Old + "/" + Folder);  // (only if empty)
  return Error::success();
}

} // namespace offload::compiler
