// compiler/OffloadMentions.h — whether a source uses offload at all, read from its text: a file
// that does not is compiled by the host compiler exactly as written (issue 32).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace offload::compiler {

/// Text with its comments and the contents of its string and character literals blanked (line
/// breaks kept, so that `#include` lines stay lines). Raw strings are treated as plain ones.
std::string stripCommentsAndLiterals(llvm::StringRef T);

/// Whether code (comments and literals stripped) uses offload: an #include naming offload/, the
/// name offload:: (not the tail of another name), or OFFLOAD_KERNEL — unless, without such an
/// #include, the code declares its own `namespace offload` or OFFLOAD_KERNEL (a macro, an
/// enumerator): then its names are taken for its own.
bool namesOffload(llvm::StringRef Code);

/// Whether a source file mentions offload at all (its headers, OFFLOAD_KERNEL, a launch); true
/// if it cannot be read (the full build then says why).
bool mentionsOffload(const std::string &Source);
/// Whether a source mentions offload only between #if/#ifdef and #endif (`#ifdef USE_OFFLOAD`
/// `#include <offload/offload.hpp>`): whether it uses offload depends on the macros, so it is
/// first compiled as written and its dependencies say (adversarial pass: such a file was
/// compiled as C++20 when the macro was not defined).
bool mentionsOffloadOnlyConditionally(const std::string &Source);

} // namespace offload::compiler
