// compiler/PrintOffloadArchs.cpp — `offload-cxx --print-offload-archs`: host always; the sm_XX
// that both clang 22's NVPTX backend and the ptxas found accept, when there is one with
// libdevice; every gfx target of the AMDGPU backend (ld.lld links AMD code objects; no vendor
// toolkit is needed to build them).
#include "Build.h"
#include "Commands.h"
#include "OffloadArch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <optional>

using namespace llvm;

namespace offload::compiler {
namespace {

/// The GPU names `ptxas --help` lists ('sm_90', 'sm_90a', ...); empty if it cannot be run.
std::vector<std::string> ptxasArchs(const std::string &Ptxas) {
  std::vector<std::string> Archs;
  SmallString<128> Out;
  if (sys::fs::createTemporaryFile("offload-cxx-ptxas", "txt", Out))
    return Archs;
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out), StringRef("")};
  StringRef Args[] = {Ptxas, "--help"};
  if (sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects) == 0)
    if (auto Buf = MemoryBuffer::getFile(Out)) {
      SmallVector<StringRef> Parts;
      (*Buf)->getBuffer().split(Parts, '\'');
      for (StringRef P : Parts)
        if (std::optional<OffloadArch> A = OffloadArch::tryParse(P);
            A && A->isNvidia() && llvm::find(Archs, P.str()) == Archs.end())
          Archs.push_back(P.str());
    }
  sys::fs::remove(Out);
  return Archs;
}

/// The processors of architecture kind K that LLVM 22's backend knows, in its order.
std::vector<std::string> backendProcessors(OffloadArch::Kind K) {
  InitializeAllTargetInfos();
  InitializeAllTargetMCs();
  std::vector<std::string> Names;
  Triple T(OffloadArch::tripleOf(K));
  std::string Err;
  const Target *Tgt = TargetRegistry::lookupTarget(T, Err);
  if (!Tgt)
    return Names;
  std::unique_ptr<MCSubtargetInfo> STI(Tgt->createMCSubtargetInfo(T, "", ""));
  if (!STI)
    return Names;
  for (const SubtargetSubTypeKV &P : STI->getAllProcessorDescriptions())
    if (std::optional<OffloadArch> A = OffloadArch::tryParse(P.Key); A && A->kind() == K)
      Names.push_back(P.Key);
  return Names;
}

} // namespace

int runPrintOffloadArchs(const Layout &L) {
  Expected<Toolchain> Found = findToolchain(L);
  if (!Found) {
    WithColor::error(errs(), "offload-cxx") << toString(Found.takeError()) << "\n";
    return 1;
  }
  const Toolchain &Tools = *Found;
  outs() << OffloadArch::host().name() << "\tthe CPU device: always built, runs every program\n";
  if (Tools.Ptxas.empty()) {
    outs() << "# NVIDIA sm_XX: none, no ptxas found (CUDA_PATH, /usr/local/cuda/bin, PATH or "
              "OFFLOAD_CXX_PTXAS)\n";
  } else if (!sys::fs::exists(Tools.Libdevice)) {
    outs() << "# NVIDIA sm_XX: none, no libdevice beside " << Tools.Ptxas << " (expected "
           << Tools.Libdevice << ")\n";
  } else {
    std::vector<std::string> Known = ptxasArchs(Tools.Ptxas);
    std::vector<std::string> Sm = backendProcessors(OffloadArch::Kind::Nvidia);
    auto Number = [](StringRef A) {  // sm_90a -> 90, so that sm_100 sorts after sm_90
      unsigned N = 0;
      A.drop_front(3).take_while(isDigit).getAsInteger(10, N);
      return N;
    };
    llvm::stable_sort(Sm, [&](const std::string &X, const std::string &Y) {
      return std::make_pair(Number(X), X) < std::make_pair(Number(Y), Y);
    });
    for (const std::string &A : Sm)
      if (llvm::find(Known, A) != Known.end())
        outs() << A << "\tNVIDIA, PTX by clang 22, cubin by " << Tools.Ptxas << "\n";
  }
  for (const std::string &A : backendProcessors(OffloadArch::Kind::Amd))
    outs() << A << "\tAMD, code object by clang 22 and " << Tools.Lld << "\n";
  return 0;
}

} // namespace offload::compiler
