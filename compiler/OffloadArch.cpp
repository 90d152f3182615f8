// compiler/OffloadArch.cpp — see OffloadArch.h.
#include "OffloadArch.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace offload::compiler {

std::optional<OffloadArch> OffloadArch::tryParse(StringRef Name) {
  if (Name == "host")
    return host();
  // sm_90, sm_90a, sm_100f: digits, then at most one feature letter.
  StringRef Sm = Name;
  if (Sm.consume_front("sm_")) {
    StringRef Number = Sm.take_while(isDigit), Suffix = Sm.drop_front(Number.size());
    if (!Number.empty() && (Suffix.empty() || Suffix == "a" || Suffix == "f"))
      return OffloadArch(Kind::Nvidia, Name.str());
    return std::nullopt;
  }
  // gfx90a, gfx1100, gfx9-generic (LLVM's AMDGPU processors), with clang's target features
  // (gfx90a:xnack+).
  StringRef Gfx = Name;
  if (Gfx.consume_front("gfx") && !Gfx.empty() && isDigit(Gfx.front()) &&
      all_of(Gfx, [](char C) { return isAlnum(C) || C == '-' || C == ':' || C == '+'; }))
    return OffloadArch(Kind::Amd, Name.str());
  return std::nullopt;
}

Expected<OffloadArch> OffloadArch::parse(StringRef Name) {
  if (std::optional<OffloadArch> A = tryParse(Name))
    return *A;
  return createStringError(inconvertibleErrorCode(),
                           "unknown offload architecture '%s' (expected sm_XX for NVIDIA, "
                           "gfxXXX for AMD, or host)",
                           Name.str().c_str());
}

StringRef OffloadArch::tripleOf(Kind K) {
  switch (K) {
  case Kind::Nvidia:
    return "nvptx64-nvidia-cuda";
  case Kind::Amd:
    return "amdgcn-amd-amdhsa";
  case Kind::Host:
    return "x86_64-unknown-linux-gnu";
  }
  llvm_unreachable("every kind has a triple");
}

} // namespace offload::compiler
