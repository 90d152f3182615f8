// compiler/ObjectFiles.cpp — see ObjectFiles.h.
#include "ObjectFiles.h"

#include "HostPass.h"

#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <set>

using namespace llvm;

namespace offload::compiler {

Error embedDeviceCode(const std::string &Objcopy, const std::string &HostObject,
                      const DeviceImageFile &File, const std::string &TempFile,
                      const std::string &Out, const CommandOptions &Commands) {
  if (!Commands.DryRun)
    if (Error E = writeFile(TempFile, serializeDeviceImageFile(File)))
      return E;
  return runCommand({Objcopy, "--add-section", std::string(DeviceSectionName) + "=" + TempFile,
                     "--set-section-flags", std::string(DeviceSectionName) + "=exclude,readonly",
                     asOperand(HostObject), asOperand(Out)},
                    Commands);
}

/// The functions Obj defines with external linkage, weak ones included (an explicit
/// instantiation, `template int f<int>(int);`, is weak), but not main.
static std::vector<ManifestExport> definedFunctions(const object::ObjectFile &Obj) {
  std::vector<ManifestExport> Functions;
  for (const object::SymbolRef &Sym : Obj.symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<object::SymbolRef::Type> Type = Sym.getType();
    Expected<StringRef> Name = Sym.getName();
    if (!Flags || !Type || !Name) {
      consumeError(Flags.takeError());
      consumeError(Type.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if (*Type == object::SymbolRef::ST_Function && (*Flags & object::SymbolRef::SF_Global) &&
        !(*Flags & object::SymbolRef::SF_Undefined) && *Name != "main")
      Functions.push_back({Name->str(), "", /*UsesBarriers=*/false,
                           /*Weak=*/(*Flags & object::SymbolRef::SF_Weak) != 0});
  }
  return Functions;
}

/// The device code of an object: none, one file's, or several (an object of a partial link).
static Expected<std::vector<DeviceImageFile>> fromObject(const object::ObjectFile &Obj,
                                                         StringRef Origin) {
  for (const object::SectionRef &Section : Obj.sections()) {
    Expected<StringRef> Name = Section.getName();
    if (!Name || *Name != DeviceSectionName) {
      consumeError(Name.takeError());
      continue;
    }
    Expected<StringRef> Contents = Section.getContents();
    if (!Contents)
      return createFileError(Origin, Contents.takeError());
    Expected<std::vector<DeviceImageFile>> Files = parseDeviceImageFiles(*Contents, Origin);
    if (!Files)
      return Files.takeError();
    // A file compiled as written: what its object defines (of a partial link: what the whole
    // object defines, until the link parses the file for its own).
    for (DeviceImageFile &File : *Files)
      if (File.Kernels.ExportsDeferred)
        for (ManifestExport &F : definedFunctions(Obj))
          File.Kernels.Exports.push_back(std::move(F));
    return Files;
  }
  return std::vector<DeviceImageFile>();
}

void LinkSymbols::add(const object::ObjectFile &Obj) {
  for (const object::SymbolRef &Sym : Obj.symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<StringRef> Name = Sym.getName();
    if (!Flags || !Name || !(*Flags & object::SymbolRef::SF_Global) || Name->empty()) {
      consumeError(Flags.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if (*Flags & object::SymbolRef::SF_Undefined) {
      if (!Defined.count(Name->str()))
        Undefined.insert(Name->str());
    } else {
      Defined.insert(Name->str());
      Undefined.erase(Name->str());
    }
  }
}

/// GCC's slim -flto object: its ELF symbol table holds only `__gnu_lto_slim`, its symbols are in
/// its LTO sections.
static bool gccSlimLto(const object::ObjectFile &Obj) {
  for (const object::SymbolRef &Sym : Obj.symbols()) {
    Expected<StringRef> Name = Sym.getName();
    if (Name && *Name == "__gnu_lto_slim")
      return true;
    consumeError(Name.takeError());
  }
  return false;
}

/// `nm -P --no-sort Path`'s lines (binutils' nm loads GCC's LTO plugin, so it lists a slim
/// -flto object's symbols); nothing when nm cannot say.
static std::optional<std::vector<std::string>> nmLines(const std::string &Path) {
  ErrorOr<std::string> Nm = sys::findProgramByName("nm");
  if (!Nm)
    return std::nullopt;
  SmallString<128> Out;
  if (sys::fs::createTemporaryFile("offload-cxx-nm", "txt", Out))
    return std::nullopt;
  const std::string OutPath(Out);
  const std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(OutPath), StringRef("")};
  const int Status = sys::ExecuteAndWait(*Nm, {*Nm, "-P", "--no-sort", Path}, std::nullopt, Redirects);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(OutPath);
  sys::fs::remove(OutPath);
  if (Status != 0 || !Text)
    return std::nullopt;
  SmallVector<StringRef, 64> Lines;
  (*Text)->getBuffer().split(Lines, '\n', -1, false);
  std::vector<std::string> Result;
  for (StringRef L : Lines)
    Result.push_back(L.str());
  return Result;
}

/// One line of `nm -P`: "name type [value size]".
static std::pair<StringRef, char> nmSymbol(StringRef Line) {
  auto [Name, Rest] = Line.split(' ');
  return {Name, Rest.empty() ? '?' : Rest.front()};
}

bool LinkSymbols::addSlimLto(const std::string &Path) {
  std::optional<std::vector<std::string>> Lines = nmLines(Path);
  if (!Lines)
    return false;
  for (StringRef Line : *Lines) {
    auto [Name, Type] = nmSymbol(Line);
    if (Name.empty() || Name == "__gnu_lto_slim")
      continue;
    if (Type == 'U') {
      if (!Defined.count(Name.str()))
        Undefined.insert(Name.str());
    } else if (Type >= 'A' && Type <= 'Z') {
      Defined.insert(Name.str());
      Undefined.erase(Name.str());
    }
  }
  return true;
}

bool LinkSymbols::wants(const object::ObjectFile &Obj) const {
  for (const object::SymbolRef &Sym : Obj.symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<StringRef> Name = Sym.getName();
    if (!Flags || !Name) {
      consumeError(Flags.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if ((*Flags & object::SymbolRef::SF_Global) && !(*Flags & object::SymbolRef::SF_Undefined) &&
        !(*Flags & object::SymbolRef::SF_Common) && Undefined.count(Name->str()))
      return true;
  }
  return false;
}

void LinkSymbols::addFile(const std::string &Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return;
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
  if (!Obj) {
    consumeError(Obj.takeError());
    return;
  }
  add(**Obj);
}

std::vector<bool> LinkSymbols::take(ArrayRef<const object::ObjectFile *> Members,
                                    ArrayRef<std::vector<std::string>> Indexed,
                                    ArrayRef<std::vector<std::string>> IndexedUndefined) {
  std::vector<bool> Taken(Members.size(), false);
  auto indexedWanted = [&](size_t I) {
    return I < Indexed.size() &&
           llvm::any_of(Indexed[I], [&](const std::string &N) { return Undefined.count(N) != 0; });
  };
  for (bool More = true; More;) {
    More = false;
    for (size_t I = 0; I < Members.size(); ++I)
      if (!Taken[I] && (wants(*Members[I]) || indexedWanted(I))) {
        Taken[I] = More = true;
        add(*Members[I]);
        if (I < Indexed.size())
          for (const std::string &N : Indexed[I]) {
            Defined.insert(N);
            Undefined.erase(N);
          }
        if (I < IndexedUndefined.size())
          for (const std::string &N : IndexedUndefined[I])
            if (!Defined.count(N))
              Undefined.insert(N);
      }
  }
  return Taken;
}

std::vector<std::vector<std::string>> archiveIndex(const object::Archive &Ar,
                                                   ArrayRef<uint64_t> MemberOffsets) {
  std::vector<std::vector<std::string>> Index(MemberOffsets.size());
  for (const object::Archive::Symbol &Sym : Ar.symbols()) {
    Expected<object::Archive::Child> C = Sym.getMember();
    if (!C) {
      consumeError(C.takeError());
      continue;
    }
    const uint64_t At = C->getChildOffset();
    for (size_t I = 0; I < MemberOffsets.size(); ++I)
      if (MemberOffsets[I] == At) {
        Index[I].push_back(Sym.getName().str());
        break;
      }
  }
  return Index;
}

bool groupsArchives(ArrayRef<std::string> LinkArgs) {
  return llvm::any_of(LinkArgs, [](StringRef A) {
    if (A.contains("--start-group"))
      return true;
    if (!A.consume_front("-Wl,"))
      return false;
    SmallVector<StringRef, 4> Parts;
    A.split(Parts, ',');
    return llvm::is_contained(Parts, "-(");
  });
}

bool isArchive(const std::string &Path) {
  file_magic Magic;
  return !identify_magic(Path, Magic) && Magic == file_magic::archive;
}

namespace {
/// An archive's object members, each with the name errors give it (`lib.a(m.o)`) and its
/// offset (the archive's index names members so).
struct ArchiveMember {
  std::unique_ptr<object::Binary> Binary;
  std::string Origin;
  uint64_t Offset;
  const object::ObjectFile &object() const { return *cast<object::ObjectFile>(Binary.get()); }
};

/// The object members of Ar (Whole: the archive's bytes; Input: its name). Strict: a member
/// running past the archive's end is an error (else such members are passed over).
Expected<std::vector<ArchiveMember>> objectMembers(const object::Archive &Ar, StringRef Whole,
                                                   const std::string &Input, bool Strict) {
  std::vector<ArchiveMember> Members;
  Error Err = Error::success();
  for (const object::Archive::Child &C : Ar.children(Err)) {
    // LLVM 22 does not check a member's size against the archive: a truncated archive gave
    // the ELF reader a member running past the end of the file (a crash, found by fuzzing).
    Expected<StringRef> Data = C.getBuffer();
    if (!Data) {
      if (!Strict) {
        consumeError(Data.takeError());
        continue;
      }
      consumeError(std::move(Err));
      return createStringError(inconvertibleErrorCode(), "cannot read '%s': %s", Input.c_str(),
                               toString(Data.takeError()).c_str());
    }
    if (!Ar.isThin() && (Data->begin() < Whole.begin() || Data->end() > Whole.end())) {
      if (!Strict)
        continue;
      consumeError(std::move(Err));
      return createStringError(inconvertibleErrorCode(),
                               "cannot read '%s': a member runs past the end of the archive "
                               "(truncated?)",
                               Input.c_str());
    }
    Expected<std::unique_ptr<object::Binary>> Member = C.getAsBinary();
    if (!Member) {
      consumeError(Member.takeError());  // not an object file: nothing of ours
      continue;
    }
    if (!isa<object::ObjectFile>(Member->get()))
      continue;
    Expected<StringRef> MemberName = C.getName();
    std::string Origin = Input + "(" + (MemberName ? MemberName->str() : "?") + ")";
    consumeError(MemberName.takeError());
    Members.push_back({std::move(*Member), std::move(Origin), C.getChildOffset()});
  }
  if (Err) {
    if (!Strict) {
      consumeError(std::move(Err));
      return Members;
    }
    return createFileError(Input, std::move(Err));
  }
  return Members;
}

/// The symbols each slim -flto member of the archive at Input needs (as nm lists them, in the
/// members' order: "Input[member]:" then its symbols), by member; empty for the others, and
/// when no member is slim or nm cannot say. A member taken adds them, so a chain of slim members
/// (a.o calls b.o's function, which calls c.o's) is taken whole, as ld's plugin takes it.
std::vector<std::vector<std::string>> slimMembersUndefined(const std::string &Input,
                                                           const std::vector<ArchiveMember> &Members) {
  std::vector<bool> Slim;
  for (const ArchiveMember &M : Members)
    Slim.push_back(gccSlimLto(M.object()));
  if (llvm::none_of(Slim, [](bool B) { return B; }))
    return {};
  std::optional<std::vector<std::string>> Lines = nmLines(Input);
  if (!Lines)
    return {};
  std::vector<std::vector<std::string>> Undefined(Members.size());
  size_t Next = 0;           // the member nm's next header is matched from
  long Current = -1;         // the member whose symbols the lines are, -1: none of ours
  const std::string Header = Input + "[";
  for (StringRef Line : *Lines) {
    if (Line.starts_with(Header) && Line.ends_with("]:")) {
      const std::string Name = Line.drop_front(Header.size()).drop_back(2).str();
      Current = -1;
      for (size_t I = Next; I < Members.size(); ++I)
        if (Members[I].Origin == Input + "(" + Name + ")") {
          Current = static_cast<long>(I);
          Next = I + 1;
          break;
        }
      continue;
    }
    auto [Symbol, Type] = nmSymbol(Line);
    if (Current >= 0 && Slim[Current] && Type == 'U' && !Symbol.empty())
      Undefined[Current].push_back(Symbol.str());
  }
  return Undefined;
}

/// Which of Members of the archive at Input the link takes (LinkSymbols::take, with the
/// archive's index and its slim -flto members' needs).
std::vector<bool> membersTaken(LinkSymbols &Link, const object::Archive &Ar,
                               const std::vector<ArchiveMember> &Members, const std::string &Input) {
  std::vector<const object::ObjectFile *> Objects;
  std::vector<uint64_t> Offsets;
  for (const ArchiveMember &M : Members) {
    Objects.push_back(&M.object());
    Offsets.push_back(M.Offset);
  }
  return Link.take(Objects, archiveIndex(Ar, Offsets), slimMembersUndefined(Input, Members));
}
} // namespace

Expected<std::vector<DeviceImageFile>> readDeviceCode(const std::string &Input, LinkSymbols *Link) {
  if (Error E = checkRegularFile(Input))
    return E;
  auto Buffer = MemoryBuffer::getFile(Input, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createFileError(Input, Buffer.getError());
  return readDeviceCode((*Buffer)->getMemBufferRef(), Input, Link);
}

Expected<std::vector<DeviceImageFile>> readDeviceCode(MemoryBufferRef Bytes,
                                                      const std::string &Input,
                                                      LinkSymbols *Link) {
  std::vector<DeviceImageFile> Found;
  // What is neither an object nor an archive GNU ld reads as a linker script (INPUT(...),
  // libc.so): the link's, without device code (adversarial pass: it was refused).
  if (identify_magic(Bytes.getBuffer()) == file_magic::unknown)
    return Found;
  Expected<std::unique_ptr<object::Binary>> Bin = object::createBinary(Bytes);
  if (!Bin)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '%s': it is not an object file or archive (%s)",
                             Input.c_str(), toString(Bin.takeError()).c_str());
  if (auto *Obj = dyn_cast<object::ObjectFile>(Bin->get())) {
    // A slim -flto object's symbols through nm (they choose archive members: a member that only
    // such an object needed lost its kernels, adversarial pass).
    if (Link && !(gccSlimLto(*Obj) && Link->addSlimLto(Input)))
      Link->add(*Obj);
    auto Files = fromObject(*Obj, Input);
    if (!Files)
      return Files.takeError();
    for (DeviceImageFile &File : *Files)
      Found.push_back(std::move(File));
  } else if (auto *Ar = dyn_cast<object::Archive>(Bin->get())) {
    Expected<std::vector<ArchiveMember>> Members = objectMembers(*Ar, Bytes.getBuffer(), Input, /*Strict=*/true);
    if (!Members)
      return Members.takeError();
    // The members the link takes (LinkSymbols::take); every member without Link.
    const std::vector<bool> Taken =
        Link ? membersTaken(*Link, *Ar, *Members, Input) : std::vector<bool>(Members->size(), true);
    for (size_t I = 0; I < Members->size(); ++I) {
      if (!Taken[I])
        continue;
      auto Files = fromObject((*Members)[I].object(), (*Members)[I].Origin);
      if (!Files)
        return Files.takeError();
      for (DeviceImageFile &File : *Files) {
        for (ManifestKernel &K : File.Kernels.Kernels)
          K.FromArchive = true;
        Found.push_back(std::move(File));
      }
    }
  }
  return Found;
}

Expected<MergedDeviceCode> mergeDeviceCode(const std::vector<DeviceImageFile> &Files,
                                           const std::string &TempPrefix) {
  MergedDeviceCode Merged;
  std::set<OffloadArch> Archs;  // in the order of their names
  for (const DeviceImageFile &F : Files)
    for (const DeviceImage &I : F.Images)
      Archs.insert(I.Arch);
  for (const OffloadArch &Arch : Archs)
    Merged.BitcodeByArch.push_back({Arch, {}});
  unsigned Counter = 0;
  for (const DeviceImageFile &F : Files) {
    for (const ManifestKernel &K : F.Kernels.Kernels)
      Merged.Kernels.addKernel(K);
    if (F.Kernels.Kernels.empty() && F.Images.empty())
      continue;
    for (auto &[Arch, Paths] : Merged.BitcodeByArch) {
      // A file without kernels has only a CPU image (the bodies of its functions that reach
      // a barrier, compileDeviceCode): GPU code for its functions comes from its source.
      if (F.Kernels.Kernels.empty() && !Arch.isHost())
        continue;
      auto It = std::find_if(F.Images.begin(), F.Images.end(),
                             [&](const DeviceImage &I) { return I.Arch == Arch; });
      // The CPU image is optional per object (--cpu-image=auto builds it only without GPU
      // archs): kernels of objects without one run work-item by work-item (a null entry).
      if (It == F.Images.end() && Arch.isHost())
        continue;
      if (It == F.Images.end())
        return createStringError(inconvertibleErrorCode(),
                                 "'%s' was compiled without --offload-arch=%s, which other "
                                 "objects of this program have: compile every file for the "
                                 "same architectures",
                                 F.Kernels.Source.c_str(), Arch.name().c_str());
      if (It->Bytes.empty())  // compiled by a dry run: no bitcode was made
        continue;
      std::string Path =
          TempPrefix + "." + std::to_string(Counter++) + "." + Arch.name() + ".bc";
      if (Error E = writeFile(Path, It->Bytes))
        return E;
      Paths.push_back(std::move(Path));
    }
  }
  return Merged;
}

Expected<std::vector<std::string>> readProgramArchs(const std::string &Path) {
  auto Bin = object::createBinary(Path);
  if (!Bin)
    return createStringError(inconvertibleErrorCode(), "cannot read '%s': %s", Path.c_str(),
                             toString(Bin.takeError()).c_str());
  auto *Obj = dyn_cast<object::ObjectFile>(Bin->getBinary());
  if (!Obj)
    return createStringError(inconvertibleErrorCode(), "'%s' is not a program", Path.c_str());
  for (const object::SectionRef &S : Obj->sections()) {
    Expected<StringRef> Name = S.getName();
    if (!Name || *Name != ProgramArchsSection) {
      consumeError(Name.takeError());
      continue;
    }
    Expected<StringRef> Contents = S.getContents();
    if (!Contents)
      return Contents.takeError();
    // One NUL-terminated list per registration object linked in.
    SmallVector<StringRef> Lists, Parts;
    Contents->split(Lists, '\0', -1, /*KeepEmpty=*/false);
    std::vector<std::string> Archs;
    for (StringRef List : Lists) {
      Parts.clear();
      List.split(Parts, ',', -1, /*KeepEmpty=*/false);
      for (StringRef A : Parts)
        if (llvm::find(Archs, A.trim().str()) == Archs.end())
          Archs.push_back(A.trim().str());
    }
    return Archs;
  }
  return createStringError(inconvertibleErrorCode(),
                           "'%s' was not built by offload-cxx (it has no %s section)",
                           Path.c_str(), ProgramArchsSection);
}

namespace {
/// Whether one object refers to the runtime or carries device code. A section holding only the
/// functions a file without kernels defines (its exports, for kernels of other files) is not
/// device code: a program of such files alone links as the host compiler links it.
bool objectNeedsRuntime(const object::ObjectFile &Obj) {
  for (const object::SectionRef &Sec : Obj.sections())
    if (Expected<StringRef> Name = Sec.getName(); Name && *Name == DeviceSectionName) {
      Expected<std::vector<DeviceImageFile>> Files = fromObject(Obj, "");
      if (!Files) {
        consumeError(Files.takeError());
        return true;  // the link reports it
      }
      if (llvm::any_of(*Files, [](const DeviceImageFile &F) {
            return !F.Kernels.Kernels.empty() || !F.Images.empty();
          }))
        return true;
    } else if (!Name) {
      consumeError(Name.takeError());
    }
  for (const object::SymbolRef &Sym : Obj.symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags) {
      consumeError(Flags.takeError());
      continue;
    }
    if (!(*Flags & object::SymbolRef::SF_Undefined))
      continue;
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (Name->starts_with("_ZN7offload") || Name->starts_with("_ZNK7offload") ||
        Name->starts_with("__offload"))
      return true;
  }
  return false;
}
} // namespace

Expected<std::vector<ManifestExport>> functionsDefinedBy(const std::string &Object) {
  Expected<object::OwningBinary<object::ObjectFile>> File =
      object::ObjectFile::createObjectFile(Object);
  if (!File)
    return createFileError(Object, File.takeError());
  // GCC's slim -flto object: its functions as nm lists them (its symbol table holds none; the
  // file's object then had no device-code section, and a kernel of another file calling one of
  // them failed the GPU link: adversarial pass). Global text symbols, weak ones too.
  if (gccSlimLto(*File->getBinary())) {
    std::vector<ManifestExport> Functions;
    if (std::optional<std::vector<std::string>> Lines = nmLines(Object))
      for (StringRef Line : *Lines) {
        auto [Name, Type] = nmSymbol(Line);
        if ((Type == 'T' || Type == 'W') && !Name.empty() && Name != "main")
          Functions.push_back({Name.str(), "", /*UsesBarriers=*/false, /*Weak=*/Type == 'W'});
      }
    return Functions;
  }
  return definedFunctions(*File->getBinary());
}

bool definesFunctionsInSymbolTable(const std::string &Object) {
  Expected<object::OwningBinary<object::ObjectFile>> File =
      object::ObjectFile::createObjectFile(Object);
  if (!File) {
    consumeError(File.takeError());
    return false;
  }
  return !definedFunctions(*File->getBinary()).empty();
}

Expected<bool> definesFunctions(const std::string &Object) {
  Expected<std::vector<ManifestExport>> Functions = functionsDefinedBy(Object);
  if (!Functions)
    return Functions.takeError();
  return !Functions->empty();
}

/// Whether Obj defines Symbol (a global definition) and carries no device code section.
static bool definesWithoutDeviceCode(const object::ObjectFile &Obj, StringRef Symbol) {
  for (const object::SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name == DeviceSectionName)
      return false;
  }
  LinkSymbols Symbols;  // its global definitions, as the link reads them
  Symbols.add(Obj);
  return Symbols.Defined.count(Symbol.str()) != 0;
}

std::string objectDefiningWithoutDeviceCode(ArrayRef<std::string> Inputs, StringRef Symbol) {
  for (const std::string &In : Inputs) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(In, false, false);
    if (!Buffer)
      continue;
    Expected<std::unique_ptr<object::Binary>> Bin = object::createBinary((*Buffer)->getMemBufferRef());
    if (!Bin) {
      consumeError(Bin.takeError());
      continue;
    }
    if (auto *Obj = dyn_cast<object::ObjectFile>(Bin->get())) {
      if (definesWithoutDeviceCode(*Obj, Symbol))
        return In;
    } else if (auto *Ar = dyn_cast<object::Archive>(Bin->get())) {
      Expected<std::vector<ArchiveMember>> Members =
          objectMembers(*Ar, (*Buffer)->getBuffer(), In, /*Strict=*/false);
      if (!Members) {
        consumeError(Members.takeError());
        continue;
      }
      for (const ArchiveMember &M : *Members)
        if (definesWithoutDeviceCode(M.object(), Symbol))
          return M.Origin;
    }
  }
  return "";
}

Error visitInLinkOrder(ArrayRef<std::string> Inputs, bool RescanArchives, const LinkSymbols &Link,
                       function_ref<Expected<bool>(const std::string &)> Visit) {
  size_t DefinedBefore = 0;
  for (int Pass = 0; Pass == 0 || (RescanArchives && Link.Defined.size() != DefinedBefore); ++Pass) {
    DefinedBefore = Link.Defined.size();
    for (bool Archives : {false, true})
      for (const std::string &In : Inputs) {
        if (isArchive(In) != Archives || (Pass > 0 && !Archives))
          continue;
        Expected<bool> Stop = Visit(In);
        if (!Stop)
          return Stop.takeError();
        if (*Stop)
          return Error::success();
      }
  }
  return Error::success();
}

bool needsOffloadRuntime(ArrayRef<std::string> Inputs, bool RescanArchives) {
  // The objects, then the archives' members the link takes (an unused member's kernel is not
  // the program's: a program of plain objects and a library with kernels links as g++ links);
  // the archives again while they give more, when the link groups them.
  LinkSymbols Link;
  bool Needs = false;
  consumeError(visitInLinkOrder(Inputs, RescanArchives, Link, [&](const std::string &In) -> Expected<bool> {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(In, false, false);
    if (!Buffer)
      return false;  // not ours to judge: the link says what is wrong with it
    Expected<std::unique_ptr<object::Binary>> Bin = object::createBinary((*Buffer)->getMemBufferRef());
    if (!Bin) {
      consumeError(Bin.takeError());
      return false;
    }
    if (auto *Obj = dyn_cast<object::ObjectFile>(Bin->get())) {
      if (objectNeedsRuntime(*Obj))
        return Needs = true;
      if (!(gccSlimLto(*Obj) && Link.addSlimLto(In)))
        Link.add(*Obj);
    } else if (auto *Ar = dyn_cast<object::Archive>(Bin->get())) {
      Expected<std::vector<ArchiveMember>> Members =
          objectMembers(*Ar, (*Buffer)->getBuffer(), In, /*Strict=*/false);
      if (!Members) {
        consumeError(Members.takeError());
        return false;
      }
      const std::vector<bool> Taken = membersTaken(Link, *Ar, *Members, In);
      for (size_t I = 0; I < Members->size(); ++I)
        if (Taken[I] && objectNeedsRuntime((*Members)[I].object()))
          return Needs = true;
    }
    return false;
  }));
  return Needs;
}

} // namespace offload::compiler
