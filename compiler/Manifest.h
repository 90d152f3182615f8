// compiler/Manifest.h — the manifest: the kernel instantiations one translation unit launches,
// written by the host-metadata pass and read by the device and host passes (JSON, llvm::json).
#pragma once

#include <offload/abi.hpp>

#include <optional>
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace offload::compiler {

/// One parameter of a kernel instantiation.
struct ManifestParam {
  std::string Name;  ///< as declared, e.g. "x" (empty for an unnamed parameter)
  std::string Type;  ///< as written by clang, e.g. "double (*)[256]"
  /// How it travels (written in manifests as offload::abi::param_kind_name(): "tofrom", ...).
  offload::abi::param_kind Kind = offload::abi::param_kind::unmappable;
  /// Read-only and unaliased (offload::readonly_ptr, or a `const T* __restrict__` pointer): the
  /// device entry declares its slot a `const void *__restrict__`, so that GPUs load through their
  /// read-only path.
  bool Restrict = false;
  /// Launch slots it takes: offload::abi::slot_count of its kind, and for a literal its size
  /// (written in manifests as "slots" where it is not 1).
  unsigned Slots = 1;
  /// Its size in bytes as the kernel's compiler laid it out (ParamClass::Bytes; written in
  /// manifests as "bytes" where it is known): the launch refuses a host whose sizeof differs.
  std::uint64_t Bytes = 0;
};

/// One kernel instantiation that the host code launches.
struct ManifestKernel {
  std::string Name;        ///< human-readable: "fill<double>"
  std::string HostSymbol;  ///< mangled name of the host-compiled instantiation
  std::string Entry;       ///< device entry symbol, derived from HostSymbol
  std::string Callee;      ///< C++ expression naming the instantiation, for generated code
  std::string DeclaredAt;  ///< "file:line" of the kernel's declaration
  std::vector<ManifestParam> Params;
  /// The kernel may call offload::barrier() or a warp operation (the CPU device then runs its
  /// work-items as fibers).
  bool UsesBarriers = true;
  /// The translation unit has the kernel's definition (not only a declaration): the link step
  /// refuses a program where no file defines a launched kernel.
  bool Defined = true;
  /// Set by the link step for kernels of static-library members (not written to manifests).
  bool FromArchive = false;
};

/// A function with external linkage that a translation unit defines: a kernel of another file
/// may call it, and the link step then compiles it for the device from this file.
struct ManifestExport {
  std::string Symbol;  ///< its (mangled) symbol
  /// C++ expression naming it, for generated code; empty while the file's exports are deferred
  /// (Manifest::ExportsDeferred).
  std::string Callee;
  /// It may reach offload::barrier() (or a warp operation): the file then builds its CPU
  /// image even without kernels, so the link can split another file's kernel at that barrier.
  bool UsesBarriers = false;
  /// Defined weak (`__attribute__((weak))`, or an inline function's copy in an object): a
  /// strong definition of another file takes its place, on the device as at the host link.
  bool Weak = false;
};

/// A translation unit's manifest.
struct Manifest {
  static constexpr std::int64_t CurrentVersion = 1;
  std::string Source;                   ///< absolute path of the translation unit
  /// Hash of the source file's bytes when its manifest was made (sourceHash()), so that the host
  /// pass refuses a device image made from other code; empty: not recorded.
  std::string SourceHash;
  std::vector<std::string> CompileArgs; ///< flags the device pass compiles it with (-I, -D, -std, ...)
  /// The project's headers it included (absolute path, sourceHash()) when compiled as written:
  /// the link compiles its functions for a GPU from the files as they are then, so a header
  /// changed since is refused as the source is (adversarial pass: the GPU got the new header).
  std::vector<std::pair<std::string, std::string>> Headers;
  std::vector<ManifestKernel> Kernels;
  std::vector<ManifestExport> Exports;
  /// A file compiled as written (it never names offload) is not parsed by clang when compiled:
  /// its manifest says so (no exports), and reading its object fills Exports with the functions
  /// the object defines (their symbols alone, no barrier); the link parses the file for their
  /// Callee only if a kernel of another file calls one (Build.cpp, resolveDeferredExports).
  /// Parsing every such file cost 2.5x g++'s time per file (bench/RESULTS.md, real projects).
  bool ExportsDeferred = false;

  /// Adds K unless an instantiation with the same host symbol is already there.
  void addKernel(ManifestKernel K);
};

/// `#include "PATH"` for a generated source including the user's file; `#include <PATH>` when
/// the path holds a '"' (a header name has no escapes). Paths no #include can name (a '"' and a
/// '>', a newline) are refused by the driver (includablePath).
std::string includeDirective(llvm::StringRef Path);
/// A `#line` directive that makes the next line of a generated source the kernel K's declaration
/// line in M's source (or the header K is declared in): an error that clang reports in a
/// generated entry (a `long double` parameter on a GPU) names the user's line, never a temporary
/// file. Empty where K's line is unknown.
std::string lineDirective(const Manifest &M, const ManifestKernel &K);
/// Whether a generated source can #include Path.
bool includablePath(llvm::StringRef Path);

/// The ABI's parameter kind of a manifest's spelling ("span_to"), or none: the manifest reader's
/// edge (its writer spells a kind with offload::abi::param_kind_name).
std::optional<offload::abi::param_kind> paramKind(llvm::StringRef Name);

/// The device entry symbol of a host-compiled kernel instantiation.
std::string deviceEntryName(llvm::StringRef HostSymbol);

/// An error unless Path is a regular file (a device, a FIFO or /dev/zero would be read forever).
llvm::Error checkRegularFile(llvm::StringRef Path);

/// A hash of the file's bytes (xxh3, hex), or an error if it cannot be read.
llvm::Expected<std::string> sourceHash(llvm::StringRef Path);
/// The first of M's source and recorded headers that is gone or differs from when M was made
/// (its path), or empty when all are as they were.
std::string changedSinceCompiled(const Manifest &M);

/// Adds Path (made absolute) with its hash to M.Headers, unless it is M's source, a system
/// header (under /usr/), one of offload's (under OffloadIncludeDir), a precompiled header, or
/// recorded already: the project's headers, which the link checks as it checks the source.
void recordProjectHeader(Manifest &M, llvm::StringRef Path, llvm::StringRef OffloadIncludeDir);

std::string toJSON(const Manifest &M);
llvm::Expected<Manifest> parseManifest(llvm::StringRef JSONText, llvm::StringRef Origin);
llvm::Expected<Manifest> readManifest(llvm::StringRef Path);
llvm::Error writeManifest(const Manifest &M, llvm::StringRef Path);

} // namespace offload::compiler
