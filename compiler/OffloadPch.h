// compiler/OffloadPch.h — offload's headers precompiled (issue 18, item 6): <offload/offload.hpp>
// and the standard headers it includes are most of what clang parses for a small file (1.1 of
// its 1.5 s here), twice per file — the host-metadata parse and the CPU image's compile. Each of
// those clang runs takes a precompiled offload.hpp (`-include-pch`, the header then counts as
// included first; its include guards make the file's own #include a no-op), built once per set
// of flags and kept in a cache: $OFFLOAD_CXX_PCH_CACHE, else $XDG_CACHE_HOME/offload-cxx/pch,
// else ~/.cache/offload-cxx/pch. OFFLOAD_CXX_PCH=0 turns it off. docs/design.md says why.
#pragma once

#include "Subprocess.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace offload::compiler {

/// The precompiled offload.hpp for a clang compile with Flags (the compile's own, without its
/// action, inputs, outputs and dependency-file flags), built with Clang when the cache holds
/// none; nullopt when off or when it cannot be built (the compile then parses the headers).
/// Under --dry-run the build is printed, not run, and the path returned.
std::optional<std::string> offloadPch(const std::string &Clang, const std::string &IncludeDir,
                                      llvm::ArrayRef<std::string> Flags,
                                      const CommandOptions &Commands);

/// The precompiled offload.hpp for a device compile's own front-end job, Cc1 (`clang -cc1 ...
/// -emit-llvm-bc ... -x c++ SOURCE`, DeviceFrontendJob.h): the same job emitting a PCH of the
/// header, less what names this compile's files; nullopt when off or not buildable. The device
/// front end parsed the headers in ~1.9 s of a small file's ~2 s; with the PCH ~0.9 s, and the
/// bitcode is the same byte for byte (docs/design.md, "CI's time").
std::optional<std::string> deviceOffloadPch(llvm::ArrayRef<std::string> Cc1, const std::string &IncludeDir,
                                            const CommandOptions &Commands);

/// Whether the precompiled offload.hpp means what Source's own #include of it means: only
/// comments, `#pragma once` and `#include <...>` of other headers before its first
/// `#include <offload/...>`, and no -include or -imacros in Flags. A macro set before the include
/// (`#define _GLIBCXX_ASSERTIONS`, a project header, `-include conf.h`) reaches the headers the
/// source includes, not those the precompiled file holds (adversarial pass: the kernel compiled
/// without the library's checks).
bool pchKeepsMeaning(llvm::StringRef Source, llvm::ArrayRef<std::string> Flags);

/// Runs Compile, which takes Pch (offloadPch's) where it is set. A compile that fails with the
/// precompiled header runs again without it; when that one succeeds the cached file was at fault
/// (damaged: a full disk, a crash, another program's write) and is removed, with one warning, so
/// that the next build makes it anew. Only the run that counts prints its messages (StderrFile
/// holds them meanwhile).
/// With Messages, the compile's messages are put there instead of printed (the warning about a
/// damaged file is still printed).
llvm::Error compileWithCachedPch(llvm::ArrayRef<std::string> Compile, const std::optional<std::string> &Pch,
                                 const std::string &StderrFile, const CommandOptions &Commands,
                                 std::string *Messages = nullptr);

} // namespace offload::compiler
