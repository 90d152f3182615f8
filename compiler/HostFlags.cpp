// compiler/HostFlags.cpp — see HostFlags.h.
#include "HostFlags.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace offload::compiler {

HostPassThrough takeHostFlags(int &argc, char **argv) {
  HostPassThrough P;
  static const char *const Subcommands[] = {"devices", "bundle", "compile-launcher",
                                            "link-launcher"};
  if (argc > 1 && llvm::is_contained(Subcommands, StringRef(argv[1])))
    return P;
  int Out = 1;
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A == "--") {  // the rest are inputs
      while (I < argc)
        argv[Out++] = argv[I++];
      break;
    }
    if ((A == "-Xcompiler" || A == "-Xhost") && I + 1 < argc) {
      P.Compile.push_back(argv[I + 1]);
      P.Link.push_back(argv[++I]);
    } else if (A.starts_with("-Wl,")) {
      P.Link.push_back(A.str());
    } else if (A.starts_with("-W") && A.size() > 2) {
      P.Compile.push_back(A.str());
    } else if (A.starts_with("-f") && A.size() > 2) {
      P.Compile.push_back(A.str());
      P.Link.push_back(A.str());
    } else {
      argv[Out++] = argv[I];
    }
  }
  argc = Out;
  argv[argc] = nullptr;
  return P;
}

bool isFloatingPointFlag(StringRef F) {
  static const char *const Names[] = {
      "fast-math",       "unsafe-math-optimizations", "finite-math-only", "math-errno",
      "signed-zeros",    "reciprocal-math",           "approx-func",      "trapping-math",
      "associative-math", "honor-nans",               "honor-infinities", "denormal-fp-math"};
  if (!F.consume_front("-f"))
    return false;
  if (F.starts_with("fp-contract="))
    return true;
  F.consume_front("no-");
  F = F.split('=').first;
  return llvm::is_contained(Names, F);
}

} // namespace offload::compiler
