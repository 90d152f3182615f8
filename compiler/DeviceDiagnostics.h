// compiler/DeviceDiagnostics.h — a device compile's messages in the user's terms. clang compiles
// the user's file for a GPU through a source offload-cxx generated (DevicePass.cpp), so its
// diagnostics come wrapped in "In file included from /tmp/offload-cxx-.../x.device.cpp" and
// chains of "called by" notes through offload's headers and the generated entries; ptxas reports
// errors (an inline asm statement's) at lines of a temporary .ptx file. These functions keep what
// is about the user's code and say where in it.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>

namespace offload::compiler {

/// clang's diagnostics with the lines about files offload-cxx generated (in TempDir) or about
/// offload's own headers (IncludeDir) left out: include-stack lines naming them, and notes
/// located in them. Errors stay, wherever they are.
std::string tidyDeviceDiagnostics(llvm::StringRef Text, llvm::StringRef TempDir,
                                  llvm::StringRef IncludeDir);

/// ptxas's errors ("ptxas FILE.ptx, line N; error : MSG") restated at the user's source lines,
/// found from the PTX's .loc/.file directives before line N:
///   /home/me/k.cpp:6:3: error: ptxas (sm_90): Unknown symbol '%bogus'
/// Lines without a known place, and ptxas's other lines, are kept as they are.
std::string ptxasErrorsAtSource(llvm::StringRef PtxasStderr, llvm::StringRef PtxText,
                                llvm::StringRef Arch);

/// One line for a failed device compile from its tidied messages: the first error's
/// "FILE:LINE:COL: MESSAGE", naming the kernel declared nearest before that line in that file
/// (Kernels: name and "file:line" of each) and the architecture; empty without an error line.
std::string deviceErrorSummary(llvm::StringRef Tidied, llvm::StringRef Arch,
                               llvm::ArrayRef<std::pair<std::string, std::string>> Kernels);

} // namespace offload::compiler
