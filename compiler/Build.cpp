// compiler/Build.cpp — see Build.h.
#include "Build.h"

#include "CpuImage.h"
#include "CrossFileCallees.h"
#include "DepFile.h"

#include "HostMetadataPass.h"
#include "HostPass.h"
#include "ObjectFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>

using namespace llvm;

namespace offload::compiler {

char ReportedError::ID = 0;

double Timer::now() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

Expected<Toolchain> findToolchain(const Layout &L) {
  Toolchain T;
  T.OffloadIncludeDir = L.IncludeDir;
  Expected<std::string> Clang = findTool("clang++-22", {L.LLVMBinDir + "/clang++"});
  if (!Clang)
    return Clang.takeError();
  T.Clang = *Clang;
  Expected<std::string> Lld = findTool("ld.lld-22", {L.LLVMBinDir + "/ld.lld"});
  if (!Lld)
    return Lld.takeError();
  T.Lld = *Lld;
  if (const char *Chosen = std::getenv("OFFLOAD_CXX_PTXAS")) {
    // An explicit choice: that ptxas, or none when it is not an executable.
    if (sys::fs::can_execute(Chosen))
      T.Ptxas = Chosen;
  } else {
    std::vector<std::string> PtxasCandidates;
    if (const char *Cuda = std::getenv("CUDA_PATH"))
      PtxasCandidates.push_back(std::string(Cuda) + "/bin/ptxas");
    PtxasCandidates.push_back("/usr/local/cuda/bin/ptxas");
    if (Expected<std::string> P = findTool("ptxas", PtxasCandidates))
      T.Ptxas = *P;
    else
      consumeError(P.takeError());
  }
  if (!T.Ptxas.empty()) {
    SmallString<256> Cuda(sys::path::parent_path(sys::path::parent_path(T.Ptxas)));
    sys::path::append(Cuda, "nvvm", "libdevice", "libdevice.10.bc");
    T.Libdevice = std::string(Cuda);
  }
  return T;
}

std::vector<std::string> nativeArchs() {
  std::vector<std::string> Archs;
  if (ErrorOr<std::string> Smi = sys::findProgramByName("nvidia-smi")) {
    SmallString<128> Out;
    sys::fs::createTemporaryFile("offload-cxx-smi", "txt", Out);
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Out), StringRef("")};
    StringRef Args[] = {*Smi, "--query-gpu=compute_cap", "--format=csv,noheader"};
    if (sys::ExecuteAndWait(*Smi, Args, std::nullopt, Redirects) == 0)
      if (auto Buf = MemoryBuffer::getFile(Out)) {
        SmallVector<StringRef> Lines;
        (*Buf)->getBuffer().split(Lines, '\n', -1, false);
        for (StringRef Line : Lines) {
          auto [Major, Minor] = Line.trim().split('.');
          std::string Arch = ("sm_" + Major + Minor).str();
          if (!Major.empty() && llvm::find(Archs, Arch) == Archs.end())
            Archs.push_back(Arch);
        }
      }
    sys::fs::remove(Out);
  }
  std::error_code EC;
  for (sys::fs::directory_iterator It("/sys/class/kfd/kfd/topology/nodes", EC), End;
       !EC && It != End; It.increment(EC)) {
    auto Buf = MemoryBuffer::getFile(It->path() + "/properties", /*IsText=*/true);
    if (!Buf)
      continue;
    SmallVector<StringRef> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (StringRef Line : Lines) {
      unsigned V = 0;
      if (Line.consume_front("gfx_target_version ") && !Line.trim().getAsInteger(10, V) && V) {
        std::string Arch = "gfx" + std::to_string(V / 10000) + std::to_string(V / 100 % 100) +
                           utohexstr(V % 100, /*LowerCase=*/true);
        if (llvm::find(Archs, Arch) == Archs.end())
          Archs.push_back(Arch);
      }
    }
  }
  return Archs;
}

Expected<std::vector<OffloadArch>> chooseArchs(ArrayRef<std::string> RequestedArchs,
                                               const Toolchain &Tools) {
  std::vector<std::string> Requested(RequestedArchs.begin(), RequestedArchs.end());
  if (Requested.empty())
    Requested = {"native", "host"};
  std::vector<OffloadArch> Archs;
  for (const std::string &Name : Requested) {
    const bool FromNative = Name == "native";  // a request, not an architecture
    std::vector<std::string> Expanded = FromNative ? nativeArchs() : std::vector{Name};
    for (const std::string &E : Expanded) {
      Expected<OffloadArch> Arch = OffloadArch::parse(E);
      if (!Arch)
        return Arch.takeError();
      if (FromNative && Arch->isNvidia() && Tools.Ptxas.empty()) {
        WithColor::warning(errs(), "offload-cxx")
            << "skipping the NVIDIA GPU (" << E
            << ") found on this machine: no CUDA toolkit (ptxas) is installed; the program will "
               "run on the CPU device\n";
        continue;
      }
      if (llvm::find(Archs, *Arch) == Archs.end())
        Archs.push_back(*Arch);
    }
  }
  if (llvm::find(Archs, OffloadArch::host()) == Archs.end())
    Archs.push_back(OffloadArch::host());  // the CPU device runs every program: it needs no image
  return Archs;
}

DevicePassOptions deviceOptions(const BuildSettings &S, const std::string &TempStem) {
  DevicePassOptions O;
  O.Archs = S.Archs;
  if (!S.OptLevel.empty() && S.OptLevel != "-O0")
    O.OptLevel = S.OptLevel;
  O.UserUnoptimised = S.OptLevel.empty() || S.OptLevel == "-O0";
  O.TempDir = S.TempDir;
  O.TempStem = TempStem;
  O.Commands = S.Commands;
  O.CpuArgs = S.CpuArgs;
  O.DeviceArgs = S.DeviceArgs;
  // -Ofast is g++'s -O3 -ffast-math; clang says so in a warning per device compile.
  if (O.OptLevel == "-Ofast") {
    O.OptLevel = "-O3";
    O.DeviceArgs.insert(O.DeviceArgs.begin(), "-ffast-math");
  }
  O.DepFlag = S.DepFlag;
  const bool AnyGpu = llvm::any_of(O.Archs, [](const OffloadArch &A) { return A.isGpu(); });
  O.CpuImage = S.CpuImage == CpuImageMode::On || (S.CpuImage == CpuImageMode::Auto && !AnyGpu);
  O.CpuImageForBarriers = S.CpuImage == CpuImageMode::Auto;
  return O;
}

/// The manifest of a file compiled as written: no kernel and, if its host object defines a
/// function, exports deferred: the link reads them from the object and parses the file only if
/// a kernel calls one of them that no device code defines.
Expected<Manifest> deferredExports(const std::string &Source, ArrayRef<std::string> Flags,
                                   const std::string &HostObject, const BuildSettings &S) {
  Manifest M;
  if (S.Commands.DryRun)
    return M;
  Expected<std::vector<ManifestExport>> Functions = functionsDefinedBy(HostObject);
  if (!Functions)
    return Functions.takeError();
  if (Functions->empty())
    return M;  // nothing for another file's kernel: the host compiler's object alone
  // A slim -flto object's functions are known only through nm (functionsDefinedBy): kept in the
  // manifest, since the link reads an object's own symbol table, which holds none of them.
  if (!definesFunctionsInSymbolTable(HostObject))
    M.Exports = std::move(*Functions);
  SmallString<256> Path(Source);
  sys::fs::make_absolute(Path);
  M.Source = std::string(Path);
  M.CompileArgs.assign(Flags.begin(), Flags.end());
  if (!isCxxSource(Source))  // `-x c++ util.inc`: clang reads it as C++ too
    M.CompileArgs.insert(M.CompileArgs.end(), {"-x", "c++"});
  M.ExportsDeferred = true;
  if (Expected<std::string> Hash = sourceHash(M.Source))
    M.SourceHash = *Hash;
  else
    return Hash.takeError();
  // The project's headers it read (g++'s dependency file of this compile), not the system's
  // nor offload's: the link checks them as it checks the source.
  if (auto Deps = MemoryBuffer::getFile(hostDepFile(S.TempDir, HostObject))) {
    for (const std::string &D : readDepFileText((*Deps)->getBuffer()))
      recordProjectHeader(M, D, S.L.IncludeDir);
  }
  return M;
}

Error resolveDeferredExports(const BuildSettings &S, Manifest &M) {
  if (!M.ExportsDeferred)
    return Error::success();
  // A source gone or changed since: its symbols stay, and the link names the function it needs
  // from it and why it cannot have it (addCalleesFromOtherFiles).
  if (!changedSinceCompiled(M).empty()) {  // (a file gone counts as changed)
    M.ExportsDeferred = false;
    return Error::success();
  }
  BuildSettings AsWritten = S;
  AsWritten.AsWritten = true;
  std::string Diagnostics;  // a file g++ compiled that clang cannot parse simply offers nothing
  Expected<Manifest> Parsed = runHostMetadata(AsWritten, M.Source, M.CompileArgs, &Diagnostics);
  M.ExportsDeferred = false;
  M.Exports.clear();
  if (!Parsed) {
    // The link then says the called function has no device definition; this says why.
    consumeError(Parsed.takeError());
    SmallVector<StringRef> Lines;
    StringRef(Diagnostics).split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    WithColor::note(errs(), "offload-cxx")
        << "kernels call functions that '" << M.Source
        << "' defines (it does not use offload, g++ compiled it as written), but clang cannot "
           "compile that file for the device"
        << (Lines.empty() ? std::string(".") : ": " + Lines.front().str()) << "\n";
    return Error::success();
  }
  for (ManifestExport &E : Parsed->Exports) {
    E.UsesBarriers = false;  // it never names offload
    M.Exports.push_back(std::move(E));
  }
  return Error::success();
}

Expected<Manifest> runHostMetadata(const BuildSettings &S, const std::string &Source,
                                   ArrayRef<std::string> MetadataFlags, std::string *Diagnostics,
                                   const std::string &DepFile, const std::string &RewriteTo,
                                   bool *Rewritten) {
  Timer T{"host-metadata pass", S.Commands};
  HostMetadataOptions O{Source,
                        std::vector<std::string>(MetadataFlags.begin(), MetadataFlags.end()),
                        S.L.IncludeDir, OFFLOAD_CXX_CLANG_RESOURCE_DIR, S.GccHostCompiler,
                        Diagnostics, {}, "", {}, "", nullptr, ""};
  if (!DepFile.empty() && !S.Commands.DryRun)  // -### writes nothing (adversarial pass)
    O.DepArgs = {S.DepFlag, "-MF", DepFile};
  // No precompiled offload.hpp for a file compiled as written: it never includes it, and under
  // its own -std (gnu++11) the header failed to precompile again for every file (~200 ms each;
  // real_projects, bench/RESULTS.md 2026-12-05).
  if (Expected<Toolchain> Tools = findToolchain(S.L)) {
    O.ClangDriver = Tools->Clang;
    if (!S.AsWritten)
      O.PchClang = Tools->Clang;
  } else {
    consumeError(Tools.takeError());
  }
  O.Commands = S.Commands;
  O.RewriteLambdasTo = RewriteTo;
  O.Rewritten = Rewritten;
  Expected<Manifest> M = runHostMetadataPass(O);
  if (!M) {
    consumeError(M.takeError());  // clang printed the diagnostics
    return make_error<ReportedError>();
  }
  return M;
}

void reportOnce(RunningCommand &HostCompile, const CommandOptions &Commands,
                const std::string &ClangDiagnostics) {
  if (Error HostFailed = finishCommand(HostCompile, Commands))
    consumeError(std::move(HostFailed));  // it printed its errors: clang's would repeat them
  else
    errs() << ClangDiagnostics;
}

Expected<DeviceImageFile> compileDeviceCode(const Manifest &M, const Toolchain &Tools,
                                            const DevicePassOptions &O) {
  DeviceImageFile File;
  File.Kernels = M;
  // With GPU architectures, --cpu-image=auto builds the CPU image only for a file whose
  // kernels reach a barrier: there the CPU device's fallback without it is fibers, ~10-100x
  // slower than the work-item loops (bench/RESULTS.md, "CPU device").
  const bool CpuImage =
      O.CpuImage || (O.CpuImageForBarriers &&
                     llvm::any_of(M.Kernels, [](const ManifestKernel &K) { return K.UsesBarriers; }));
  // A file without kernels whose functions reach a barrier (for other files' kernels) has a
  // CPU image too: the bodies of those functions, for the link to split those kernels at.
  const bool BarrierExports =
      llvm::any_of(M.Exports, [](const ManifestExport &E) { return E.UsesBarriers; });
  for (const OffloadArch &Arch : O.Archs) {
    if (Arch.isHost() ? !(CpuImage || (BarrierExports && O.CpuImageForBarriers)) ||
                            (M.Kernels.empty() && !BarrierExports)
                      : M.Kernels.empty())
      continue;
    Timer T{"device bitcode for " + Arch.name(), O.Commands};
    Expected<std::string> Bitcode = Arch.isHost() ? compileCpuBitcode(M, Tools, O)
                                                  : compileDeviceBitcode(M, Arch, Tools, O);
    if (!Bitcode)
      return Bitcode.takeError();
    DeviceImage Image;
    Image.Arch = Arch;
    Image.Kind = object::IMG_Bitcode;
    if (!O.Commands.DryRun) {
      auto Buffer = MemoryBuffer::getFile(*Bitcode);
      if (!Buffer)
        return createFileError(*Bitcode, Buffer.getError());
      Image.Bytes = (*Buffer)->getBuffer().str();
    }
    File.Images.push_back(std::move(Image));
  }
  return File;
}

/// Whether Source's text names parallel_for or parallel_reduce: only such a file may pass lambdas
/// as kernels, and
/// only its compile waits for the rewrite (LambdaSites.h) before the host compile starts.
static bool mayHaveLambdaKernels(const std::string &Source) {
  auto Text = MemoryBuffer::getFile(Source, /*IsText=*/true);
  return Text && ((*Text)->getBuffer().contains("parallel_for") ||
                  (*Text)->getBuffer().contains("parallel_reduce"));
}

/// The dependency files the host compiler writes for Args by itself, not through the -M
/// options offload-cxx merges (DepFile.h): `-Wp,-MD,f` and `-Wp,-MMD,f`, and with no -M option
/// DEPENDENCIES_OUTPUT's or SUNPRO_DEPENDENCIES' (its first word); with OwnMF, the command's
/// -MF file too (no merge of offload-cxx's: compile-launcher).
static std::vector<std::string> depFilesGxxWrites(ArrayRef<std::string> Args, bool OwnMF) {
  std::vector<std::string> Files;
  bool MOption = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A.starts_with("-M"))
      MOption = true;
    // The command's own -MF (compile-launcher: CMake's `-MD -MT x.o -MF x.o.d`).
    if (OwnMF && A == "-MF" && I + 1 < Args.size())
      Files.push_back(Args[I + 1]);
    else if (OwnMF && A.starts_with("-MF") && A.size() > 3)
      Files.push_back(A.drop_front(3).str());
    if (!A.starts_with("-Wp,"))
      continue;
    SmallVector<StringRef> Pieces;
    A.drop_front(4).split(Pieces, ',');
    for (size_t J = 0; J + 1 < Pieces.size(); ++J)
      if (Pieces[J] == "-MD" || Pieces[J] == "-MMD")
        Files.push_back(Pieces[J + 1].str());
    MOption = MOption || llvm::any_of(Pieces, [](StringRef P) { return P.starts_with("-M"); });
  }
  if (!MOption)
    for (const char *Var : {"DEPENDENCIES_OUTPUT", "SUNPRO_DEPENDENCIES"})
      if (const char *V = std::getenv(Var); V && *V) {
        Files.push_back(StringRef(V).trim().split(' ').first.str());
        break;
      }
  return Files;
}

Expected<CompiledUnit> compileUnit(const BuildSettings &S, const std::string &Source,
                                   ArrayRef<std::string> MetadataFlags,
                                   ArrayRef<std::string> HostCompile,
                                   const std::string &HostObject, const std::string &TempStem) {
  // A file that passes lambdas to offload::parallel_for is compiled, for the host and the
  // devices, as rewritten by the host-metadata pass (LambdaSites.h): same lines, its own name
  // (#line), its directory searched for its quoted includes.
  std::string Compiled = Source;
  // The dependency files g++ writes by itself for this command (-Wp,-MD, DEPENDENCIES_OUTPUT,
  // SUNPRO_DEPENDENCIES; a compile launcher's own -MF): the headers of the device compiles are
  // added to them once it ends, as to the -MD file offload-cxx writes (adversarial pass: a
  // header only a GPU compile reads changed nothing, and make kept a stale GPU image).
  const std::vector<std::string> GxxWrites =
      S.AsWritten ? std::vector<std::string>{} : depFilesGxxWrites(HostCompile, S.DepFlag.empty());
  BuildSettings WithDeps = S;
  if (WithDeps.DepFlag.empty() && !GxxWrites.empty())
    WithDeps.DepFlag = llvm::any_of(HostCompile, [](StringRef A) { return A.contains("-MMD"); })
                           ? "-MMD" : "-MD";
  const BuildSettings &SD = WithDeps;  // S, with the device compiles' own dependency files
  std::vector<std::string> HostArgs(HostCompile.begin(), HostCompile.end());
  std::vector<std::string> Flags(MetadataFlags.begin(), MetadataFlags.end());
  std::string LambdaDeps;
  // The first parse of a file that names parallel_for makes its manifest too when it passes no
  // lambda (nothing to rewrite): kept, not parsed again (CI's time, docs/design.md: a second
  // parse was ~0.5 s of each such compile).
  std::optional<Manifest> Parsed;
  if (!S.AsWritten && mayHaveLambdaKernels(Source)) {
    const std::string Rewrite = S.TempDir + "/" + TempStem + ".lambdas" +
                                sys::path::extension(Source).str();
    if (!SD.DepFlag.empty())
      LambdaDeps = S.TempDir + "/" + TempStem + ".lambdas.d";
    bool Rewritten = false;
    std::string Diagnostics;
    Expected<Manifest> First =
        runHostMetadata(SD, Source, MetadataFlags, &Diagnostics, LambdaDeps, Rewrite, &Rewritten);
    if (!First) {
      // A parse error: the host compiler's words, as for any file (reportOnce); offload-cxx's
      // own errors were printed (the kept diagnostics are then empty).
      if (!Diagnostics.empty()) {
        if (Expected<RunningCommand> Host = startCommand(HostCompile, S.Commands))
          reportOnce(*Host, S.Commands, Diagnostics);
        else
          consumeError(Host.takeError());
      }
      return First.takeError();
    }
    if (Rewritten) {
      // The file's quoted includes are found beside it, not beside the rewrite: its folder is
      // the first -iquote of every compile of the rewrite (host, metadata, devices, CPU image).
      Compiled = Rewrite;
      SmallString<256> Folder(sys::path::parent_path(Source));
      if (Folder.empty())
        Folder = ".";
      sys::fs::make_absolute(Folder);
      for (size_t I = 0; I < HostArgs.size(); ++I)  // the input, not -dumpbase's k.cpp
        if (HostArgs[I] == Source && (I == 0 || HostArgs[I - 1] != "-dumpbase"))
          HostArgs[I] = Rewrite;
      const size_t AfterCompiler = compilerWord(HostArgs) + 1;  // after `ccache g++`, not `ccache`
      HostArgs.insert(HostArgs.begin() + AfterCompiler, {"-iquote", std::string(Folder)});
      // Its debug information names the user's file as g++ would name it — as the command
      // spells it, through the user's own prefix maps — not the rewrite (DW_AT_name, the line
      // table); last, so that it wins over a map of the user's that covers the temporary folder
      // (thirteenth adversarial pass: `-ffile-prefix-map=/tmp=/X` made it
      // /X/offload-cxx-XXXXXX/k.lambdas.cpp).
      if (const std::string Named = debugNameOf(Source, HostArgs); !StringRef(Named).contains('='))
        HostArgs.push_back("-fdebug-prefix-map=" + Rewrite + "=" + Named);
      // __BASE_FILE__ (and __FILE__ in an `#include __BASE_FILE__`) names the user's file as the
      // command spells it, not the rewrite; last, so that no map of the user's takes it first.
      if (!StringRef(Source).contains('='))
        HostArgs.push_back("-fmacro-prefix-map=" + Rewrite + "=" + Source);
      Flags.insert(Flags.begin(), {"-iquote", std::string(Folder)});
    } else {
      Parsed = std::move(*First);
    }
  }
  Expected<RunningCommand> Running =
      S.AsWritten ? Expected<RunningCommand>(RunningCommand{}) : startCommand(HostArgs, S.Commands);
  if (!Running)
    return Running.takeError();
  // The host compile runs while the host-metadata pass and the device compiles do; after a
  // failure here it is waited for, so that its diagnostics come out whatever happens.
  auto Fail = [&](Error E) -> Error {
    consumeError(finishCommand(*Running, S.Commands));
    return E;
  };
  std::string ClangDiagnostics;
  std::vector<std::string> DepFiles;
  if (!SD.DepFlag.empty()) {  // each compile's own (DepFile.h merges them)
    if (!LambdaDeps.empty() && !Parsed)  // the source as written, first (the rewrite is a temporary)
      DepFiles.push_back(LambdaDeps);
    DepFiles.push_back(hostDepFile(S.TempDir, HostObject));
    if (!S.AsWritten) {  // (a file compiled as written has no compile of ours)
      // (the first parse's, when it made the manifest)
      DepFiles.push_back(Parsed ? LambdaDeps : S.TempDir + "/" + TempStem + ".metadata.d");
      for (const OffloadArch &Arch : S.Archs)
        DepFiles.push_back(S.TempDir + "/" + TempStem + "." + Arch.name() + ".bc.d");
    }
  }
  // g++'s own dependency files, put right once it ends: a lambda file's target and source (its
  // rewrite's, else), and the headers the device compiles read.
  if (Compiled != Source || !GxxWrites.empty())
    Running->AfterSuccess = [Files = depFilesGxxWrites(HostArgs, S.DepFlag.empty()), Source, Compiled,
                             TempDir = S.TempDir, Ours = DepFiles]() -> Error {
      for (const std::string &F : Files)
        if (Error E = retargetRewriteDepFile(F, Source, Compiled, TempDir, Ours))
          return E;
      return Error::success();
    };
  // A file compiled as written has no kernel (it never names offload): no parse now, its
  // object's functions recorded for the link (Manifest::ExportsDeferred).
  Expected<Manifest> M =
      S.AsWritten ? deferredExports(Source, MetadataFlags, HostObject, S)
      : Parsed    ? Expected<Manifest>(std::move(*Parsed))
                  : runHostMetadata(SD, Compiled, Flags, &ClangDiagnostics,
                                    DepFiles.empty() ? "" : DepFiles[LambdaDeps.empty() ? 1 : 2],
                                    "", nullptr);
  if (!M) {
    reportOnce(*Running, S.Commands, ClangDiagnostics);
    return M.takeError();
  }
  Expected<Toolchain> Tools = findToolchain(S.L);
  if (!Tools)
    return Fail(Tools.takeError());
  DevicePassOptions DeviceOptions = deviceOptions(SD, TempStem);
  DeviceOptions.SourceAsSpelled = Source;  // __FILE__ as g++'s
  Expected<DeviceImageFile> DeviceCode = compileDeviceCode(*M, *Tools, DeviceOptions);
  if (!DeviceCode && S.AsWritten) {  // as written it compiled: it simply offers nothing
    consumeError(DeviceCode.takeError());
    DeviceCode = compileDeviceCode(Manifest{}, *Tools, DeviceOptions);
  }
  if (!DeviceCode)
    return Fail(DeviceCode.takeError());
  if (Compiled != Source) {  // what the object says of its source is the user's file
    SmallString<256> Absolute(Source);
    sys::fs::make_absolute(Absolute);
    DeviceCode->Kernels.Source = std::string(Absolute);
    if (Expected<std::string> Hash = sourceHash(DeviceCode->Kernels.Source))
      DeviceCode->Kernels.SourceHash = *Hash;
    else
      consumeError(Hash.takeError());
  }
  return CompiledUnit{std::move(*Running), HostObject, std::move(*DeviceCode),
                      std::move(DepFiles)};
}

Error compileToObject(const BuildSettings &S, const std::string &Source,
                      ArrayRef<std::string> MetadataFlags, ArrayRef<std::string> HostCompile,
                      const std::string &HostObject, const std::string &Object,
                      bool SkipWithoutKernels, std::vector<std::string> *DepFiles) {
  const std::string ObjectStem = S.Stem + "." + tempStem(Source);
  // An output that exists and is not a plain file (-o /dev/null, a FIFO) is written into, as
  // g++ does, never replaced: the object is made beside the temporaries, then copied there.
  if (sys::fs::file_status St; Object != HostObject && !sys::fs::status(Object, St) &&
                               sys::fs::exists(St) && !sys::fs::is_regular_file(St) &&
                               !sys::fs::is_directory(St)) {
    const std::string Made = S.TempDir + "/" + ObjectStem + ".made.o";
    if (Error E = compileToObject(S, Source, MetadataFlags, HostCompile, HostObject, Made,
                                  SkipWithoutKernels, DepFiles))
      return E;
    if (S.Commands.DryRun)
      return Error::success();
    if (std::error_code EC = sys::fs::copy_file(Made, Object))
      return createFileError(Object, EC);
    return Error::success();
  }
  // An output that is a symbolic link, as g++'s assembler (BFD) takes it: a link to a file that
  // is not empty is replaced by the object, the file left as it was (it was overwritten with the
  // object: adversarial pass); a dangling link, or one to an empty file, is written through (the
  // link was replaced: adversarial passes — `-o /dev/stdout > f.o`, as root, replaced the
  // system's /dev/stdout with a file and left f.o empty). A file compiled as written has had g++
  // write the object already: a link still there was written through.
  std::string Written = throughSymlink(Object);
  if (sys::fs::file_status Target; Written != Object && !S.AsWritten &&
                                   !sys::fs::status(Written, Target) && sys::fs::exists(Target) &&
                                   Target.getSize() != 0)
    Written = Object;
  // A folder the object cannot be written into: said first, in one line (it came after every
  // compile, as llvm-objcopy's error and "'llvm-objcopy' failed": adversarial pass).
  if (!S.Commands.DryRun) {
    StringRef Folder = sys::path::parent_path(Written);
    if (std::error_code EC = sys::fs::access(Folder.empty() ? "." : Folder, sys::fs::AccessMode::Write))
      return createStringError(EC, "cannot write '%s': %s", Object.c_str(), EC.message().c_str());
  }
  // The source is read by several compiles (the parse, the host's, each device's): one saved
  // meanwhile (an editor, a checkout, a generator under make -j) made an object whose host and
  // device code came from two versions, without a word (adversarial pass). Refused instead.
  Expected<std::string> HashBefore = sourceHash(Source);
  if (!HashBefore)
    consumeError(HashBefore.takeError());
  Expected<CompiledUnit> Unit =
      compileUnit(S, Source, MetadataFlags, HostCompile, HostObject, ObjectStem);
  if (!Unit)
    return Unit.takeError();
  if (Error E = finishCommand(Unit->HostCompile, S.Commands))
    return E;
  if (HashBefore && !S.Commands.DryRun) {
    Expected<std::string> HashAfter = sourceHash(Source);
    if (!HashAfter)
      consumeError(HashAfter.takeError());
    else if (*HashAfter != *HashBefore)
      return createStringError(inconvertibleErrorCode(),
                               "'%s' changed while it was compiled (its host and device code would "
                               "come from two versions of it): compile it again",
                               Source.c_str());
  }
  if (DepFiles)
    DepFiles->insert(DepFiles->end(), Unit->DepFiles.begin(), Unit->DepFiles.end());
  const Manifest &M = Unit->DeviceCode.Kernels;
  if (SkipWithoutKernels && M.Kernels.empty() && M.Exports.empty() && !M.ExportsDeferred) {
    if (HostObject == Object || S.Commands.DryRun)
      return Error::success();
    // The host compiler's object is the object (across file systems: a copy).
    if (!sys::fs::rename(HostObject, Written))
      return Error::success();
    if (std::error_code EC = sys::fs::copy_file(HostObject, Written))
      return createFileError(Object, EC);
    return Error::success();
  }
  // GNU objcopy (binutils, beside g++'s assembler) when there is one: llvm-objcopy 22 drops the
  // COMDAT flag of GCC's constructor and destructor groups (`_ZN...C5Ev`), so a program linked
  // from such objects kept every object's copy of them (twelfth adversarial pass: 16% more
  // text for two files using std::vector at -O0).
  Expected<std::string> Objcopy = findTool("objcopy", {"/usr/bin/objcopy"});
  if (!Objcopy) {
    consumeError(Objcopy.takeError());
    Objcopy = findTool("llvm-objcopy-22", {S.L.LLVMBinDir + "/llvm-objcopy"});
  }
  if (!Objcopy)
    return Objcopy.takeError();
  Error Embedded = embedDeviceCode(*Objcopy, HostObject, Unit->DeviceCode,
                                   S.TempDir + "/" + ObjectStem + ".offload", Written, S.Commands);
  // A failed write (a full disk) leaves no part of an object, whatever was there before (an
  // empty file stayed truncated mid-object, newer than its source: make took it as up to date;
  // sixth adversarial pass).
  if (Embedded && !S.Commands.DryRun)
    sys::fs::remove(Written);
  return Embedded;
}

Error checkKernelsDefined(const Manifest &Program) {
  for (const ManifestKernel &K : Program.Kernels)
    if (!K.Defined)  // else the host link's raw lines, about temporary objects
      return createStringError(inconvertibleErrorCode(),
                               "kernel '%s' is launched but defined in no file of the program "
                               "(declared at %s): define it, or add the file that defines it",
                               K.Name.c_str(), K.DeclaredAt.c_str());
  return Error::success();
}

Expected<std::vector<DeviceImageFile>> readDeviceCodeOf(ArrayRef<std::string> Inputs,
                                                        const CommandOptions &Commands,
                                                        bool WholeArchive, bool RescanArchives) {
  std::vector<DeviceImageFile> Files;
  LinkSymbols Link;
  // Grouped archives (-Wl,--start-group) are read again while a pass takes more members, as ld
  // reads them (adversarial pass: a member taken on ld's second pass had no device code).
  if (Error E = visitInLinkOrder(Inputs, RescanArchives, Link, [&](const std::string &In) -> Expected<bool> {
        if (Commands.DryRun && !sys::fs::exists(In))
          return false;
        Expected<std::vector<DeviceImageFile>> Found = readDeviceCode(In, WholeArchive ? nullptr : &Link);
        if (!Found)
          return Found.takeError();
        for (DeviceImageFile &F : *Found)
          Files.push_back(std::move(F));
        return false;
      }))
    return E;
  return Files;
}

bool takesWholeArchives(ArrayRef<std::string> LinkArgs) {
  return llvm::any_of(LinkArgs, [](StringRef A) { return A.contains("--whole-archive"); });
}

/// An UndefinedDeviceCall whose callee an object of the link defines for the host without device
/// code: that object named, and why (adversarial pass: a callee compiled from a `.ii` or from
/// standard input gave "none of the linked objects defines it").
static Error nameHostOnlyDefinition(Error E, ArrayRef<std::pair<std::string, std::string>> LinkInputs) {
  return handleErrors(std::move(E), [&](std::unique_ptr<UndefinedDeviceCall> U) -> Error {
    std::vector<std::string> Paths;
    for (const auto &[Path, Shown] : LinkInputs)
      Paths.push_back(Path);
    std::string Definer = objectDefiningWithoutDeviceCode(Paths, U->Symbol);
    if (Definer.empty())
      return Error(std::move(U));
    for (const auto &[Path, Shown] : LinkInputs)
      if (StringRef(Definer).starts_with(Path) && (Definer.size() == Path.size() || Definer[Path.size()] == '('))
        Definer = Shown + Definer.substr(Path.size());
    return createStringError(inconvertibleErrorCode(),
                             "kernel '%s' calls '%s', defined in %s, which holds no code offload-cxx "
                             "can compile for the device (compiled by another compiler, or from a "
                             "preprocessed file or standard input): compile it with offload-cxx "
                             "from its C++ source",
                             U->Kernel.c_str(), U->Callee.c_str(), Definer.c_str());
  });
}

Expected<DeviceImageFile> linkDeviceCode(const BuildSettings &S, std::vector<DeviceImageFile> Files,
                                         const std::string &TempStem,
                                         ArrayRef<std::pair<std::string, std::string>> LinkInputs) {
  Timer T{"device link", S.Commands};
  Expected<MergedDeviceCode> Merged = mergeDeviceCode(Files, S.TempDir + "/" + TempStem);
  if (!Merged)
    return Merged.takeError();
  if (Error E = checkKernelsDefined(Merged->Kernels))
    return E;
  Expected<Toolchain> Tools = findToolchain(S.L);
  if (!Tools)
    return Tools.takeError();
  DevicePassOptions DO = deviceOptions(S, TempStem);
  DeviceImageFile Program;
  // One unit's program keeps its manifest whole: its source and hash let --pass=host refuse a
  // device image made from other code.
  Program.Kernels = Files.size() == 1 ? Files[0].Kernels : Merged->Kernels;
  std::map<std::string, std::string> EntryNames;  // for the device link's errors
  for (const ManifestKernel &K : Program.Kernels.Kernels) {
    DO.KernelNames[cpuEntryName(K)] = K.Name;
    if (StringRef(K.Name).starts_with("lambda at"))  // (others: their demangled signature)
      EntryNames[K.Entry] = K.Name;
  }
  for (auto &[Arch, Bitcodes] : Merged->BitcodeByArch) {
    std::string Linked = DO.TempDir + "/" + DO.TempStem + "." + Arch.name() + ".bc";
    // The CPU image's calls are resolved by the program's own link; a single unit's device code
    // holds every function of its file that its kernels call.
    if (Arch.isGpu() && Files.size() > 1)
      if (Error E = addCalleesFromOtherFiles(
              Bitcodes, Files, Arch, *Tools, DO,
              [&](Manifest &M) { return resolveDeferredExports(S, M); }))
        return E;
    std::vector<std::string> NoBarriers;  // exported by some file, reaching no barrier there
    if (Arch.isHost())
      for (const DeviceImageFile &F : Files)
        for (const ManifestExport &E : F.Kernels.Exports)
          if (!E.UsesBarriers)
            NoBarriers.push_back(E.Symbol);
    if (!S.Commands.DryRun)
      if (Error E = linkDeviceBitcode(Bitcodes, Linked, Arch, *Tools, NoBarriers, EntryNames))
        return nameHostOnlyDefinition(std::move(E), LinkInputs);
    Expected<DeviceImage> Image = lowerDeviceBitcode(Linked, Arch, *Tools, DO);
    if (!Image)
      return Image.takeError();
    Program.Images.push_back(std::move(*Image));
  }
  return Program;
}

} // namespace offload::compiler
