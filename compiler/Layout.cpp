// compiler/Layout.cpp — see Commands.h. The install layout is fixed by the top-level
// CMakeLists.txt (bin/, include/, lib/, lib/offload-cxx/); the build tree has the same shape.
#include "Commands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace offload::compiler {

Layout findLayout(const char *Argv0) {
  std::string Exe = sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findLayout));
  Layout L;
  L.BinDir = sys::path::parent_path(Exe).str();
  std::string Root = sys::path::parent_path(L.BinDir).str();
  L.IncludeDir = Root + "/include";
  if (!sys::fs::exists(L.IncludeDir + "/offload/offload.hpp"))
    L.IncludeDir = OFFLOAD_CXX_SOURCE_INCLUDE_DIR;
  L.RuntimeLibDir = Root + "/lib";
  L.ToolsDir = Root + "/lib/offload-cxx";
  L.LLVMLibDir = OFFLOAD_CXX_LLVM_LIBDIR;
  L.LLVMBinDir = OFFLOAD_CXX_LLVM_BINDIR;
  return L;
}

} // namespace offload::compiler
