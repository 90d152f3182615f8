// compiler/HostPass.h — pass 3 of 3: compiles the user's translation unit with the user's host
// compiler (g++ by default), builds the registration object for device.bin, and links the
// program with the runtime.
//
// The registration object holds offload-cxx's program record — each kernel's host address,
// device entry, name, declaration place and parameter names, the architectures, and the GPU
// images themselves — with a constructor that passes it to __offload_cxx_register_program
// (include/offload/detail/runtime_api.hpp). The runtime loads each image once per device.
#pragma once

#include "DeviceImageFile.h"
#include "Subprocess.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace offload::compiler {

/// The section of a linked program that lists its architectures ("sm_90,host").
inline constexpr const char *ProgramArchsSection = ".offload_cxx_archs";

struct HostPassOptions {
  std::string HostCompiler = "g++";
  std::vector<std::string> CompileArgs;  ///< the user's flags for the host compile
  std::vector<std::string> LinkArgs;     ///< -L, -l, -Wl, extra objects
  /// For each of LinkArgs, how many of the link's objects come before it (in the order the
  /// user wrote them); empty: all after them.
  std::vector<unsigned> LinkArgsAfter;
  /// "-MD"/"-MMD" when the user asked for a dependency file: the host compile writes
  /// <object>.d, merged with the device compiles' into the user's file (DepFile.h).
  std::string DepFlag;
  std::string OffloadIncludeDir;
  std::string RuntimeLibDir;   ///< where liboffload-cxx-rt.so lives
  std::string LLVMLibDir;      ///< where LLVM's libraries live
  std::string TempDir, TempStem;
  CommandOptions Commands;
  /// Objects made among the temporaries from the user's sources (object, source): the link's
  /// messages name the source instead (no error names a temporary file, issue 32).
  std::vector<std::pair<std::string, std::string>> ObjectSources;
};

/// The registration module for File (x86-64 Linux), as LLVM IR.
llvm::Expected<std::unique_ptr<llvm::Module>>
buildRegistrationModule(const DeviceImageFile &File, llvm::LLVMContext &Ctx);

/// Compiles the registration module to an object file at ObjectPath.
llvm::Error emitRegistrationObject(llvm::Module &M, llvm::StringRef ObjectPath);

/// Compiles Source with the host compiler into Object.
llvm::Expected<std::string> compileHostObject(const std::string &Source,
                                              const HostPassOptions &Options,
                                              const std::string &Object);

/// Where the host compile of HostObject writes its dependencies (-MF): among the temporaries
/// in TempDir, never beside a user's object (the -c object is written in place).
std::string hostDepFile(llvm::StringRef TempDir, llvm::StringRef HostObject);

/// A compile among several (several sources with -c, or a one-step link): the source's stem, and
/// the folder of the output (the program, or "" for -c's objects), for a -dumpbase of the user's.
struct SeveralSources {
  std::string Stem, OutputDir;
};

/// Names what GCC writes beside the object it compiles with Command (-gsplit-dwarf's .dwo,
/// --coverage's .gcno and .gcda, -fstack-usage's .su, -save-temps' .ii and .s) as
/// DumpDir + DumpBase without DumpBaseExt + its extension (GCC's -dumpdir, -dumpbase,
/// -dumpbase-ext), so that an object made among the temporaries names them as g++ would have
/// beside the user's object. Nothing for another host compiler, or where the user named them —
/// but among several sources a user's `-dumpbase X` names each `X-<stem>` in the output's folder
/// (unless -dumpdir), as g++ does.
void nameSideOutputs(std::vector<std::string> &Command, const HostPassOptions &Host,
                     llvm::StringRef DumpDir, llvm::StringRef DumpBase, llvm::StringRef DumpBaseExt,
                     const SeveralSources &Several = {});

/// The host compiler's path (Options.HostCompiler, found as the driver finds its tools).
llvm::Expected<std::string> findHostCompiler(const HostPassOptions &Options);

/// The host compiler's command that compiles Source into Object.
llvm::Expected<std::vector<std::string>> hostCompileCommand(const std::string &Source,
                                                            const HostPassOptions &Options,
                                                            const std::string &Object);

/// Writes what a program links beside its host objects: the registration object of File and,
/// when File has one, the CPU device's image (CpuImage.h). Returns their paths (Prefix.*.o).
llvm::Expected<std::vector<std::string>> writeProgramObjects(const DeviceImageFile &File,
                                                             const std::string &Prefix);

/// The link flags of the runtime: liboffload-cxx-rt, with its rpath.
std::vector<std::string> runtimeLinkArgs(const std::string &RuntimeLibDir);

/// "-fuse-ld=gold" for the program's link when the user chose no linker and gold is installed
/// (GNU ld spends most of a small program's link reading libLLVM's symbols); else nothing.
std::optional<std::string> fasterLinkerFlag(llvm::ArrayRef<std::string> UserLinkArgs);

/// Whether Path names a C++ source file (by its extension).
bool isCxxSource(llvm::StringRef Path);

/// The index in a compile command of the compiler itself: past the launchers CMake's
/// CMAKE_CXX_COMPILER_LAUNCHER puts before it (ccache, sccache, distcc, icecc, buildcache).
size_t compilerWord(llvm::ArrayRef<std::string> Command);
/// Whether Path names a source of another kind g++ compiles (C, preprocessed, assembly: .c, .i,
/// .ii, .s, .S, .sx): the host compiler's alone, no kernel in it.
bool isOtherHostSource(llvm::StringRef Path);

/// Links host objects (and archives) with the registration of File and the runtime.
/// The linker's messages as the user should read them: objects made from the user's sources
/// named by those sources, restatements by offload-cxx's own objects (the CPU image) dropped,
/// no temporary path (unit-tested).
std::string linkMessagesForUser(llvm::StringRef Messages,
                                llvm::ArrayRef<std::pair<std::string, std::string>> ObjectSources,
                                llvm::StringRef TempDir);

llvm::Error linkProgram(llvm::ArrayRef<std::string> Objects, const DeviceImageFile &File,
                        const HostPassOptions &Options, llvm::StringRef OutPath);

/// Compiles Sources with the host compiler and links them with the registration of
/// DeviceImagePath and the runtime into OutPath.
llvm::Error runHostPass(llvm::ArrayRef<std::string> Sources, llvm::StringRef DeviceImagePath,
                        const HostPassOptions &Options, llvm::StringRef OutPath);

} // namespace offload::compiler
