// compiler/BundleCommand.cpp — `offload-cxx bundle PROGRAM... -o DIR`: a self-contained folder
// that runs the programs on an x86-64 Linux node that has only the vendor driver:
//
//   DIR/bin/PROGRAM         the programs (only their library search path is changed, and
//                           the libraries they name by path are named by file name)
//   DIR/lib/                every shared library they need (offload-cxx's runtime, liboffload,
//                           libLLVM, libstdc++, libgcc_s ...) except the C library's
//                           own and the vendor driver's (libcuda, libamdhip/hsa come with it)
//   DIR/lib/offload-cxx/    offload-cxx-devices and each program's architectures
//   DIR/run PROGRAM ARGS    the launcher: gives liboffload's CUDA plugin the plain "libcuda.so"
//                           name it opens where the node only has libcuda.so.1, then runs the
//                           program
//   DIR/PROGRAM             one wrapper per program (DIR/run PROGRAM)
//   DIR/devices [PROGRAM]   the devices the node has, and which can run PROGRAM
//
// The libraries are found as the dynamic loader finds them here (ldd), so the bundle holds
// exactly what the programs load on this machine. Every program and library of the bundle gets
// the search path DT_RPATH=$ORIGIN/../lib (programs) or $ORIGIN (libraries), set with patchelf:
// unlike DT_RUNPATH, DT_RPATH is searched before LD_LIBRARY_PATH, and applies to the libraries
// those libraries load, so a node's own libstdc++, libLLVM or libomp — on the library path or
// not — never replaces the bundle's (docs/design.md, "Bundles").
#include "BundleUserFiles.h"
#include "Commands.h"
#include "ObjectFiles.h"
#include "Subprocess.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

using namespace llvm;

namespace offload::compiler {

cl::SubCommand BundleCommand("bundle",
                             "Make a folder that runs PROGRAM... on a GPU node that has only the "
                             "vendor driver");

namespace {
cl::list<std::string> BundlePrograms(cl::Positional, cl::OneOrMore, cl::desc("PROGRAM..."),
                                     cl::sub(BundleCommand));
cl::opt<std::string> BundleDir("o", cl::Required, cl::desc("The folder to write"),
                               cl::value_desc("DIR"), cl::sub(BundleCommand));
cl::opt<bool> BundleVerbose("v", cl::desc("Print each library copied"), cl::sub(BundleCommand));

/// Libraries the node's own system provides and that must come from it: the C library's parts
/// (they must match the node's dynamic loader) and the GPU drivers.
bool fromTheNode(StringRef Soname) {
  static const char *const System[] = {"linux-vdso.so", "ld-linux", "libc.so", "libm.so",
                                       "libdl.so", "libpthread.so", "librt.so", "libutil.so",
                                       "libresolv.so", "libcuda.so", "libnvidia-",
                                       "libhsa-runtime64.so", "libamdhip64.so", "libdrm"};
  for (const char *S : System)
    if (Soname.starts_with(S))
      return true;
  return false;
}

/// A shared library a program loads, as ldd lists it.
struct NeededLibrary {
  std::string Name;  ///< its name in the bundle's lib/: its soname, or its file name
  std::string Path;  ///< where it is loaded from here
  bool ByPath;       ///< DT_NEEDED names it by its path (a library without a SONAME)
};

/// The shared libraries `Binary` loads here, from ldd.
Expected<std::vector<NeededLibrary>> neededLibraries(const std::string &Binary, StringRef TempDir) {
  ErrorOr<std::string> Ldd = sys::findProgramByName("ldd");
  if (!Ldd)
    return createStringError(inconvertibleErrorCode(), "ldd not found (package libc-bin)");
  std::string Out = (TempDir + "/ldd.txt").str();
  sys::fs::remove(Out);  // (a redirect writes over the file without truncating it: a longer
                         // earlier program's list would leave its tail here)
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out), StringRef(Out)};
  StringRef Args[] = {*Ldd, Binary};
  if (sys::ExecuteAndWait(*Ldd, Args, std::nullopt, Redirects) != 0)
    return createStringError(inconvertibleErrorCode(), "ldd '%s' failed: is it a program?",
                             Binary.c_str());
  auto Text = MemoryBuffer::getFile(Out);
  if (!Text)
    return errorCodeToError(Text.getError());
  std::vector<NeededLibrary> Libs;
  SmallVector<StringRef> Lines;
  (*Text)->getBuffer().split(Lines, '\n', -1, false);
  for (StringRef Line : Lines) {
    auto [Name, Rest] = Line.trim().split(" => ");
    if (Rest.empty()) {
      // A library linked by its path and without a SONAME (`g++ m.cpp /path/libx.so`, as CMake
      // links one) is needed as that path, and ldd lists it as the path alone, as the loader
      // (left to fromTheNode); the vdso has no path (adversarial pass: such a library was left
      // out, and the bundled program loaded the build machine's copy).
      StringRef Path = Name.rsplit(" (").first.trim();
      if (Path.contains('/'))
        Libs.push_back({sys::path::filename(Path).str(), Path.str(), /*ByPath=*/true});
      continue;
    }
    if (Rest.trim() == "not found")
      return createStringError(inconvertibleErrorCode(),
                               "'%s' needs %s, which is not found on this machine%s",
                               Binary.c_str(), Name.str().c_str(),
                               Name.contains('/') && !sys::path::is_absolute(Name)
                                   ? " (a path relative to the current folder: make the bundle "
                                     "from the folder the program was linked in)"
                                   : "");
    StringRef Path = Rest.split(" (").first.trim();
    Libs.push_back({Name.trim().str(), Path.str(), /*ByPath=*/false});
  }
  return Libs;
}

Error copyFile(const std::string &From, const std::string &To, unsigned Mode) {
  SmallString<256> Real;
  if (std::error_code EC = sys::fs::real_path(From, Real))
    return createStringError(EC, "cannot read '%s'", From.c_str());
  sys::fs::remove(To);
  if (std::error_code EC = sys::fs::copy_file(Real, To))
    return createStringError(EC, "cannot write '%s': %s", To.c_str(), EC.message().c_str());
  sys::fs::setPermissions(To, static_cast<sys::fs::perms>(Mode));
  return Error::success();
}

constexpr unsigned Executable = 0755, Readable = 0644;

enum class SearchPath { RPath, RunPath };

/// Sets File's DT_RPATH (replacing any DT_RUNPATH) or, with SearchPath::RunPath, its DT_RUNPATH
/// to Path, with patchelf.
Error setRPath(const std::string &Patchelf, const std::string &File, StringRef RPath,
               StringRef TempDir, SearchPath Kind = SearchPath::RPath) {
  std::string Out = (TempDir + "/patchelf.txt").str();
  sys::fs::remove(Out);
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out), StringRef(Out)};
  SmallVector<StringRef, 5> Args = {Patchelf, "--force-rpath", "--set-rpath", RPath, File};
  if (Kind == SearchPath::RunPath)
    Args.erase(Args.begin() + 1);
  if (sys::ExecuteAndWait(Patchelf, Args, std::nullopt, Redirects) == 0)
    return Error::success();
  auto Text = MemoryBuffer::getFile(Out);
  return createStringError(inconvertibleErrorCode(), "patchelf could not set the search path of '%s'%s%s",
                           File.c_str(), Text ? ": " : "",
                           Text ? (*Text)->getBuffer().trim().str().c_str() : "");
}

/// Names File's libraries that its DT_NEEDED names by path by their file names instead
/// (patchelf --replace-needed): such a path is a folder of the build machine (or, relative, of
/// the folder the program runs from), and the bundle's copy, in lib/ under that file name, is
/// found through the bundle's search path. A node's own library needed so is then found as the
/// node finds it.
Error neededByFileName(const std::string &Patchelf, const std::string &File, StringRef TempDir) {
  std::string Out = (TempDir + "/patchelf-needed.txt").str();
  sys::fs::remove(Out);  // (a redirect writes over the file without truncating it)
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out), StringRef("")};
  StringRef PrintArgs[] = {Patchelf, "--print-needed", File};
  if (sys::ExecuteAndWait(Patchelf, PrintArgs, std::nullopt, Redirects) != 0)
    return createStringError(inconvertibleErrorCode(),
                             "patchelf could not read the libraries '%s' needs", File.c_str());
  auto Text = MemoryBuffer::getFile(Out);
  if (!Text)
    return errorCodeToError(Text.getError());
  SmallVector<StringRef> Needed;
  (*Text)->getBuffer().split(Needed, '\n', -1, /*KeepEmpty=*/false);
  SmallVector<StringRef, 8> Args = {Patchelf};
  for (StringRef N : Needed)
    if (N.contains('/'))
      Args.append({"--replace-needed", N, sys::path::filename(N)});
  if (Args.size() == 1)
    return Error::success();
  Args.push_back(File);
  std::string Log = (TempDir + "/patchelf.txt").str();
  sys::fs::remove(Log);
  std::optional<StringRef> LogRedirects[] = {std::nullopt, StringRef(Log), StringRef(Log)};
  if (sys::ExecuteAndWait(Patchelf, Args, std::nullopt, LogRedirects) == 0)
    return Error::success();
  auto Message = MemoryBuffer::getFile(Log);
  return createStringError(inconvertibleErrorCode(),
                           "patchelf could not name the libraries of '%s' by their file names%s%s",
                           File.c_str(), Message ? ": " : "",
                           Message ? (*Message)->getBuffer().trim().str().c_str() : "");
}

/// File's own search path (DT_RPATH or DT_RUNPATH, as patchelf prints it); empty if none.
std::string readRPath(const std::string &Patchelf, const std::string &File, StringRef TempDir) {
  std::string Out = (TempDir + "/patchelf-rpath.txt").str();
  sys::fs::remove(Out);  // (a redirect writes over the file without truncating it)
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out), StringRef("")};
  StringRef Args[] = {Patchelf, "--print-rpath", File};
  if (sys::ExecuteAndWait(Patchelf, Args, std::nullopt, Redirects) != 0)
    return "";
  auto Text = MemoryBuffer::getFile(Out);
  return Text ? (*Text)->getBuffer().trim().split('\n').first.str() : "";
}

/// A bundled program's search path: the bundle's libraries first, then the program's own entries
/// relative to it ($ORIGIN/plugins: a plugin it dlopens from a folder of the bundle still loads:
/// adversarial pass). Its other entries are the build machine's folders (`-Wl,-rpath`, CMake's
/// build tree, LLVM's) and are dropped: DT_RPATH is searched first for every library a program
/// loads, libc.so.6 included, and on a node such a folder (NFS) held libraries that were loaded
/// before the node's own (adversarial pass). A plugin the program loads from such a folder goes
/// into the bundle, beside it as its $ORIGIN entry says (docs/user-guide.md, "Bundles").
std::string bundledRPath(StringRef Own, StringRef Bundle = "$ORIGIN/../lib") {
  std::string Path = Bundle.str();
  SmallVector<StringRef> Entries;
  Own.split(Entries, ':', -1, /*KeepEmpty=*/false);
  for (StringRef E : Entries)
    if (E.contains("$ORIGIN") || E.contains("${ORIGIN}"))
      Path += ":" + E.str();
  return Path;
}

const char *const Launcher = R"SH(#!/bin/sh
# A bundle made by offload-cxx: runs one of its programs with the libraries it ships.
#   ./run PROGRAM [ARGS...]   (or ./PROGRAM [ARGS...])
set -e
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)  # through a link on PATH too
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [ARGS...]; programs: $(ls "$here/bin" | tr '\n' ' ')" >&2; exit 2; }
prog=$1; shift
case "$prog" in */*) ;; *) prog="$here/bin/$prog" ;; esac
[ -x "$prog" ] || { echo "offload-cxx bundle: error: no program '$prog' in $here/bin" >&2; exit 2; }
# The programs and libraries find the bundle's libraries themselves (DT_RPATH=$ORIGIN...), before
# anything on LD_LIBRARY_PATH; the library path is left as the node has it (it may be how the node
# finds its GPU driver).
libs=""
ldc=$(command -v ldconfig || echo /sbin/ldconfig)
# liboffload's CUDA plugin opens the NVIDIA driver as plain "libcuda.so"; many nodes have only
# libcuda.so.1.
if ! "$ldc" -p 2>/dev/null | grep -q 'libcuda\.so (' ; then
  cuda1=$("$ldc" -p 2>/dev/null | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')
  [ -n "$cuda1" ] || cuda1=$(ls /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1 /usr/local/nvidia/lib64/libcuda.so.1 2>/dev/null | head -n 1)
  if [ -n "$cuda1" ]; then
    # A folder of this user's alone (mode 700, owned, not a link): another user's folder of the
    # same name in a shared /tmp would put their libraries before the node's (adversarial pass).
    shim="${TMPDIR:-/tmp}/offload-cxx-cuda-$(id -u)"
    [ -e "$shim" ] || [ -L "$shim" ] || mkdir -m 700 "$shim" 2>/dev/null || true
    if [ -L "$shim" ] || [ ! -d "$shim" ] || [ ! -O "$shim" ] || [ "$(stat -c %a "$shim" 2>/dev/null)" != 700 ]; then
      shim=$(mktemp -d "${TMPDIR:-/tmp}/offload-cxx-cuda.XXXXXX" 2>/dev/null || mktemp -d)
    fi
    ln -sf "$cuda1" "$shim/libcuda.so" && libs="$shim"
  fi
fi
[ -z "$libs" ] || export LD_LIBRARY_PATH="$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$prog" "$@"
)SH";

const char *const DevicesScript = R"SH(#!/bin/sh
# The devices this node has (through the bundled runtime); with PROGRAM, which can run it.
here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)  # through a link on PATH too
if [ $# -ge 1 ]; then
  archs=$(cat "$here/lib/offload-cxx/$1.archs" 2>/dev/null) || { echo "offload-cxx bundle: error: no program '$1' in this bundle" >&2; exit 2; }
  exec "$here/run" "$here/lib/offload-cxx/offload-cxx-devices" --program="$1" --archs="$archs"
fi
exec "$here/run" "$here/lib/offload-cxx/offload-cxx-devices"
)SH";

Error writeText(const std::string &Path, StringRef Text, unsigned Mode) {
  if (Error E = writeFile(Path, Text))
    return E;
  sys::fs::setPermissions(Path, static_cast<sys::fs::perms>(Mode));
  return Error::success();
}

/// What an interrupted bundle command removes (sys::SetInterruptFunction).
struct {
  std::string Stage, Temp;
} InterruptedBundle;

/// Marks a folder as a bundle offload-cxx made: only such a folder is ever written over.
constexpr const char *BundleMarker = "/.offload-cxx-bundle";

/// The marker's first line, as fillBundle writes it.
constexpr StringLiteral BundleMarkerFirstLine = "made by offload-cxx bundle";

bool isOurBundle(const std::string &Dir) {
  // A marker is ours when it says so: any file of that name is not (a user's file there was
  // replaced, and the folder written over: adversarial pass).
  const std::string Marker = Dir + BundleMarker;
  if (sys::fs::exists(Marker)) {
    if (!sys::fs::is_regular_file(Marker))
      return false;
    uint64_t Size = 0;
    if (sys::fs::file_size(Marker, Size) || Size > (64u << 20))
      return false;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Marker);
    return Text && (*Text)->getBuffer().split('\n').first == BundleMarkerFirstLine;
  }
  return
         // bundles made before the marker existed
         (sys::fs::exists(Dir + "/run") &&
          sys::fs::exists(Dir + "/lib/offload-cxx/offload-cxx-devices"));
}

Error fillBundle(const Layout &L, const std::string &Dir, size_t &Libraries);

/// The bundle is made in a folder beside the destination and renamed into place only when
/// complete: a failure leaves nothing, and a folder the user made is never touched.
Error makeBundle(const Layout &L) {
  std::string Dest = BundleDir;
  while (Dest.size() > 1 && Dest.back() == '/')
    Dest.pop_back();
  if (sys::fs::is_symlink_file(Dest))
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is a symbolic link: name the bundle's folder itself",
                             Dest.c_str());
  // One bundle command at a time in a folder (a lock on the folder that holds the bundle, held
  // until this process ends): two at once into one new bundle both said they made it, and one's
  // programs were gone, or an update in place mixed the two (twelfth adversarial pass). The
  // second waits, then updates the first's bundle as a later command would.
  {
    SmallString<256> Holder(sys::path::parent_path(Dest));
    if (Holder.empty())
      Holder = ".";
    const int Fd = ::open(Holder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (Fd >= 0)
      while (::flock(Fd, LOCK_EX) != 0 && errno == EINTR) {
      }
    // (Fd stays open: the lock goes with the process.)
  }
  if (sys::fs::exists(Dest) && !isOurBundle(Dest)) {
    std::error_code EC;
    if (!sys::fs::is_directory(Dest) ||
        sys::fs::directory_iterator(Dest, EC) != sys::fs::directory_iterator())
      return createStringError(inconvertibleErrorCode(),
                               "'%s' exists and is not a bundle offload-cxx made: choose a new "
                               "folder",
                               Dest.c_str());
  }
  SmallString<256> Parent(sys::path::parent_path(Dest));
  if (Parent.empty())
    Parent = ".";
  sys::fs::make_absolute(Parent);  // else createUniqueDirectory would make it in $TMPDIR
  if (!sys::fs::is_directory(Parent))
    return createStringError(inconvertibleErrorCode(), "cannot write '%s': no such directory '%s'",
                             Dest.c_str(), Parent.c_str());
  SmallString<256> Stage;
  if (std::error_code EC = sys::fs::createUniqueDirectory(
          Parent + "/." + sys::path::filename(Dest) + ".partial", Stage))
    return createStringError(EC, "cannot create a folder in '%s'", Parent.c_str());
  const std::string StagePath(Stage);
  InterruptedBundle.Stage = StagePath;
  // SIGINT, SIGTERM, SIGHUP: nothing half-made is left (async-signal-safe: Subprocess.h).
  removeOnSignal(StagePath);
  sys::SetInterruptFunction(exitAfterSignalCleanup);
  handleEndingSignals();  // (LLVM may have installed its handlers again)
  size_t Libraries = 0;
  Error Filled = fillBundle(L, StagePath, Libraries);
  if (!Filled)
    Filled = recordBundleContents(StagePath, StringRef(BundleMarker).drop_front());
  // A bundle made before is brought up to date in place: what the user put in it (data, notes,
  // a running job's log) stays as it is; its marker lists what offload-cxx wrote
  // (BundleUserFiles.h).
  if (!Filled && sys::fs::exists(Dest))
    Filled = updateBundleInPlace(Dest, StagePath, StringRef(BundleMarker).drop_front());
  if (Filled) {
    sys::fs::remove_directories(StagePath);
    // Named as the user named the bundle, not by the hidden folder it was made in (adversarial
    // pass: a full disk said "cannot write '.app-bundle.partial-085242/lib/...'").
    std::string Message = toString(std::move(Filled));
    for (size_t At; (At = Message.find(StagePath)) != std::string::npos;)
      Message.replace(At, StagePath.size(), Dest);
    return createStringError(inconvertibleErrorCode(), "%s", Message.c_str());
  }
  if (sys::fs::exists(Dest)) {
    sys::fs::remove_directories(StagePath);
  } else {
    // A new bundle's folder as mkdir makes one (0777 less the umask: another user of a shared
    // project folder can run it, as g++'s programs; it was 0700, then 0750).
    const mode_t Mask = ::umask(0);
    ::umask(Mask);
    sys::fs::setPermissions(StagePath, static_cast<sys::fs::perms>(0777 & ~Mask));
    if (std::error_code EC = sys::fs::rename(StagePath, Dest)) {
      sys::fs::remove_directories(StagePath);
      return createStringError(EC, "cannot move the bundle into '%s'", Dest.c_str());
    }
  }
  InterruptedBundle.Stage.clear();
  outs() << "offload-cxx bundle: " << BundlePrograms.size() << " program"
         << (BundlePrograms.size() == 1 ? "" : "s") << " and " << Libraries << " libraries in "
         << Dest << "; run one with "
         << Dest << "/run PROGRAM\n";
  return Error::success();
}

Error fillBundle(const Layout &L, const std::string &Dir, size_t &Libraries) {
  if (Error E = writeText(Dir + BundleMarker, BundleMarkerFirstLine.str() + "\n", Readable))
    return E;
  for (const char *Sub : {"/bin", "/lib/offload-cxx"})
    if (std::error_code EC = sys::fs::create_directories(Dir + Sub, true, sys::fs::all_all))  // (less the umask)
      return createStringError(EC, "cannot create '%s%s'", Dir.c_str(), Sub);
  SmallString<128> Temp;
  if (std::error_code EC = sys::fs::createUniqueDirectory("offload-cxx-bundle", Temp))
    return errorCodeToError(EC);
  InterruptedBundle.Temp = std::string(Temp);
  removeOnSignal(InterruptedBundle.Temp);
  scope_exit RemoveTemp([&] {
    sys::fs::remove_directories(Temp);
    InterruptedBundle.Temp.clear();
  });

  ErrorOr<std::string> Patchelf = sys::findProgramByName("patchelf");
  if (!Patchelf)
    return createStringError(inconvertibleErrorCode(),
                             "patchelf not found (package patchelf): a bundle's programs need it to "
                             "find the bundle's own libraries");
  const std::string DevicesTool = L.ToolsDir + "/offload-cxx-devices";
  std::vector<std::string> Binaries = {DevicesTool};
  StringMap<std::string> Named;  // a bundle's programs are named by their file names
  for (const std::string &P : BundlePrograms) {
    const std::string Name = sys::path::filename(P).str();
    if (auto [It, New] = Named.try_emplace(Name, P); !New)
      return createStringError(inconvertibleErrorCode(),
                               "two programs named '%s' ('%s' and '%s'): a bundle's programs are "
                               "known by their file names; rename one",
                               Name.c_str(), It->second.c_str(), P.c_str());
  }
  for (const std::string &P : BundlePrograms) {
    if (!sys::fs::exists(P))
      return createStringError(inconvertibleErrorCode(), "no such program: '%s'", P.c_str());
    Expected<std::vector<std::string>> Archs = readProgramArchs(P);
    if (!Archs)
      return Archs.takeError();
    const std::string Name = sys::path::filename(P).str();
    // The bundle lists its files one per line (BundleUserFiles.h): a name with a line break
    // in it would list other names, and a rebuild would remove the user's files by them.
    if (Name.find_first_of("\n\r") != std::string::npos)
      return createStringError(inconvertibleErrorCode(),
                               "a program named '%s' has a line break in its name: rename it",
                               P.c_str());
    if (Name == "run" || Name == "devices" || Name == "bin" || Name == "lib" ||
        "/" + Name == BundleMarker)
      return createStringError(inconvertibleErrorCode(),
                               "a program named '%s' would take the name of the bundle's own %s: "
                               "rename it",
                               Name.c_str(), Name == "bin" || Name == "lib" ? "folder" : "file");
    if (Error E = copyFile(P, Dir + "/bin/" + Name, Executable))
      return E;
    const std::string RPath = bundledRPath(readRPath(*Patchelf, P, Temp));
    if (Error E = setRPath(*Patchelf, Dir + "/bin/" + Name, RPath, Temp))
      return E;
    if (Error E = neededByFileName(*Patchelf, Dir + "/bin/" + Name, Temp))
      return E;
    if (Error E = writeText(Dir + "/lib/offload-cxx/" + Name + ".archs", join(*Archs, ","), Readable))
      return E;
    // The name quoted for the shell ("my prog", a quote in it).
    std::string Quoted = "'";
    for (char C : Name)
      Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Quoted += "'";
    if (Error E = writeText(Dir + "/" + Name,
                            "#!/bin/sh\nexec \"$(dirname \"$(readlink -f \"$0\")\")/run\" " + Quoted + " \"$@\"\n",
                            Executable))
      return E;
    Binaries.push_back(P);
  }
  if (Error E = copyFile(DevicesTool, Dir + "/lib/offload-cxx/offload-cxx-devices", Executable))
    return E;
  if (Error E = setRPath(*Patchelf, Dir + "/lib/offload-cxx/offload-cxx-devices", "$ORIGIN/..", Temp))
    return E;
  if (Error E = neededByFileName(*Patchelf, Dir + "/lib/offload-cxx/offload-cxx-devices", Temp))
    return E;

  struct CopiedLibrary {
    std::string Path, Binary;  // where it was copied from, and the program that loads it
    bool ByPath;
  };
  StringMap<CopiedLibrary> Copied;  // by its name in lib/
  for (const std::string &B : Binaries) {
    // ldd of the file itself, not of a link to it: $ORIGIN is the file's folder (adversarial
    // pass: a program given through a link "needed" libraries its $ORIGIN/../lib held).
    SmallString<256> Real;
    if (sys::fs::real_path(B, Real))
      Real = B;
    auto Libs = neededLibraries(std::string(Real), Temp);
    if (!Libs)
      return Libs.takeError();
    for (const NeededLibrary &Lib : *Libs) {
      const std::string &Soname = Lib.Name, &Path = Lib.Path;
      if (fromTheNode(Soname))
        continue;
      // One lib/ folder: two programs that load different files of one name cannot share it
      // (adversarial pass: the second program ran with the first one's library, silently), nor
      // can one program that loads two by paths of one file name.
      if (auto It = Copied.find(Soname); It != Copied.end()) {
        bool Same = false;
        if (It->second.Path != Path &&
            (sys::fs::equivalent(It->second.Path, Path, Same) || !Same)) {
          const bool ByPath = Lib.ByPath || It->second.ByPath;
          const std::string Who = It->second.Binary == B
                                      ? "'" + B + "' loads two"
                                      : "'" + It->second.Binary + "' and '" + B + "' load";
          return createStringError(
              inconvertibleErrorCode(),
              "%s different libraries named '%s' ('%s' and '%s'), and a bundle holds one: %s",
              Who.c_str(), Soname.c_str(), It->second.Path.c_str(), Path.c_str(),
              ByPath ? "rename one (a library named by its path is named by its file name in the "
                       "bundle)"
                     : "bundle them separately");
        }
        continue;
      }
      Copied[Soname] = {Path, B, Lib.ByPath};
      if (Error E = copyFile(Path, Dir + "/lib/" + Soname, Readable))
        return E;
      // A library's own libraries named by path, as a program's.
      if (Error E = neededByFileName(*Patchelf, Dir + "/lib/" + Soname, Temp))
        return E;
      // The runtime opens the GPU drivers through this library, by the node's own search: it
      // keeps a DT_RUNPATH, which makes dlopen ignore every DT_RPATH (runtime/system_dlopen.cpp;
      // adversarial pass: a libcuda.so.1 in a folder of the build machine that a program's
      // DT_RPATH names was loaded instead of the node's driver).
      if (Soname == "liboffload-cxx-system-dl.so") {
        if (Error E = setRPath(*Patchelf, Dir + "/lib/" + Soname, "/dev/null", Temp, SearchPath::RunPath))
          return E;
        continue;
      }
      // The library's own entries relative to it after the bundle's (a plugin it dlopens through
      // $ORIGIN/plugins: adversarial pass), as for programs.
      if (Error E = setRPath(*Patchelf, Dir + "/lib/" + Soname,
                             bundledRPath(readRPath(*Patchelf, Path, Temp), "$ORIGIN"), Temp))
        return E;
      if (BundleVerbose)
        outs() << "  " << Soname << " <- " << Path << "\n";
    }
  }
  if (Error E = writeText(Dir + "/run", Launcher, Executable))
    return E;
  if (Error E = writeText(Dir + "/devices", DevicesScript, Executable))
    return E;
  Libraries = Copied.size();
  return Error::success();
}

} // namespace

int runBundleCommand(const Layout &L) {
  if (Error E = makeBundle(L)) {
    WithColor::error(errs(), "offload-cxx bundle") << toString(std::move(E)) << "\n";
    return 1;
  }
  return 0;
}

} // namespace offload::compiler
