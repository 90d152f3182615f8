// compiler/BundleUserFiles.h — what a user put in a bundle's folder survives a rebuild of the
// bundle (issue 32): the bundle's marker lists every file offload-cxx wrote there, and a rebuild
// replaces those in place, leaving whatever else the folder holds (input data, notes, results).
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace offload::compiler {

/// The files, symbolic links and empty folders under Dir, as paths relative to it ('/'
/// separators), in order; symbolic links are not followed.
std::vector<std::string> entriesUnder(const std::string &Dir);

/// Appends to the marker file Dir/Marker the list of what the bundle in Dir holds.
llvm::Error recordBundleContents(const std::string &Dir, llvm::StringRef Marker);

/// Brings the bundle Old up to the new bundle made in Stage, in place: offload-cxx's files of
/// Stage move into Old (each replacing its old one), those it wrote before (Old's marker list; for
/// a bundle made before the list, bin/ and lib/ and what the new bundle writes) and writes no
/// more go, and everything else in Old — the user's — stays untouched. A user's file at a path
/// the new bundle writes is an error that changes nothing.
llvm::Error updateBundleInPlace(const std::string &Old, const std::string &Stage, llvm::StringRef Marker);

} // namespace offload::compiler
