// compiler/DevicesCommand.cpp — `offload-cxx devices [PROGRAM]`: the devices the runtime sees
// (name, vendor, architecture, memory) and, given a program, which of them can run it. The
// listing is the runtime's own (offload-cxx-devices, linked with the runtime, in lib/offload-cxx);
// the driver adds the program's architectures, read from the file without running it.
#include "Commands.h"
#include "ObjectFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace offload::compiler {

cl::SubCommand DevicesCommand("devices",
                              "List the devices the runtime sees and, given a program, which can "
                              "run it");

namespace {
cl::opt<std::string> DevicesProgram(cl::Positional, cl::desc("[PROGRAM]"), cl::sub(DevicesCommand));
} // namespace

int runDevicesCommand(const Layout &L) {
  const std::string Tool = L.ToolsDir + "/offload-cxx-devices";
  if (!sys::fs::can_execute(Tool)) {
    WithColor::error(errs(), "offload-cxx devices") << "'" << Tool << "' is missing: reinstall offload-cxx\n";
    return 1;
  }
  std::vector<std::string> Args = {Tool};
  if (!DevicesProgram.empty()) {
    Expected<std::vector<std::string>> Archs = readProgramArchs(DevicesProgram);
    if (!Archs) {
      WithColor::error(errs(), "offload-cxx devices") << toString(Archs.takeError()) << "\n";
      return 1;
    }
    std::string List;
    for (const std::string &A : *Archs)
      List += (List.empty() ? "" : ",") + A;
    Args.push_back("--program=" + sys::path::filename(DevicesProgram).str());
    Args.push_back("--archs=" + List);
  }
  std::vector<StringRef> Refs(Args.begin(), Args.end());
  std::string Err;
  int Status = sys::ExecuteAndWait(Tool, Refs, std::nullopt, {}, 0, 0, &Err);
  if (Status < 0) {
    WithColor::error(errs(), "offload-cxx devices") << Err << "\n";
    return 1;
  }
  return Status;
}

} // namespace offload::compiler
