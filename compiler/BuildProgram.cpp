// compiler/BuildProgram.cpp — `offload-cxx INPUTS -o PROGRAM`: sources, objects and static
// libraries into one program, through the same steps as `-c` and a link of objects (Build.h).
#include "Build.h"
#include "ObjectFiles.h"
#include "OffloadMentions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"


#include <iterator>
#include <optional>
#include <set>

using namespace llvm;

namespace offload::compiler {

/// The command that compiles Source, which never mentions offload, as the user wrote it: the
/// user's flags alone (no -std of ours), offload's include folder last, its dependencies in the
/// host dependency file (compileAsWrittenReachesOffload reads them).
static Expected<std::vector<std::string>> hostCompileCommandAsWritten(const std::string &Source,
                                                               const HostPassOptions &O,
                                                               const std::string &Object) {
  Expected<std::string> Compiler = findHostCompiler(O);
  if (!Compiler)
    return Compiler.takeError();
  std::vector<std::string> Compile = {*Compiler};
  Compile.insert(Compile.end(), O.CompileArgs.begin(), O.CompileArgs.end());
  // Its dependencies, always: they say whether a header of the project reached offload's.
  Compile.insert(Compile.end(), {O.DepFlag.empty() ? "-MD" : O.DepFlag, "-MF",
                                 hostDepFile(O.TempDir, Object), "-c", Source, "-o", Object,
                                 "-I" + O.OffloadIncludeDir});
  return Compile;
}

/// Runs Command (hostCompileCommandAsWritten's): true if the compile reached offload's headers
/// through a header of the project (then it is compiled as a file with kernels: nothing was
/// printed), false if its object is the object; g++'s errors printed and ReportedError if it
/// failed otherwise.
static Expected<bool> compileAsWrittenReachesOffload(ArrayRef<std::string> Command,
                                              const HostPassOptions &O, const std::string &Object,
                                              const CommandOptions &Options) {
  const std::string Deps = hostDepFile(O.TempDir, Object);
  std::string Errors;
  Error Failed = runCommandCapturingErrors(Command, Options, Deps + ".stderr", Errors);
  const std::string Headers = O.OffloadIncludeDir + "/offload/";
  if (Failed) {
    if (StringRef(Errors).contains(Headers)) {
      consumeError(std::move(Failed));
      return true;
    }
    errs() << Errors;  // g++'s own words say what failed
    consumeError(std::move(Failed));
    return make_error<ReportedError>();
  }
  errs() << Errors;  // its warnings
  ErrorOr<std::unique_ptr<MemoryBuffer>> DepText = MemoryBuffer::getFile(Deps);
  return DepText && StringRef((*DepText)->getBuffer()).contains(Headers);
}

Error buildProgram(const BuildSettings &S, ArrayRef<std::string> Inputs,
                   ArrayRef<std::string> Archives, ArrayRef<std::string> MetadataFlags,
                   const HostPassOptions &Host, const std::string &Output,
                   SourceDepFiles *DepFiles) {
  // One source alone: its temporaries are named after the program (--save-temps keeps
  // prog.sm_90.ptx); with several inputs, after each source and `<program>.linked`.
  const bool OneSource = Inputs.size() == 1 && isCxxSource(Inputs[0]);
  std::vector<std::string> HostObjects;
  std::vector<std::pair<std::string, std::string>> ObjectSources;  // for the link's messages
  std::vector<DeviceImageFile> Units;
  // The last source's host compile runs on through the device link; after a failure it is
  // waited for, so that its diagnostics come out.
  std::optional<RunningCommand> HostCompile;
  auto finishHostCompile = [&]() -> Error {
    if (!HostCompile)
      return Error::success();
    Error E = finishCommand(*HostCompile, S.Commands);
    HostCompile.reset();
    return E;
  };
  auto Fail = [&](Error E) -> Error {
    consumeError(finishHostCompile());
    return E;
  };
  // An archive's members are taken as the host link takes them (ObjectFiles.h's LinkSymbols):
  // read after every object, the compiled sources' included.
  std::vector<std::string> LinkArchives, Objects;
  const std::string SidePrefix = S.SideOutputPrefix.empty() ? Output + "-" : S.SideOutputPrefix;
  // Under -save-temps each source's object is kept as g++ keeps it: `<program>-<stem>.o`
  // (adversarial pass: they were prog.1.p.host.o), or with the user's -dumpdir D / -dumpbase X
  // `D<stem>.o`, `<folder>X-<stem>.o` (adversarial pass: out/prog-k.o where g++ keeps dd/k.o);
  // numbered as before when two share a stem.
  std::set<std::string> KeptObjects;
  std::optional<std::string> UserDumpDir, UserDumpBase;
  for (size_t I = 0; I < Host.CompileArgs.size(); ++I) {
    StringRef A = Host.CompileArgs[I];
    const bool HasNext = I + 1 < Host.CompileArgs.size();
    if (A == "-dumpdir" && HasNext)
      UserDumpDir = Host.CompileArgs[I + 1];
    else if (A == "-dumpbase" && HasNext)
      UserDumpBase = Host.CompileArgs[I + 1];
  }
  const std::string OutputDir =
      sys::path::has_parent_path(Output) ? (sys::path::parent_path(Output) + "/").str() : "";
  auto objectFor = [&](StringRef In, std::string Numbered) {
    for (StringRef A : Host.CompileArgs)
      if (A == "-save-temps" || A == "-save-temps=obj" || A == "-save-temps=cwd") {
        const bool Cwd = A == "-save-temps=cwd";
        std::string Prefix;
        if (UserDumpBase)
          Prefix = (UserDumpDir ? *UserDumpDir : Cwd ? "" : OutputDir) + *UserDumpBase + "-";
        else if (UserDumpDir)
          Prefix = *UserDumpDir;
        else
          Prefix = (Cwd ? sys::path::filename(SidePrefix) : StringRef(SidePrefix)).str();
        std::string Kept = Prefix + sys::path::stem(In).str() + ".o";
        if (KeptObjects.insert(Kept).second)
          return Kept;
        break;
      }
    return Numbered;
  };
  // A .c file with no -x is C++ to g++: its functions are recorded for other files' kernels as a
  // .cpp's (thirteenth adversarial pass: `k.cpp h.c -o p` for sm_90 said h.c "holds no code
  // offload-cxx can compile"; -c then a link worked).
  const bool ExplicitLanguage = llvm::any_of(Host.CompileArgs, [](StringRef A) {
    return A == "-x" || (A.starts_with("-x") && A.size() > 2);
  });
  for (const std::string &In : Inputs) {
    const bool CxxNamedC = !ExplicitLanguage && sys::path::extension(In) == ".c";
    if (isOtherHostSource(In) && !CxxNamedC) {  // C, assembly, preprocessed: g++'s object, as g++ makes it
      const std::string Object = objectFor(In, S.TempDir + "/" + S.Stem + "." +
                                 std::to_string(HostObjects.size()) + "." + tempStem(In) + ".o");
      // (no -std=c++20 of ours: cc1 warned of it for a C file, adversarial pass)
      Expected<std::vector<std::string>> Command = hostCompileCommandAsWritten(In, Host, Object);
      if (!Command)
        return Fail(Command.takeError());
      if (Error E = runCommand(*Command, S.Commands))
        return Fail(std::move(E));
      HostObjects.push_back(Object);
      ObjectSources.push_back({Object, In});
      continue;
    }
    if (!isCxxSource(In) && !CxxNamedC) {
      HostObjects.push_back(In);
      (isArchive(In) ? LinkArchives : Objects).push_back(In);
      continue;
    }
    if (Error E = finishHostCompile())
      return E;
    // Numbered: a/x.cpp and b/x.cpp share a stem.
    const std::string UnitStem =
        OneSource ? S.Stem : S.Stem + "." + std::to_string(HostObjects.size()) + "." + tempStem(In);
    const std::string HostObject = objectFor(
        In, S.TempDir + "/" + UnitStem + "." + (OneSource ? tempStem(In) + "." : "") + "host.o");
    // A source that never mentions offload, beside sources that do: compiled as written, as
    // g++ would compile it (its -std or g++'s default; adversarial pass: it was C++20 with our
    // flags), unless that compile reaches offload's headers through a header of the project.
    // Side outputs of a one-step build, g++'s way (nameSideOutputs): this source's stem, the
    // program's folder.
    const SeveralSources Several{sys::path::stem(In).str(), OutputDir};
    std::optional<BuildSettings> AsWritten;
    std::vector<std::string> PlainFlags;
    if (!mentionsOffload(In)) {
      Expected<std::vector<std::string>> Plain = hostCompileCommandAsWritten(In, Host, HostObject);
      if (!Plain)
        return Fail(Plain.takeError());
      nameSideOutputs(*Plain, Host, SidePrefix, sys::path::filename(In), sys::path::extension(In), Several);
      Expected<bool> Reached = compileAsWrittenReachesOffload(*Plain, Host, HostObject, S.Commands);
      if (!Reached)
        return Fail(Reached.takeError());
      if (!*Reached) {
        AsWritten = S;
        AsWritten->AsWritten = true;
        PlainFlags.assign(MetadataFlags.begin(), MetadataFlags.end());
        if (llvm::none_of(Host.CompileArgs, [](StringRef F) { return F.starts_with("-std=") || F == "-ansi"; }))
          llvm::erase_if(PlainFlags, [](StringRef F) { return F.starts_with("-std="); }),
              PlainFlags.push_back("-std=gnu++17");
      }
    }
    Expected<std::vector<std::string>> Command = hostCompileCommand(In, Host, HostObject);
    if (!Command)
      return Command.takeError();
    // What g++ writes beside a program it compiles and links in one step (-gsplit-dwarf's
    // .dwo ...) is named `<program>-<source stem>.<ext>` beside the program (`a-` without -o).
    nameSideOutputs(*Command, Host, SidePrefix, sys::path::filename(In), sys::path::extension(In), Several);
    // The device code stays in memory: no object to put it into and read back.
    Expected<CompiledUnit> Unit =
        AsWritten ? compileUnit(*AsWritten, In, PlainFlags, *Command, HostObject, UnitStem)
                  : compileUnit(S, In, MetadataFlags, *Command, HostObject, UnitStem);
    if (!Unit)
      return Unit.takeError();
    // Compiled as written: its exports are what its object defines (as the link reads them
    // from an object compiled with -c).
    if (Unit->DeviceCode.Kernels.ExportsDeferred) {
      Expected<std::vector<ManifestExport>> Defined = functionsDefinedBy(HostObject);
      if (!Defined)
        return Fail(Defined.takeError());
      Unit->DeviceCode.Kernels.Exports = std::move(*Defined);
    }
    HostCompile = std::move(Unit->HostCompile);
    if (DepFiles)
      DepFiles->push_back({In, Unit->DepFiles});
    HostObjects.push_back(Unit->HostObject);
    ObjectSources.push_back({Unit->HostObject, In});
    Units.push_back(std::move(Unit->DeviceCode));
  }
  LinkArchives.insert(LinkArchives.end(), Archives.begin(), Archives.end());
  if (!LinkArchives.empty()) {
    if (Error E = finishHostCompile())  // its object's symbols choose members
      return E;
    for (const auto &[HostObject, Source] : ObjectSources)
      Objects.push_back(HostObject);
  }
  Objects.insert(Objects.end(), LinkArchives.begin(), LinkArchives.end());
  Expected<std::vector<DeviceImageFile>> Found =
      readDeviceCodeOf(Objects, S.Commands, takesWholeArchives(Host.LinkArgs), groupsArchives(Host.LinkArgs));
  if (!Found)
    return Fail(Found.takeError());
  std::move(Found->begin(), Found->end(), std::back_inserter(Units));
  // A shared library cannot hold kernels yet (they need a registration of their own, made only
  // for a program): one line naming a kernel, before the link (it linked, exit 0, and the
  // program's link then said the kernel was defined nowhere: adversarial pass).
  if (llvm::any_of(Host.LinkArgs, [](StringRef A) { return A == "-shared" || A == "-Wl,-shared" || A == "-Wl,--shared"; }))
    for (const DeviceImageFile &Unit : Units)
      if (!Unit.Kernels.Kernels.empty()) {
        const ManifestKernel &K = Unit.Kernels.Kernels.front();
        return Fail(createStringError(
            inconvertibleErrorCode(),
            "-shared: kernel '%s' (%s) would be in a shared library, and kernels in shared "
            "libraries are not supported yet: link its object into the program, or into a "
            "static library",
            K.Name.c_str(), K.DeclaredAt.empty() ? Unit.Kernels.Source.c_str() : K.DeclaredAt.c_str()));
      }
  // The link's objects as the user knows them: an object compiled here by its source.
  std::vector<std::pair<std::string, std::string>> LinkInputs(ObjectSources.begin(), ObjectSources.end());
  for (const std::string &O : Objects)
    if (llvm::none_of(ObjectSources, [&](const auto &P) { return P.first == O; }))
      LinkInputs.push_back({O, O});
  Expected<DeviceImageFile> Program =
      linkDeviceCode(S, std::move(Units), OneSource ? S.Stem : S.Stem + ".linked", LinkInputs);
  if (!Program)
    return Fail(Program.takeError());
  if (Error E = finishHostCompile())
    return E;
  Timer T{"host link", S.Commands};
  HostPassOptions Link = Host;
  Link.ObjectSources = std::move(ObjectSources);
  return linkProgram(HostObjects, *Program, Link, Output);
}

} // namespace offload::compiler
