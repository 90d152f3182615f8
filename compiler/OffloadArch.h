// compiler/OffloadArch.h — an offload architecture, as `--offload-arch` names it: an NVIDIA GPU
// (sm_XX), an AMD GPU (gfxXXX) or the CPU device (host). A name is parsed once, here, into its
// kind and the LLVM triple its code is built for; the rest of the compiler asks the type
// (isNvidia(), triple()) instead of testing names as strings.
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace offload::compiler {

class OffloadArch {
public:
  enum class Kind { Nvidia, Amd, Host };

  /// sm_<digits>[a|f] (NVIDIA), gfx<id> (AMD) or host; anything else is the one error for an
  /// unknown architecture, which names the accepted forms.
  static llvm::Expected<OffloadArch> parse(llvm::StringRef Name);
  /// As parse, without the error: for names read from tools' listings.
  static std::optional<OffloadArch> tryParse(llvm::StringRef Name);
  /// The CPU device, which every program has.
  static OffloadArch host() { return OffloadArch(Kind::Host, "host"); }

  /// The triple code of this kind is built for: nvptx64-nvidia-cuda, amdgcn-amd-amdhsa, and for
  /// the CPU device's image x86_64-unknown-linux-gnu.
  static llvm::StringRef tripleOf(Kind K);

  Kind kind() const { return TheKind; }
  bool isNvidia() const { return TheKind == Kind::Nvidia; }
  bool isAmd() const { return TheKind == Kind::Amd; }
  bool isHost() const { return TheKind == Kind::Host; }
  bool isGpu() const { return !isHost(); }
  /// The name as --offload-arch spells it: "sm_90", "gfx90a", "host".
  const std::string &name() const { return Name; }
  llvm::StringRef triple() const { return tripleOf(TheKind); }

  bool operator==(const OffloadArch &Other) const { return Name == Other.Name; }
  /// By name: the order in which a link lowers the architectures of its objects.
  bool operator<(const OffloadArch &Other) const { return Name < Other.Name; }

private:
  OffloadArch(Kind K, std::string N) : TheKind(K), Name(std::move(N)) {}
  Kind TheKind;
  std::string Name;
};

} // namespace offload::compiler
