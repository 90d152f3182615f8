// compiler/LambdaSites.h — lambdas as kernels (issue 33): the rewrite that makes a lambda passed
// to offload::parallel_for a kernel both compilers name and lay out alike.
//
// g++ (the host compile) and clang (the device compiles) give a closure neither the same name nor
// always the same layout (docs/design.md, "Lambdas as kernels"), so each such call of the file
// is rewritten, in place and on its own lines, before the host and device compiles:
//   offload::parallel_for(offload::range{n}, [=](std::size_t i) { y[i] += a * x[i]; });
// becomes
//   offload::parallel_for(::offload::detail::lambda_site<ID, ::offload::detail::captures<
//       ::std::remove_reference_t<decltype(y)>, ...>, CONTEXT...>{}, offload::range{n},
//       [y, a, x](std::size_t i) { y[i] += a * x[i]; });
// — an explicit capture list in clang's capture order (both compilers lay such a list out in
// its order), and a tag naming the lambda (ID: the file and the lambda's line), its captures'
// types, and the arguments of the templates around it (one kernel per instantiation).
// offload/parallel_for.hpp turns the tagged call into a range launch of
// offload::detail::lambda_kernel<tag, captures...>.
#pragma once

#include "clang/AST/ASTContext.h"

#include <optional>
#include <string>

namespace offload::compiler {

/// Finds the file's offload::parallel_for calls that pass a lambda; checks each lambda
/// (diagnostics through Ctx at the lambda: a capture by reference, of `this`, of an array, an
/// init-capture, a call written through a macro, a lambda in a header); returns the main file
/// rewritten as above, starting with a #line directive that gives it ShownName (the name the
/// command line spells: __FILE__ and warnings as g++'s), each edit followed by the rest of its
/// line at its own column (a line break, a #line, spaces), or
/// nullopt when the file has no such call. Errors leave Ctx's diagnostics with an error.
/// Salt (the compile's flags) goes into each site's ID with the file's path: one file compiled
/// twice with other macros (-DREAL=float, -DREAL=double) is two sets of kernels.
std::optional<std::string> rewriteLambdaSites(clang::ASTContext &Ctx, llvm::StringRef Salt,
                                              llvm::StringRef ShownName = "");

/// Whether D is a `namespace offload` of offload's headers (not of the main file): its
/// templates launch the kernels that lambdas become, and are no launch site of the user's (with
/// the precompiled offload.hpp they are never traversed; without it they are parsed as source).
bool offloadHeadersNamespace(const clang::Decl *D, const clang::SourceManager &SM);

/// The line of the lambda a site's ID names (ID = hash of file and flags << 32 | line << 8 | nth
/// on the line).
inline unsigned lambdaSiteLine(unsigned long long Id) { return unsigned(Id >> 8) & 0xffffffu; }

} // namespace offload::compiler
