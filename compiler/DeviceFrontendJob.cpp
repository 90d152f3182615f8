// compiler/DeviceFrontendJob.cpp — see DeviceFrontendJob.h.
#include "DeviceFrontendJob.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Host.h"

#include <memory>

using namespace llvm;

namespace offload::compiler {

std::optional<std::vector<std::string>> deviceFrontendJob(ArrayRef<std::string> DriverArgv) {
  if (DriverArgv.empty())
    return std::nullopt;
  clang::DiagnosticOptions DiagOpts;
  clang::IgnoringDiagConsumer Quiet;  // a bad command line is reported when it runs as it is
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), DiagOpts, &Quiet,
                                 /*ShouldOwnClient=*/false);
  clang::driver::Driver D(DriverArgv.front(), sys::getDefaultTargetTriple(), Diags);
  D.setCheckInputsExist(false);  // under -### the generated source is not written
  std::vector<const char *> Args;
  for (const std::string &A : DriverArgv)
    Args.push_back(A.c_str());
  std::unique_ptr<clang::driver::Compilation> C(D.BuildCompilation(Args));
  if (!C || Diags.hasErrorOccurred())
    return std::nullopt;
  // The plan names (and creates) a temporary file for the host IR: it is never written.
  auto Cleanup = [&] { C->CleanupFileList(C->getTempFiles()); };
  std::optional<std::vector<std::string>> Device;
  unsigned Jobs = 0;
  for (const clang::driver::Command &Job : C->getJobs()) {
    ++Jobs;
    const opt::ArgStringList &A = Job.getArguments();
    if (A.empty() || StringRef(A.front()) != "-cc1")
      continue;
    bool IsDevice = llvm::any_of(A, [](const char *S) {
      return StringRef(S) == "-fopenmp-is-target-device";
    });
    if (!IsDevice)
      continue;
    std::vector<std::string> Argv = {Job.getExecutable()};
    for (size_t I = 0; I < A.size(); ++I) {
      if (StringRef(A[I]) == "-fopenmp-host-ir-file-path") {
        ++I;  // and its value
        continue;
      }
      Argv.push_back(A[I]);
    }
    Device = std::move(Argv);
  }
  Cleanup();
  if (Jobs != 2 || !Device)
    return std::nullopt;
  return Device;
}

} // namespace offload::compiler
