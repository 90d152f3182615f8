// compiler/HostFlags.h — the host compiler's flags on offload-cxx's command line: taken out of
// argv before LLVM's option parser sees them (it registers options of its own named W and
// f...), and the floating-point ones among them, which the device compiles get as well.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace offload::compiler {

/// Host compiler flags passed through: -f<flag> and -W<flag> go to the host compile and link
/// (-fsanitize=thread reaches both), -Wl,<args> to the link only, -Xcompiler <arg> (-Xhost <arg>)
/// to both.
struct HostPassThrough {
  std::vector<std::string> Compile, Link;
};

/// Removes the host compiler's flags from argv (argc shrinks) and returns them. Not for
/// subcommands, and nothing after `--`: a launcher's command is its own.
HostPassThrough takeHostFlags(int &argc, char **argv);

/// Whether F is a -f flag about floating-point semantics (-ffast-math, -fno-math-errno,
/// -ffp-contract=...), which the device compiles get too: -ffast-math on a GPU means what it
/// means on the host.
bool isFloatingPointFlag(llvm::StringRef F);

} // namespace offload::compiler
