// compiler/HostPass.cpp — see HostPass.h.
#include "HostPass.h"
#include "ObjectFiles.h"

#include "CpuImage.h"

#include <offload/detail/runtime_api.hpp>

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <type_traits>

using namespace llvm;

namespace offload::compiler {

/// Constructor priority of the registrations: early, like clang's offload registration, so that
/// kernels launched from users' static constructors are already known.
static constexpr int RegistrationPriority = 101;

// The program record is the runtime's own declaration (include/offload/detail/runtime_api.hpp):
// its version and flags are the header's macros, and each IR record type below is built from the
// C++ struct's fields, listed once here in order. A field added, removed, moved or resized in the
// header makes a static_assert below fail, so that this file stops compiling until it follows.
#define OFFLOAD_CXX_KERNEL_RECORD_FIELDS(F)                                                       \
  F(offload_cxx_kernel_record, host_address)                                                     \
  F(offload_cxx_kernel_record, name)                                                             \
  F(offload_cxx_kernel_record, entry)                                                            \
  F(offload_cxx_kernel_record, declared_at)                                                      \
  F(offload_cxx_kernel_record, param_names)                                                      \
  F(offload_cxx_kernel_record, param_bytes)                                                      \
  F(offload_cxx_kernel_record, flags)                                                            \
  F(offload_cxx_kernel_record, cpu_entry)
#define OFFLOAD_CXX_IMAGE_FIELDS(F)                                                               \
  F(offload_cxx_image, arch)                                                                     \
  F(offload_cxx_image, start)                                                                    \
  F(offload_cxx_image, size)
#define OFFLOAD_CXX_PROGRAM_FIELDS(F)                                                             \
  F(offload_cxx_program, version)                                                                \
  F(offload_cxx_program, num_kernels)                                                            \
  F(offload_cxx_program, kernels)                                                                \
  F(offload_cxx_program, num_archs)                                                              \
  F(offload_cxx_program, archs)                                                                  \
  F(offload_cxx_program, num_images)                                                             \
  F(offload_cxx_program, images)

namespace {

/// Where one field of a record lies.
struct FieldPlace {
  std::size_t Offset, Size;
};

/// Whether Fields, in order and naturally aligned (as LLVM lays out a non-packed struct for
/// x86-64), cover the whole struct of StructSize bytes: no field left out, none out of order.
template <std::size_t N>
constexpr bool coversInOrder(const FieldPlace (&Fields)[N], std::size_t StructSize) {
  std::size_t End = 0, Align = 1;
  for (const FieldPlace &F : Fields) {
    if (F.Offset != (End + F.Size - 1) / F.Size * F.Size)
      return false;
    End = F.Offset + F.Size;
    Align = F.Size > Align ? F.Size : Align;
  }
  return (End + Align - 1) / Align * Align == StructSize;
}

/// Converts to any field's type: counts an aggregate's fields (as many as brace
/// initialisation accepts), so that a field added in a record's padding is noticed too.
struct AnyField {
  template <class T> constexpr operator T() const noexcept;
};
template <class Record, class... Fields> constexpr std::size_t fieldCount() {
  if constexpr (requires { Record{Fields{}..., AnyField{}}; })
    return fieldCount<Record, Fields..., AnyField>();
  else
    return sizeof...(Fields);
}

#define OFFLOAD_CXX_FIELD_PLACE(Record, Field) FieldPlace{offsetof(Record, Field), sizeof(Record::Field)},
constexpr FieldPlace KernelRecordPlaces[] = {OFFLOAD_CXX_KERNEL_RECORD_FIELDS(OFFLOAD_CXX_FIELD_PLACE)};
constexpr FieldPlace ImagePlaces[] = {OFFLOAD_CXX_IMAGE_FIELDS(OFFLOAD_CXX_FIELD_PLACE)};
constexpr FieldPlace ProgramPlaces[] = {OFFLOAD_CXX_PROGRAM_FIELDS(OFFLOAD_CXX_FIELD_PLACE)};
#undef OFFLOAD_CXX_FIELD_PLACE
static_assert(coversInOrder(KernelRecordPlaces, sizeof(offload_cxx_kernel_record)) &&
                  fieldCount<offload_cxx_kernel_record>() == std::size(KernelRecordPlaces),
              "offload_cxx_kernel_record changed: list its fields in OFFLOAD_CXX_KERNEL_RECORD_FIELDS");
static_assert(coversInOrder(ImagePlaces, sizeof(offload_cxx_image)) &&
                  fieldCount<offload_cxx_image>() == std::size(ImagePlaces),
              "offload_cxx_image changed: list its fields in OFFLOAD_CXX_IMAGE_FIELDS");
static_assert(coversInOrder(ProgramPlaces, sizeof(offload_cxx_program)) &&
                  fieldCount<offload_cxx_program>() == std::size(ProgramPlaces),
              "offload_cxx_program changed: list its fields in OFFLOAD_CXX_PROGRAM_FIELDS");

template <class> inline constexpr bool UnsupportedField = false;

/// The IR type of a record field of C++ type T.
template <class T> Type *fieldType(LLVMContext &Ctx) {
  if constexpr (std::is_pointer_v<T>)
    return PointerType::getUnqual(Ctx);
  else if constexpr (std::is_integral_v<T>)
    return Type::getIntNTy(Ctx, 8 * sizeof(T));
  else
    static_assert(UnsupportedField<T>, "a record field the registration module cannot emit");
}

#define OFFLOAD_CXX_FIELD_TYPE(Record, Field) fieldType<decltype(Record::Field)>(Ctx),
StructType *kernelRecordType(LLVMContext &Ctx) {
  return StructType::create(Ctx, {OFFLOAD_CXX_KERNEL_RECORD_FIELDS(OFFLOAD_CXX_FIELD_TYPE)},
                            "offload_cxx_kernel_record");
}
StructType *imageType(LLVMContext &Ctx) {
  return StructType::create(Ctx, {OFFLOAD_CXX_IMAGE_FIELDS(OFFLOAD_CXX_FIELD_TYPE)},
                            "offload_cxx_image");
}
StructType *programType(LLVMContext &Ctx) {
  return StructType::create(Ctx, {OFFLOAD_CXX_PROGRAM_FIELDS(OFFLOAD_CXX_FIELD_TYPE)},
                            "offload_cxx_program");
}
#undef OFFLOAD_CXX_FIELD_TYPE

/// The value of a field of type `decltype(Record::Field)` (an integer field).
#define OFFLOAD_CXX_FIELD_INT(Record, Field, Value)                                               \
  ConstantInt::get(fieldType<decltype(Record::Field)>(Ctx), Value)

/// The registration call, named and typed as the header declares it.
#define OFFLOAD_CXX_DECLARED_NAME(F) (static_cast<void>(sizeof(&F)), #F)
constexpr const char *RegisterProgramName =
    OFFLOAD_CXX_DECLARED_NAME(__offload_cxx_register_program);
static_assert(std::is_same_v<decltype(&__offload_cxx_register_program),
                             void (*)(const offload_cxx_program *)>,
              "__offload_cxx_register_program changed: change its call below");

} // namespace

static Constant *cString(Module &M, StringRef S, const Twine &Name) {
  return IRBuilder<>(M.getContext())
      .CreateGlobalString(S, Name, /*AddressSpace=*/0, &M);
}

Expected<std::unique_ptr<Module>> buildRegistrationModule(const DeviceImageFile &File,
                                                          LLVMContext &Ctx) {
  auto M = std::make_unique<Module>("offload-cxx.registration", Ctx);
  M->setTargetTriple(Triple(OffloadArch::host().triple()));  // the program's, as the CPU image's
  PointerType *Ptr = PointerType::getUnqual(Ctx);

  // The kernels' host addresses: the instantiations the user's object defines.
  std::vector<Function *> HostKernels;
  for (const ManifestKernel &K : File.Kernels.Kernels) {
    auto *F = cast<Function>(
        M->getOrInsertFunction(K.HostSymbol, FunctionType::get(Type::getVoidTy(Ctx), false))
            .getCallee());
    // Weak: an instantiation the program never defines stays null and unregistered — a
    // static library's kernel that the program does not link, or one whose only launch the host
    // compiler removed as unreachable (`if (block == 16) launch(k<16>, ...)`).
    F->setLinkage(GlobalValue::ExternalWeakLinkage);
    HostKernels.push_back(F);
  }

  // (1) offload-cxx's program record.
  const bool HasCpuImage =
      llvm::any_of(File.Images, [](const DeviceImage &I) { return I.Arch.isHost(); });
  StructType *KernelRecord = kernelRecordType(Ctx);
  // Each kernel's workgroup loop in the CPU image (CpuImage.h); weak: null where the image has
  // none (no CPU image, or a static-library kernel the program does not link).
  auto cpuEntry = [&](const ManifestKernel &K) -> Constant * {
    if (!HasCpuImage)
      return ConstantPointerNull::get(Ptr);
    auto *F = cast<Function>(
        M->getOrInsertFunction(cpuEntryName(K), FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false))
            .getCallee());
    F->setLinkage(GlobalValue::ExternalWeakLinkage);
    return F;
  };
  std::vector<Constant *> Records;
  for (size_t I = 0; I < HostKernels.size(); ++I) {
    const ManifestKernel &K = File.Kernels.Kernels[I];
    std::string ParamNames;
    std::vector<std::uint64_t> ParamBytes;  // one per launch slot, as the names
    for (const ManifestParam &P : K.Params) {  // one name per launch slot
      ParamNames += (ParamNames.empty() ? "" : ",") + P.Name;
      if (P.Kind == offload::abi::param_kind::span_tofrom ||
          P.Kind == offload::abi::param_kind::span_to) {
        ParamNames += "," + P.Name + ".size()";
        ParamBytes.push_back(P.Bytes ? P.Bytes | OFFLOAD_CXX_PARAM_BYTES_ELEMENT : 0);
        ParamBytes.push_back(0);  // the length
      } else {
        for (unsigned I = 1; I < P.Slots; ++I)  // a value's further bytes
          ParamNames += "," + P.Name;
        ParamBytes.insert(ParamBytes.end(), P.Slots,
                          P.Kind == offload::abi::param_kind::device && P.Bytes
                              ? P.Bytes | OFFLOAD_CXX_PARAM_BYTES_ELEMENT
                              : P.Bytes);
      }
    }
    auto *BytesTy = ArrayType::get(Type::getInt64Ty(Ctx), ParamBytes.size());
    auto *BytesVar = new GlobalVariable(*M, BytesTy, /*isConstant=*/true,
                                        GlobalValue::PrivateLinkage,
                                        ConstantDataArray::get(Ctx, ParamBytes),
                                        ".offload_cxx.param_bytes");
    Records.push_back(ConstantStruct::get(  // in OFFLOAD_CXX_KERNEL_RECORD_FIELDS's order
        KernelRecord, {HostKernels[I], cString(*M, K.Name, ".offload_cxx.name"),
                       cString(*M, K.Entry, ".offload_cxx.entry"),
                       cString(*M, K.DeclaredAt, ".offload_cxx.declared_at"),
                       cString(*M, ParamNames, ".offload_cxx.param_names"), BytesVar,
                       OFFLOAD_CXX_FIELD_INT(offload_cxx_kernel_record, flags,
                                             K.UsesBarriers ? OFFLOAD_CXX_KERNEL_USES_BARRIERS : 0),
                       cpuEntry(K)}));
  }
  ArrayType *RecordsTy = ArrayType::get(KernelRecord, Records.size());
  auto *RecordsVar = new GlobalVariable(*M, RecordsTy, /*isConstant=*/true,
                                        GlobalValue::InternalLinkage,
                                        ConstantArray::get(RecordsTy, Records),
                                        ".offload_cxx.kernels");
  std::vector<Constant *> Archs;
  for (const DeviceImage &I : File.Images)
    if (I.Arch.isGpu())
      Archs.push_back(cString(*M, I.Arch.name(), ".offload_cxx.arch"));
  Archs.push_back(cString(*M, OffloadArch::host().name(), ".offload_cxx.arch"));
  ArrayType *ArchsTy = ArrayType::get(Ptr, Archs.size());
  auto *ArchsVar = new GlobalVariable(*M, ArchsTy, true, GlobalValue::InternalLinkage,
                                      ConstantArray::get(ArchsTy, Archs), ".offload_cxx.archs");
  // The same list as one string in a section of its own, for tools that read a program file
  // without running it (`offload-cxx devices PROGRAM`, `offload-cxx bundle`).
  std::string ArchList;
  for (const DeviceImage &I : File.Images)
    if (I.Arch.isGpu())
      ArchList += I.Arch.name() + ",";
  ArchList += OffloadArch::host().name();
  auto *ArchListVar = new GlobalVariable(
      *M, ArrayType::get(Type::getInt8Ty(Ctx), ArchList.size() + 1), true,
      GlobalValue::InternalLinkage, ConstantDataArray::getString(Ctx, ArchList),
      ".offload_cxx.arch_list");
  ArchListVar->setSection(ProgramArchsSection);
  // llvm.used: the section gets SHF_GNU_RETAIN, so `-Wl,--gc-sections` keeps it (nothing
  // references it; `devices` and `bundle` read it: thirteenth adversarial pass).
  appendToUsed(*M, {ArchListVar});
  // The GPU images themselves, for the runtime's stream launch path (runtime/gpu_stream.cpp):
  // the record points at the bytes the offloading wrapper emits below, not at a second copy.
  std::vector<const DeviceImage *> GpuImages;
  for (const DeviceImage &I : File.Images)
    if (I.Arch.isGpu())
      GpuImages.push_back(&I);
  StructType *ImageRecord = imageType(Ctx);
  ArrayType *ImagesTy = ArrayType::get(ImageRecord, GpuImages.size());
  auto *ImagesVar = new GlobalVariable(*M, ImagesTy, true, GlobalValue::InternalLinkage,
                                       /*Initializer=*/nullptr, ".offload_cxx.images");
  StructType *ProgramTy = programType(Ctx);
  auto *Program = new GlobalVariable(
      *M, ProgramTy, true, GlobalValue::InternalLinkage,
      ConstantStruct::get(  // in OFFLOAD_CXX_PROGRAM_FIELDS's order
          ProgramTy,
          {OFFLOAD_CXX_FIELD_INT(offload_cxx_program, version, OFFLOAD_CXX_PROGRAM_VERSION),
           OFFLOAD_CXX_FIELD_INT(offload_cxx_program, num_kernels, Records.size()), RecordsVar,
           OFFLOAD_CXX_FIELD_INT(offload_cxx_program, num_archs, Archs.size()), ArchsVar,
           OFFLOAD_CXX_FIELD_INT(offload_cxx_program, num_images, GpuImages.size()), ImagesVar}),
      ".offload_cxx.program");

  FunctionCallee Register = M->getOrInsertFunction(
      RegisterProgramName, FunctionType::get(Type::getVoidTy(Ctx), {Ptr}, false));
  Function *Ctor = Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                                    GlobalValue::InternalLinkage, ".offload_cxx.register", *M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Ctor));
  B.CreateCall(Register, {Program});
  B.CreateRetVoid();
  appendToGlobalCtors(*M, Ctor, RegistrationPriority);

  // The images themselves: read-only data the runtime hands to the GPU's library, which loads
  // each once per device (runtime/device.hpp). Aligned as ELF files want to be read.
  std::vector<Constant *> ImageRecords;
  for (const DeviceImage *I : GpuImages) {
    auto *Bytes = new GlobalVariable(
        *M, ArrayType::get(Type::getInt8Ty(Ctx), I->Bytes.size()), /*isConstant=*/true,
        GlobalValue::InternalLinkage,
        ConstantDataArray::getRaw(StringRef(I->Bytes.data(), I->Bytes.size()), I->Bytes.size(),
                                  Type::getInt8Ty(Ctx)),
        ".offload_cxx.image." + I->Arch.name());
    Bytes->setAlignment(Align(4096));
    ImageRecords.push_back(ConstantStruct::get(  // in OFFLOAD_CXX_IMAGE_FIELDS's order
        ImageRecord, {cString(*M, I->Arch.name(), ".offload_cxx.image_arch"), Bytes,
                      OFFLOAD_CXX_FIELD_INT(offload_cxx_image, size, I->Bytes.size())}));
  }
  ImagesVar->setInitializer(ConstantArray::get(ImagesTy, ImageRecords));


  std::string Problems;
  raw_string_ostream OS(Problems);
  if (verifyModule(*M, &OS))
    return createStringError(inconvertibleErrorCode(), "invalid registration module: %s",
                             Problems.c_str());
  return M;
}

Error emitRegistrationObject(Module &M, StringRef ObjectPath) {
  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  std::string Err;
  const Target *T = TargetRegistry::lookupTarget(M.getTargetTriple(), Err);
  if (!T)
    return createStringError(inconvertibleErrorCode(), "no x86-64 target: %s", Err.c_str());
  TargetOptions Options;
  Options.UseInitArray = true;  // .init_array, run in array order (as clang emits on Linux)
  std::unique_ptr<TargetMachine> TM(T->createTargetMachine(M.getTargetTriple(), "x86-64", "",
                                                           Options, Reloc::PIC_));
  M.setDataLayout(TM->createDataLayout());
  std::error_code EC;
  raw_fd_ostream OS(ObjectPath, EC, sys::fs::OF_None);
  if (EC)
    return createFileError(ObjectPath, EC);
  legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::ObjectFile))
    return createStringError(inconvertibleErrorCode(), "cannot emit x86-64 objects");
  PM.run(M);
  OS.close();
  if (std::error_code EC = OS.error()) {
    OS.clear_error();  // (reported here, by name: not by the stream's destructor)
    return createFileError(ObjectPath, EC);
  }
  return Error::success();
}

void nameSideOutputs(std::vector<std::string> &Command, const HostPassOptions &Host,
                     StringRef DumpDir, StringRef DumpBase, StringRef DumpBaseExt,
                     const SeveralSources &Several) {
  const StringRef Compiler = sys::path::filename(Host.HostCompiler);
  if (Compiler.contains("clang") || (!Compiler.contains("g++") && !Compiler.contains("gcc")))
    return;  // GCC's options: clang++ (whose name holds "g++") takes none of them
  bool InCurrentFolder = false;  // -save-temps=cwd: g++ names them in the current folder
  // The user's own -dumpdir or -dumpbase (-dumpbase-ext) stand; what they leave out g++ takes
  // from the object (-dumpdir: the object's folder; -dumpbase: its stem), which here is a
  // temporary: given from the user's object instead (adversarial pass: `-dumpdir out/` named
  // them out/k.k.host.su, `-dumpbase zz` put them among the temporaries).
  bool UserDir = false, UserBase = false;
  for (StringRef Arg : Host.CompileArgs) {
    UserDir |= Arg.starts_with("-dumpdir");
    UserBase |= Arg == "-dumpbase";
    InCurrentFolder |= Arg == "-save-temps=cwd";
  }
  if (InCurrentFolder)
    DumpDir = DumpDir.ends_with("/") ? StringRef() : sys::path::filename(DumpDir);
  if (UserBase && !Several.Stem.empty()) {
    // g++ -dumpbase X a.cpp b.cpp: X-a.*, X-b.* (in the output's folder); each of our compiles
    // has one source, so it is told X-a (adversarial pass: every source wrote X.su over the last).
    for (size_t I = 0; I + 1 < Command.size(); ++I)
      if (Command[I] == "-dumpbase")
        Command[I + 1] += "-" + Several.Stem;
    if (!UserDir)
      Command.insert(Command.end(), {"-dumpdir", Several.OutputDir});
    return;
  }
  if (!UserDir)
    Command.insert(Command.end(), {"-dumpdir", DumpDir.str()});
  // Without a -dumpbase of the user's, g++ takes the source's extension whatever -dumpbase-ext
  // says (`-dumpbase-ext .c k.cpp`: k.su; adversarial pass: k.cpp.su): ours, the last, wins.
  if (!UserBase)
    Command.insert(Command.end(), {"-dumpbase", DumpBase.str(), "-dumpbase-ext", DumpBaseExt.str()});
}

std::string hostDepFile(StringRef TempDir, StringRef HostObject) {
  return (TempDir + "/" + sys::path::filename(HostObject) + ".d").str();
}

Expected<std::string> findHostCompiler(const HostPassOptions &O) {
  Expected<std::string> Compiler = findTool(O.HostCompiler, {});
  if (!Compiler)
    return createStringError(inconvertibleErrorCode(), "host compiler: %s",
                             toString(Compiler.takeError()).c_str());
  return Compiler;
}

Expected<std::vector<std::string>> hostCompileCommand(const std::string &Source,
                                                      const HostPassOptions &O,
                                                      const std::string &Object) {
  Expected<std::string> Compiler = findHostCompiler(O);
  if (!Compiler)
    return Compiler.takeError();
  // -fstack-clash-protection: a frame larger than a page touches each page in turn, so that a
  // kernel whose locals overflow its CPU work-item stack faults in the guard below it (reported
  // as a stack overflow, runtime/cpu_fault.hpp) instead of writing past it into other memory.
  // -Wno-unknown-pragmas: kernels are read by both compilers, and pragmas meant for the device
  // compile (`#pragma unroll`, everywhere in CUDA code) are unknown to g++, which warns under
  // -Wall. Before the user's flags: an explicit -Wunknown-pragmas still turns it back on.
  // Before the user's flags, which may turn them off. offload's headers are system headers to
  // g++ (-isystem, as an installed library's): a project's own warnings (-Weffc++,
  // -Wswitch-default, -Wpadded with -Werror) are about its code, not ours (adversarial pass);
  // tests/lit/e2e/strict_headers.test keeps them clean under -I too.
  std::vector<std::string> Compile = {*Compiler, "-isystem", O.OffloadIncludeDir,
                                      "-fstack-clash-protection", "-Wno-unknown-pragmas"};
  appendUserCompileFlags(Compile, O.CompileArgs);
  if (!O.DepFlag.empty())
    Compile.insert(Compile.end(), {O.DepFlag, "-MF", hostDepFile(O.TempDir, Object)});
  Compile.insert(Compile.end(), {"-c", Source, "-o", Object});
  return Compile;
}

Expected<std::string> compileHostObject(const std::string &Source, const HostPassOptions &O,
                                        const std::string &Object) {
  Expected<std::vector<std::string>> Compile = hostCompileCommand(Source, O, Object);
  if (!Compile)
    return Compile.takeError();
  if (Error E = runCommand(*Compile, O.Commands))
    return E;
  return Object;
}

Expected<std::vector<std::string>> writeProgramObjects(const DeviceImageFile &File,
                                                      const std::string &Prefix) {
  std::vector<std::string> Objects = {Prefix + ".registration.o"};
  LLVMContext Ctx;
  Expected<std::unique_ptr<Module>> M = buildRegistrationModule(File, Ctx);
  if (!M)
    return M.takeError();
  if (Error E = emitRegistrationObject(**M, Objects[0]))
    return E;
  for (const DeviceImage &I : File.Images)
    if (I.Arch.isHost()) {
      Objects.push_back(Prefix + ".cpu-image.o");
      if (Error E = writeFile(Objects.back(), I.Bytes))
        return E;
    }
  return Objects;
}

std::vector<std::string> runtimeLinkArgs(const std::string &RuntimeLibDir) {
  return {"-L" + RuntimeLibDir, "-loffload-cxx-rt", "-Wl,-rpath," + RuntimeLibDir, "-pthread"};
}

std::optional<std::string> fasterLinkerFlag(ArrayRef<std::string> UserLinkArgs) {
  // GNU ld reads the symbol tables of every library the runtime depends on (liboffload pulls in
  // libLLVM, ~100 MB): 0.67 s of BabelStream's link, 0.09 s with gold (bench/NOTES.md). A
  // linker the user names (-fuse-ld=...) is theirs to choose.
  for (const std::string &A : UserLinkArgs)
    if (StringRef(A).starts_with("-fuse-ld=") || StringRef(A).starts_with("--ld-path="))
      return std::nullopt;
  // Options for the linker that gold does not take (`-z separate-code`, `-z
  // pack-relative-relocs`, `--no-warn-rwx-segments`, `--print-memory-usage`, `-static-pie`:
  // "unknown option", only once the program had a kernel; adversarial pass) get g++'s own
  // linker: only those below, which gold takes as GNU ld does, keep gold.
  static const char *const GoldOptions[] = {
      "-rpath", "-rpath-link", "--rpath", "--rpath-link", "-soname", "--soname", "-h",
      "--as-needed", "--no-as-needed", "--start-group", "--end-group", "-(", "-)", "-Bstatic",
      "-Bdynamic", "-Bsymbolic", "-Bsymbolic-functions", "--whole-archive", "--no-whole-archive",
      "-O1", "-O2", "--gc-sections", "--no-gc-sections", "--export-dynamic", "-E",
      "--no-undefined", "--allow-shlib-undefined", "--version-script", "-Map", "--build-id",
      "--hash-style", "--eh-frame-hdr", "--enable-new-dtags", "--disable-new-dtags", "-L",
      "-l", "--exclude-libs", "--dynamic-list", "--no-undefined-version", "--icf", "-s",
      "--strip-all", "-S", "--strip-debug", "--fatal-warnings", "--wrap", "--defsym", "-u",
      "--undefined", "-e", "--entry", "--sort-common", "--threads", "--compress-debug-sections",
      "--gdb-index", "--dependency-file", "--color-diagnostics", "-z"};
  static const char *const GoldZKeywords[] = {
      "relro", "norelro", "now", "lazy", "defs", "noexecstack", "execstack", "origin",
      "nodelete", "text", "notext", "textoff", "max-page-size", "common-page-size",
      "nocopyreloc", "initfirst", "interpose", "loadfltr", "nodefaultlib", "nodlopen",
      "nodump", "muldefs", "stack-size", "global"};
  auto goldTakes = [&](ArrayRef<StringRef> Words) {
    for (size_t I = 0; I < Words.size(); ++I) {
      StringRef W = Words[I];
      if (!W.starts_with("-"))
        continue;  // a value (-rpath's folder, a file)
      if (W == "-z") {
        StringRef Key = I + 1 < Words.size() ? Words[++I].split('=').first : "";
        if (!llvm::is_contained(GoldZKeywords, Key))
          return false;
        continue;
      }
      StringRef Name = W.split('=').first;
      if (!llvm::any_of(GoldOptions, [&](StringRef G) {
            return Name == G || ((G == "-L" || G == "-l" || G == "-u" || G == "-h" || G == "-e") &&
                                 Name.starts_with(G) && Name.size() > 2);
          }))
        return false;
    }
    return true;
  };
  for (size_t I = 0; I < UserLinkArgs.size(); ++I) {
    StringRef Arg(UserLinkArgs[I]);
    SmallVector<StringRef, 8> Words;
    if (Arg.starts_with("-Wl,"))
      Arg.drop_front(4).split(Words, ',');
    else if ((Arg == "-Xlinker" || Arg == "-z") && I + 1 < UserLinkArgs.size())
      Words = {Arg == "-z" ? "-z" : StringRef(UserLinkArgs[++I]),
               Arg == "-z" ? StringRef(UserLinkArgs[++I]) : StringRef()};
    else if (Arg.starts_with("-static") || Arg.starts_with("-T"))
      return std::nullopt;  // -static(-pie): gold's errors quoted our temporary objects
    if (Words.size() == 2 && Words[1].empty())
      Words.pop_back();
    if (!goldTakes(Words))
      return std::nullopt;
  }
  if (std::getenv("OFFLOAD_CXX_NO_GOLD") || !sys::findProgramByName("ld.gold"))
    return std::nullopt;
  return std::string("-fuse-ld=gold");
}

bool isCxxSource(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".C" || Ext == ".c++" ||
         Ext == ".cp" || Ext == ".CPP";  // (g++'s and clang's C++ names, all of them)
}

size_t compilerWord(ArrayRef<std::string> Command) {
  size_t I = 0;
  while (I + 1 < Command.size() &&
         llvm::is_contained({"ccache", "sccache", "distcc", "icecc", "buildcache"},
                            sys::path::filename(Command[I])))
    ++I;
  return I;
}

bool isOtherHostSource(StringRef Path) {
  return llvm::is_contained({".c", ".i", ".ii", ".s", ".S", ".sx"}, sys::path::extension(Path));
}

std::string linkMessagesForUser(StringRef Messages,
                                ArrayRef<std::pair<std::string, std::string>> ObjectSources,
                                StringRef TempDir) {
  std::string Out;
  std::set<std::string> Reported;  // "undefined reference to 'f()'" already said
  SmallVector<StringRef> Lines;
  Messages.split(Lines, '\n');
  for (size_t L = 0; L < Lines.size(); ++L) {
    if (L + 1 == Lines.size() && Lines[L].empty())
      break;
    std::string Line = Lines[L].str();
    for (const auto &[Object, Source] : ObjectSources) {
      for (size_t At = Line.find(Object); At != std::string::npos;
           At = Line.find(Object, At + Source.size()))
        Line.replace(At, Object.size(), Source);
      // ld names the object, then the source it was compiled from: the same name twice
      const std::string Twice = Source + ":" + Source + ":";
      if (StringRef(Line).starts_with(Twice))
        Line.erase(0, Source.size() + 1);
    }
    const size_t Undefined = Line.find("undefined reference to ");
    const std::string What = Undefined == std::string::npos ? "" : Line.substr(Undefined);
    // An object of our own (the CPU image, the registration): its undefined references restate
    // the user's objects' (the kernel's body is in both); anything else is said as ours.
    if (const size_t Temp = Line.find((TempDir + "/").str()); Temp != std::string::npos) {
      if (!What.empty() && Reported.count(What))
        continue;
      const size_t End = Line.find(':', Temp);
      Line.replace(Temp, End == std::string::npos ? std::string::npos : End - Temp,
                   "(code offload-cxx generated)");
    }
    if (!What.empty())
      Reported.insert(What);
    Out += Line + "\n";
  }
  return Out;
}

Error linkProgram(ArrayRef<std::string> Objects, const DeviceImageFile &File,
                  const HostPassOptions &O, StringRef OutPath) {
  Expected<std::string> Compiler = findTool(O.HostCompiler, {});
  if (!Compiler)
    return createStringError(inconvertibleErrorCode(), "host compiler: %s",
                             toString(Compiler.takeError()).c_str());
  // A dry run lists the registration object it would write (it has no images to write).
  std::vector<std::string> Added = {O.TempDir + "/" + O.TempStem + ".registration.o"};
  if (!O.Commands.DryRun) {
    Expected<std::vector<std::string>> Written =
        writeProgramObjects(File, O.TempDir + "/" + O.TempStem);
    if (!Written)
      return Written.takeError();
    Added = std::move(*Written);
  }
  // The objects with the user's link arguments between them where the user wrote them
  // (HostPassOptions::LinkArgsAfter); Trailing: those after the last object.
  std::vector<std::string> Link = {*Compiler}, Trailing;
  const bool Placed = O.LinkArgsAfter.size() == O.LinkArgs.size();
  for (size_t Next = 0, Object = 0; Object <= Objects.size(); ++Object) {
    for (; Next < O.LinkArgs.size() && (!Placed || O.LinkArgsAfter[Next] <= Object); ++Next)
      (Object < Objects.size() && Placed ? Link : Trailing).push_back(O.LinkArgs[Next]);
    if (Object < Objects.size())
      Link.push_back(Objects[Object]);
  }
  // No kernel, no object that calls the runtime: linked as the host compiler links it (no
  // runtime, no libLLVM loaded at start-up, the floating-point environment untouched).
  if (File.Kernels.Kernels.empty() && !needsOffloadRuntime(Objects, groupsArchives(O.LinkArgs))) {
    Link.insert(Link.end(), {"-o", OutPath.str()});
    Link.insert(Link.end(), Trailing.begin(), Trailing.end());
    return runCommand(Link, O.Commands);
  }
  // offload's runtime is a shared library (it loads the GPU drivers, which are): a fully static
  // program cannot hold it — one line, not the linker's wall of undefined references.
  for (StringRef A : O.LinkArgs)
    if (A == "-static" || A == "--static" || A == "-static-pie")
      return createStringError(inconvertibleErrorCode(),
                               "%s: a program with kernels links offload's runtime, a shared "
                               "library that loads the GPU drivers; link without %s",
                               A.str().c_str(), A.str().c_str());
  // Both static: the program's exception handling is its own copy (libstdc++ and libgcc's
  // unwinder), the runtime's the shared one, and an offload::error the runtime throws ends the
  // program (std::terminate) instead of reaching its catch (adversarial pass). Either alone works.
  if (llvm::is_contained(O.LinkArgs, "-static-libgcc") &&
      llvm::is_contained(O.LinkArgs, "-static-libstdc++"))
    WithColor::warning(errs(), "offload-cxx")
        << "-static-libgcc with -static-libstdc++: an offload::error thrown by offload's runtime "
           "(a shared library) cannot reach this program's catch and ends it; drop one of them "
           "to catch such errors\n";
  Link.insert(Link.end(), Added.begin(), Added.end());
  Link.insert(Link.end(), {"-o", OutPath.str()});
  for (std::string &A : runtimeLinkArgs(O.RuntimeLibDir))
    Link.push_back(std::move(A));
  if (std::optional<std::string> Linker = fasterLinkerFlag(O.LinkArgs))
    Link.push_back(*Linker);
  Link.insert(Link.end(), Trailing.begin(), Trailing.end());
  // The linker's messages name the objects it read: an object made here from a source is named
  // by that source (ld: "/tmp/offload-cxx-1234/prog.a.host.o: in function `main'" → "a.cpp: ...").
  std::string Messages;
  Error Failed = runCommandCapturingErrors(Link, O.Commands, O.TempDir + "/link.stderr", Messages);
  errs() << linkMessagesForUser(Messages, O.ObjectSources, O.TempDir);
  return Failed;
}

/// The host pass links the image with the code it was made from, or refuses: an image of another
/// source (or of this one before an edit) would run other kernels under these kernels' names.
static Error checkImageMatchesSources(const DeviceImageFile &File,
                                      ArrayRef<std::string> Sources, StringRef ImagePath) {
  const Manifest &M = File.Kernels;
  if (M.Source.empty() || M.Kernels.empty())
    return Error::success();  // no kernels: nothing can run in the wrong place
  auto Normal = [](StringRef Path) {
    SmallString<256> Absolute(Path);
    sys::fs::make_absolute(Absolute);
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    return std::string(Absolute);
  };
  for (const std::string &Source : Sources) {
    const std::string Absolute = Normal(Source);
    if (Absolute != Normal(M.Source))
      continue;
    if (M.SourceHash.empty())
      return Error::success();
    Expected<std::string> Hash = sourceHash(Absolute);
    if (!Hash)
      return Hash.takeError();
    if (*Hash != M.SourceHash)
      return createStringError(inconvertibleErrorCode(),
                               "--device-image=%s was made from '%s' before it changed: run "
                               "--pass=host-metadata and --pass=device again",
                               ImagePath.str().c_str(), Source.c_str());
    return Error::success();
  }
  return createStringError(inconvertibleErrorCode(),
                           "--device-image=%s was made from '%s', not from %s: run "
                           "--pass=host-metadata and --pass=device on the source you link",
                           ImagePath.str().c_str(), M.Source.c_str(),
                           Sources.size() == 1 ? ("'" + Sources[0] + "'").c_str()
                                               : "any of the sources given");
}

Error runHostPass(ArrayRef<std::string> Sources, StringRef DeviceImagePath,
                  const HostPassOptions &O, StringRef OutPath) {
  Expected<DeviceImageFile> File = readDeviceImageFile(DeviceImagePath);
  if (!File && O.Commands.DryRun) {
    consumeError(File.takeError());  // a dry run's device pass wrote nothing
    File = DeviceImageFile();
  }
  if (!File)
    return File.takeError();
  if (Error E = checkImageMatchesSources(*File, Sources, DeviceImagePath))
    return E;
  std::vector<std::string> Objects;
  for (const std::string &Source : Sources) {
    Expected<std::string> Object = compileHostObject(
        Source, O, O.TempDir + "/" + O.TempStem + "." + tempStem(Source) + ".host.o");
    if (!Object)
      return Object.takeError();
    Objects.push_back(std::move(*Object));
  }
  return linkProgram(Objects, *File, O, OutPath);
}

} // namespace offload::compiler
