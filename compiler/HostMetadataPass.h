// compiler/HostMetadataPass.h — pass 1 of 3: parses a translation unit with clang (LibTooling),
// finds every offload::launch, checks that its kernel is marked, has external linkage and
// mappable parameters (clang diagnostics at the launch otherwise), and records each kernel
// instantiation in the manifest.
#pragma once

#include "Manifest.h"
#include "Subprocess.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace offload::compiler {

struct HostMetadataOptions {
  std::string Source;                    ///< the translation unit
  std::vector<std::string> CompileArgs;  ///< the user's flags (-I, -D, -std, ...)
  std::string OffloadIncludeDir;         ///< where <offload/offload.hpp> lives
  std::string ClangResourceDir;          ///< clang 22's builtin headers
  /// Name host symbols as GCC 12 does: clang 12+ mangles some template arguments differently
  /// (`template <auto V>`, requires-clauses, the address of an array), so the symbols are
  /// mangled under clang 11's ABI rules, which are GCC's for all of these.
  bool GccSymbols = true;
  /// If set, clang's diagnostics are kept here instead of printed: the caller prints them only
  /// when the host compiler, which parsed the same file, did not already report its errors.
  std::string *Diagnostics = nullptr;
  /// {"-MD" or "-MMD", "-MF", path}: the parse writes the headers it read there.
  std::vector<std::string> DepArgs;
  /// clang++ of LLVM 22, which precompiles offload.hpp for this parse (OffloadPch.h); none if
  /// empty.
  std::string PchClang;
  CommandOptions Commands;  ///< how the precompiled header's build is shown
  /// If set, and the file passes lambdas to offload::parallel_for: the file rewritten for the
  /// host and device compiles is written here (LambdaSites.h), *Rewritten is set, and no
  /// manifest is made (the caller runs the pass again on the rewritten file).
  std::string RewriteLambdasTo;
  bool *Rewritten = nullptr;
  /// The clang++ of LLVM 22 the parse runs as (its argv[0]): clang finds GCC's headers from its
  /// own folder, and a bare "clang++" made them "/../lib/gcc/..." — headers found only through
  /// merged /usr, and dependency files naming paths that do not exist (adversarial pass).
  std::string ClangDriver;
};

/// Returns the manifest, or an error after clang printed the diagnostics.
llvm::Expected<Manifest> runHostMetadataPass(const HostMetadataOptions &Options);

} // namespace offload::compiler
