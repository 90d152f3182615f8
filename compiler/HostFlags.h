// compiler/HostFlags.h — offload-cxx takes every option g++ takes. Before LLVM's option parser
// sees argv, each argument is read with clang's own driver option table (which knows how many
// words each GCC option takes: `-MT target`, `-isystem dir`, `-x c++`): offload-cxx's own options
// (its option category, and -o, -c, -I, -D, -U, -std=, -O, -l, -L, -v, -###) stay for llvm::cl;
// every other one is sorted here into where it belongs — the host compile, the host link, the
// compiles of device code, the dependency file — and never refused.
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>
#include <vector>

namespace offload::compiler {

/// -MD, -MMD, -MF, -MT, -MQ, -MP: the dependency file a build system asks for. offload-cxx
/// writes it itself, from the dependencies of every compile it ran (DepFile.h).
struct DepFileOptions {
  bool Enabled = false;          ///< -MD or -MMD
  bool UserHeadersOnly = false;  ///< -MMD: no system headers
  bool Phony = false;            ///< -MP: a phony target for each header
  std::string File;              ///< -MF (default: the object's name, .d for its extension)
  std::vector<std::string> Targets;  ///< -MT as written, -MQ already quoted for make
};

/// The user's flags that are not offload-cxx's own options, sorted by where they go.
struct UserFlags {
  /// The host compile: all but -Wl/-Xlinker; the host link: all but -W, -x, -M and the
  /// preprocessor's. -Xcompiler <arg> and -Xhost <arg> go to both.
  std::vector<std::string> Compile, Link;
  /// For each of Link, its place among the arguments left in argv for llvm::cl: it came before
  /// argv[LinkAt] (llvm::cl's position of an input, -l or -L) and after the one before. The link
  /// keeps the user's order (`a.o -Wl,--whole-archive libx.a -Wl,--no-whole-archive`,
  /// `-Wl,-Bstatic -lu -Wl,-Bdynamic` mean nothing in another order).
  std::vector<unsigned> LinkAt;
  /// -isystem, -iquote, -idirafter, -include, -imacros (folders made absolute): every compile —
  /// the host-metadata parse, the device compiles and the host compile — as -I and -D are.
  std::vector<std::string> Preprocessor;
  /// The CPU image's compile and lowering (arch "host", x86-64 code like the host's): -m flags
  /// (-march=native, -mtune=, -mavx2) and the -f flags clang knows (not sanitizers, coverage,
  /// LTO, PIC and diagnostics, which are the host compile's business). Never a GPU compile's.
  std::vector<std::string> Cpu;
  /// -g flags: the host compile and link, and the CPU image (host code the user debugs).
  std::vector<std::string> Debug;
  /// -Xoffload-device <arg>: every device compile (each GPU architecture and the CPU image).
  std::vector<std::string> Device;
  DepFileOptions Deps;
  /// -E, -S, -M, -MM, -fsyntax-only (the first one given): no object to build; the host compiler
  /// does the whole job alone.
  std::string OtherOutput;
  /// The first `--name` option that neither offload-cxx nor g++ (clang's table) knows: a typo,
  /// refused with one line rather than passed to g++.
  std::string Unknown;
};

/// Removes the user's flags from argv (argc shrinks) and returns them sorted. IsDriverOption
/// says whether a long option's name (without dashes and value) is offload-cxx's own. Not for
/// subcommands, and nothing after `--`: a launcher's command is its own.
/// Whether `Word` (the first argument) names one of offload-cxx's subcommands (devices, bundle,
/// compile-launcher, link-launcher), whose arguments are their own.
bool isSubcommand(llvm::StringRef Word);

/// GCC's long spellings that clang's option table does not know (`--library X`, `--dumpbase X`,
/// `--dumpdir X`, `--dumpbase-ext X`, `--pie`, `--static-pie`, `--time`), in their short forms,
/// as g++ reads them; every other word as it is, and everything from a `--` on.
std::vector<std::string> shortGccSpellings(llvm::ArrayRef<const char *> Args);

UserFlags takeUserFlags(int &argc, char **argv,
                        llvm::function_ref<bool(llvm::StringRef)> IsDriverOption);

/// The words of a command line as g++ reads them (clang's option table, which knows how many
/// words each of g++'s options takes): the indices of its inputs, and the last option if it
/// ends the line without the value it takes (`-c k.cpp -I`), else "". GCC's long spellings are
/// read as their short forms (--compile as -c, --output=X and --output X as -o X).
struct CommandWords {
  std::vector<std::size_t> Inputs;
  std::string MissingValue;
  /// For each of Inputs: the language of the -x in effect before it ("" without one, or after
  /// `-x none`: g++ goes by the name).
  std::vector<std::string> InputLanguages;
  /// Where each -x stands, and how many words it takes (`-x c++`: 2, `-xc++`: 1).
  std::vector<std::pair<std::size_t, std::size_t>> LanguageOptions;
  bool CompileOnly = false;  ///< -c
  std::string Output;        ///< -o's (the last one), else ""
  /// -E, -S, -M, -MM, -fsyntax-only or a -x ...-header (the first one given): the command
  /// writes no object (as UserFlags::OtherOutput).
  std::string OtherOutput;
  /// -I, -isystem, -iquote, -idirafter, -include, -imacros, -D, -U and -std= in their short
  /// forms: what a parse of the command's sources needs (compile-launcher's host-metadata pass).
  std::vector<std::string> MetadataFlags;
  std::string OptLevel;  ///< the last -O (-O2, -Ofast, -Os), else ""
};
CommandWords readCommandWords(llvm::ArrayRef<std::string> Args);

/// Whether F changes what the language means for the same text (-funsigned-char, -fwrapv,
/// -fno-char8_t, -ansi, ...): such a flag reaches every compile of the file, the device's too —
/// a GPU built with signed char computes another function than g++'s unsigned one.
bool isLanguageFlag(llvm::StringRef F);

/// Whether F is a -f flag about floating-point semantics (-ffast-math, -fno-math-errno,
/// -ffp-contract=...), which the device compiles get too: -ffast-math on a GPU means what it
/// means on the host.
bool isFloatingPointFlag(llvm::StringRef F);

} // namespace offload::compiler
