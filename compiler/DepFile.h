// compiler/DepFile.h — the dependency file a build system asks for (-MD/-MMD, -MF, -MT, -MQ,
// -MP), written by offload-cxx itself: each compile it runs for a source (the host compile, the
// host-metadata parse, each device compile) writes its own make rule in a temporary file; they
// are merged here into one rule for the target the user named, so that touching a header that
// only a kernel's compile reads rebuilds the object too.
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace offload::compiler {

/// The prerequisites of the make rule(s) in Text (a compiler's -MD output), unescaped, in order.
std::vector<std::string> readDepFileText(llvm::StringRef Text);

/// The dependency file's text: `Targets: Deps` (escaped for make, wrapped as g++ wraps), and
/// with Phony an empty rule for each prerequisite but the first (the source), as -MP.
/// Path as make reads a target or prerequisite: spaces and `#` escaped, `$` doubled (what
/// g++ does for -MQ and its default target).
std::string escapeForMake(llvm::StringRef Path);

std::string depFileText(llvm::ArrayRef<std::string> Targets, llvm::ArrayRef<std::string> Deps,
                        bool Phony);

/// Merges the rules of Inputs (missing files skipped; each path once; files in SkipDir, the
/// build's temporary folder, and SkipFiles left out) after Sources (the user's sources, first as
/// g++ lists them) and writes them to Path (whole, or not at all) for Targets.
/// The -I folders as the user spelled them, by the absolute paths every compile is given: a
/// header found through a relative `-Iinc` is written `inc/gen.h` in dependency files, as g++
/// writes it (make took the absolute spelling for another file: a rule making the header was
/// never used, adversarial pass).
void setIncludeSpellings(std::vector<std::pair<std::string, std::string>> AbsoluteToSpelled);

llvm::Error writeMergedDepFile(const std::string &Path, llvm::ArrayRef<std::string> Targets,
                               llvm::ArrayRef<std::string> Inputs, bool Phony,
                               llvm::StringRef SkipDir,
                               llvm::ArrayRef<std::string> Sources = {},
                               llvm::ArrayRef<std::string> SkipFiles = {});

/// Puts right the dependency file g++ wrote at Path for the compile of Rewrite, a lambda file's
/// rewrite in SkipDir standing for Source (-Wp,-MD,Path, DEPENDENCIES_OUTPUT,
/// SUNPRO_DEPENDENCIES: options g++ acts on by itself): the target g++ derived from the rewrite's
/// name becomes the one it derives from Source's (`k.o`; a target the user named is kept), Source
/// comes first and nothing in SkipDir is listed; the prerequisites of the dependency files More
/// (the device compiles') are added. Rewrite may be Source (a file without lambdas: only
/// More's headers added). A missing file is left missing.
llvm::Error retargetRewriteDepFile(const std::string &Path, llvm::StringRef Source,
                                   llvm::StringRef Rewrite, llvm::StringRef SkipDir,
                                   llvm::ArrayRef<std::string> More = {});

} // namespace offload::compiler
