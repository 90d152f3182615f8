// compiler/Commands.h — the driver's subcommands besides compiling (`offload-cxx <command>`),
// each in its own file, and where this installation keeps its parts.
//
// Every subcommand is an llvm::cl::SubCommand: its options carry cl::sub(ThatCommand), so
// `offload-cxx <command> --help` lists only them, and main() in Driver.cpp runs the one given.
#pragma once

#include "llvm/Support/CommandLine.h"

#include <string>

namespace offload::compiler {

/// Where this installation keeps its headers, runtime and tools: beside the executable
/// (../include, ../lib), as installed or as in the build tree; the source tree's include/ as
/// a fallback.
struct Layout {
  std::string BinDir;         ///< where offload-cxx itself is
  std::string IncludeDir;     ///< offload/offload.hpp is under it
  std::string RuntimeLibDir;  ///< liboffload-cxx-rt.so
  std::string ToolsDir;       ///< offload-cxx-devices (lib/offload-cxx)
  std::string LLVMLibDir;     ///< libLLVMOffload.so, libLLVM.so
  std::string LLVMBinDir;     ///< clang++, ld.lld, llvm-objcopy of LLVM 22
};

Layout findLayout(const char *Argv0);

/// `offload-cxx devices [PROGRAM]` — DevicesCommand.cpp.
extern llvm::cl::SubCommand DevicesCommand;
int runDevicesCommand(const Layout &L);

/// `offload-cxx bundle PROGRAM... -o DIR` — BundleCommand.cpp.
extern llvm::cl::SubCommand BundleCommand;
int runBundleCommand(const Layout &L);

/// `offload-cxx --print-offload-archs`: the architectures this installation can build for, one
/// a line with a note — PrintOffloadArchs.cpp.
int runPrintOffloadArchs(const Layout &L);

} // namespace offload::compiler
