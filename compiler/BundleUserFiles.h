// compiler/BundleUserFiles.h — what a user put in a bundle's folder survives a rebuild of the
// bundle (issue 32): the bundle's marker lists every file offload-cxx wrote there, and a rebuild
// copies whatever else the old folder holds (input data, notes, results) into the new one.
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

/// Copies into the new bundle Stage everything of the old bundle Old that offload-cxx did not
/// write (not in Old's marker list; for a bundle made before the list, anything outside bin/
/// and lib/ that the new bundle does not write). A user's file at a path the new bundle writes
/// is an error that changes nothing. Old itself is not changed.
llvm::Error carryUserFiles(const std::string &Old, const std::string &Stage, llvm::StringRef Marker);

} // namespace offload::compiler
