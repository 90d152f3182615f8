// compiler/ObjectFiles.h — device code inside host objects, for `-c` and the link step.
//
// `offload-cxx -c a.cpp -o a.o` puts, beside a.cpp's host code, a section `.offload_cxx` holding
// a device.bin (DeviceImageFile.h): a.cpp's manifest and its device code as bitcode, one record
// per architecture. The section is SHF_EXCLUDE, so the host linker drops it. The link step reads
// the sections of its objects and of static-library members, links the bitcode of each
// architecture (an instantiation used in several files becomes one entry), lowers it once, and
// registers the result. docs/design.md says why the code travels inside the object.
#pragma once

#include "DeviceImageFile.h"
#include "Subprocess.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace llvm::object {
class ObjectFile;
class Archive;
}

namespace offload::compiler {

inline constexpr const char *DeviceSectionName = ".offload_cxx";

/// Writes Out: HostObject with File embedded as the `.offload_cxx` section.
llvm::Error embedDeviceCode(const std::string &ObjcopyTool, const std::string &HostObject,
                            const DeviceImageFile &File, const std::string &TempFile,
                            const std::string &Out, const CommandOptions &Commands);

/// Whether any of Inputs (objects, archives; other files are skipped) refers to offload-cxx's
/// runtime (an undefined `offload::` or `__offload` symbol) or carries device code: a program
/// none of whose inputs does is linked as the host compiler links it, without the runtime.
bool needsOffloadRuntime(llvm::ArrayRef<std::string> Inputs, bool RescanArchives = false);

/// Whether a host object defines any function with external linkage (a kernel of another file
/// may call it: Manifest::ExportsDeferred).
llvm::Expected<bool> definesFunctions(const std::string &Object);
/// Whether Object's own symbol table shows a function it defines (a GCC slim -flto object's
/// shows none: functionsDefinedBy reads them through nm).
bool definesFunctionsInSymbolTable(const std::string &Object);
/// The functions with external linkage a host object defines, as a deferred manifest's exports.
llvm::Expected<std::vector<ManifestExport>> functionsDefinedBy(const std::string &Object);

/// The global symbols a link's objects define and leave undefined, so far: a static archive's
/// member is part of the program only if it defines one still undefined when the archive is
/// read (the host linker's rule), and so is its device code — an unused member's kernel, which
/// may call what no object defines, is not built.
struct LinkSymbols {
  std::set<std::string> Defined, Undefined;
  void add(const llvm::object::ObjectFile &Obj);
  /// Whether Obj defines a symbol still undefined.
  bool wants(const llvm::object::ObjectFile &Obj) const;
  /// add() of an object file; other files (archives, scripts, libraries) are left out.
  void addFile(const std::string &Path);
  /// add() for GCC's slim -flto object at Path, whose symbols only the linker plugin reads: as
  /// binutils' `nm` (which loads the plugin) lists them. False when nm cannot say.
  bool addSlimLto(const std::string &Path);
  /// Which of an archive's Members the link takes (each defines a symbol undefined when it is
  /// reached, again until none more: a member taken may need another); their symbols added.
  /// Indexed: each member's symbols as the archive's index lists them (archiveIndex), for
  /// members whose own symbol table does not show them (GCC's slim -flto objects);
  /// IndexedUndefined: the symbols such a member needs (through nm), added when it is taken.
  std::vector<bool> take(llvm::ArrayRef<const llvm::object::ObjectFile *> Members,
                         llvm::ArrayRef<std::vector<std::string>> Indexed = {},
                         llvm::ArrayRef<std::vector<std::string>> IndexedUndefined = {});
};

/// The symbols an archive's index (its armap, which `ar` writes with the LTO plugin's help for
/// slim objects) names for each member, by the members' offsets in the archive.
std::vector<std::vector<std::string>> archiveIndex(const llvm::object::Archive &Ar,
                                                   llvm::ArrayRef<uint64_t> MemberOffsets);

/// Whether a link's flags group archives (`-Wl,--start-group`, `-Wl,-(`): ld then reads the
/// group's archives again until no member is taken, and so does the choice of their device code.
bool groupsArchives(llvm::ArrayRef<std::string> LinkArgs);

/// Visit(input) for Inputs as the link reads them: the objects, then the archives, and the
/// archives again while Link (which Visit fills) gains definitions, under RescanArchives (ld's
/// groups). Visit returns true to stop; its error stops and is returned.
llvm::Error visitInLinkOrder(llvm::ArrayRef<std::string> Inputs, bool RescanArchives,
                             const LinkSymbols &Link,
                             llvm::function_ref<llvm::Expected<bool>(const std::string &)> Visit);

/// The device code of an input: of an object (zero or more: a partial link's object holds
/// several), or of the members of an archive (their kernels marked FromArchive) — every member,
/// or with Link the members the link takes (LinkSymbols), whose symbols it then adds.
llvm::Expected<std::vector<DeviceImageFile>> readDeviceCode(const std::string &Input,
                                                            LinkSymbols *Link = nullptr);
/// The same for an input's bytes (`Input` names it in errors); the object fuzzer's entry.
llvm::Expected<std::vector<DeviceImageFile>> readDeviceCode(llvm::MemoryBufferRef Bytes,
                                                            const std::string &Input,
                                                            LinkSymbols *Link = nullptr);

/// The first of Inputs (objects; archives' members as `lib.a(m.o)`) that defines Symbol for the
/// host without device code for it (no `.offload_cxx` section: compiled by another compiler, or
/// from a preprocessed file or standard input, which offload-cxx cannot compile for a device);
/// empty if none.
std::string objectDefiningWithoutDeviceCode(llvm::ArrayRef<std::string> Inputs, llvm::StringRef Symbol);

/// Whether Path is a static archive.
bool isArchive(const std::string &Path);

/// Merges the manifests and bitcode of many inputs: kernels by host symbol (first wins), bitcode
/// listed per architecture. Errors if an input with kernels lacks one of the GPU architectures
/// another input has (the CPU image, arch "host", is optional per input).
struct MergedDeviceCode {
  Manifest Kernels;
  std::vector<std::pair<OffloadArch, std::vector<std::string>>> BitcodeByArch;  // written to temps
};
llvm::Expected<MergedDeviceCode> mergeDeviceCode(const std::vector<DeviceImageFile> &Files,
                                                 const std::string &TempPrefix);

/// The architectures a linked program holds code for ("sm_90", ..., "host"), read from its
/// ProgramArchsSection (HostPass.h); an error naming Path if it is not an offload-cxx program.
llvm::Expected<std::vector<std::string>> readProgramArchs(const std::string &Path);

} // namespace offload::compiler
