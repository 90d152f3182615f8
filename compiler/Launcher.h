// compiler/Launcher.h — `offload-cxx compile-launcher` and `offload-cxx link-launcher`: the
// driver as CMake's CXX_COMPILER_LAUNCHER and CXX_LINKER_LAUNCHER (cmake/OffloadCxxConfig.cmake).
// Each runs the command CMake gives it unchanged and adds offload-cxx's work around it;
// docs/design.md ("CMake integration") says why.
#pragma once

#include "Commands.h"

#include "llvm/Support/CommandLine.h"

namespace offload::compiler {

/// `offload-cxx compile-launcher [--offload-arch=A,...] [-v] -- <compiler> ... -o X.o -c X.cpp`
extern llvm::cl::SubCommand CompileLauncherCommand;
int runCompileLauncher(const Layout &L);

/// `offload-cxx link-launcher [-v] -- <compiler> ... objects ... -o program ...`
extern llvm::cl::SubCommand LinkLauncherCommand;
int runLinkLauncher(const Layout &L);

} // namespace offload::compiler
