// compiler/HostFlags.cpp — see HostFlags.h.
#include "HostFlags.h"

#include "DepFile.h"

#include "clang/Options/Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;
namespace options = clang::options;

namespace offload::compiler {

namespace {

/// Whether a -f or -m flag that clang knows also suits the CPU image's compile (x86-64 code
/// linked into the user's program). Not: what instruments or writes files beside the object
/// (sanitizers, coverage, profiles, optimisation records), LTO and PIC (the image is an
/// ordinary PIE object), OpenMP (its calls would need clang's runtime), diagnostics (the image's
/// compile is quiet), the linker's choice, and -m flags that change the ABI's word size.
bool suitsCpuImage(StringRef F) {
  static const char *const Refused[] = {
      "-fsanitize",     "-fno-sanitize",   "-fprofile",        "-fno-profile",
      "-fcoverage",     "-fno-coverage",   "-ftest-coverage",  "-fno-test-coverage",
      "-flto",          "-fno-lto",        "-fpic",            "-fPIC",
      "-fpie",          "-fPIE",           "-fno-pic",         "-fno-PIC",
      "-fno-pie",       "-fno-PIE",        "-fopenmp",         "-fuse-ld",
      "-fdiagnostics",  "-fno-diagnostics", "-fcolor-diagnostics", "-fno-color-diagnostics",
      "-fmessage-length", "-fcaret",       "-fno-caret",       "-fshow",
      "-fno-show",      "-fmax-errors",    "-ferror-limit",    "-fsave-optimization-record",
      "-ftime-trace",   "-fsyntax-only",   "-fpch",            "-fno-pch",
      "-fmodules",      "-fno-modules",    "-fcrash-diagnostics", "-fproc-stat-report",
      "-m16",           "-m32",            "-mx32",            "-mabi=",
      // x87 arithmetic (-mfpmath=387, g++'s sse,387): clang refuses it with SSE; the CPU
      // image computes with SSE, as a GPU computes in IEEE single and double
      "-mfpmath"};
  return llvm::none_of(Refused, [&](const char *P) { return F.starts_with(P); });
}

std::string absolutePath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  return std::string(Abs);
}

} // namespace

CommandWords readCommandWords(ArrayRef<std::string> Args) {
  CommandWords Words;
  const opt::OptTable &Table = clang::getDriverOptTable();
  std::vector<const char *> Argv = {"offload-cxx"};
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  opt::InputArgList List(Argv.data(), Argv.data() + Argv.size());
  std::string Language;  // the -x in effect
  for (unsigned I = 1; I < Argv.size();) {
    if (StringRef(Argv[I]) == "--") {  // the rest are inputs
      for (++I; I < Argv.size(); ++I) {
        Words.Inputs.push_back(I - 1);
        Words.InputLanguages.push_back(Language);
      }
      break;
    }
    // Two words that clang's table does not know (takeUserFlags reads them so too).
    if (llvm::is_contained({"-Xcompiler", "-Xhost", "-Xoffload-device", "-dumpbase",
                            "-dumpbase-ext", "-aux-info", "-wrapper", "-imultiarch", "-imultilib"},
                           StringRef(Argv[I]))) {
      if (I + 1 == Argv.size())
        Words.MissingValue = Argv[I];
      I += 2;
      continue;
    }
    unsigned Next = I;
    std::unique_ptr<opt::Arg> Parsed =
        Table.ParseOneArg(List, Next, opt::Visibility(options::ClangOption));
    if (!Parsed || Next <= I || Next > Argv.size()) {  // its value is missing
      Words.MissingValue = I + 1 == Argv.size() ? std::string(Argv[I]) : "";
      ++I;
      continue;
    }
    const opt::Option O = Parsed->getOption();  // (an alias's: the option it stands for)
    const StringRef Value = Parsed->getNumValues() ? StringRef(Parsed->getValue()) : "";
    if (O.matches(options::OPT_INPUT)) {
      Words.Inputs.push_back(I - 1);
      Words.InputLanguages.push_back(Language);
    } else if (O.matches(options::OPT_x)) {
      Language = Value == "none" ? "" : Value.str();
      Words.LanguageOptions.push_back({I - 1, Next - I});
      if (Value.ends_with("-header") && Words.OtherOutput.empty())
        Words.OtherOutput = Argv[I];
    } else if (O.matches(options::OPT_c)) {
      Words.CompileOnly = true;
    } else if (O.matches(options::OPT_o)) {
      Words.Output = Value.str();
    } else if (O.matches(options::OPT_E) || O.matches(options::OPT_S) ||
               O.matches(options::OPT_M) || O.matches(options::OPT_MM) ||
               O.matches(options::OPT_fsyntax_only)) {
      if (Words.OtherOutput.empty())
        Words.OtherOutput = Argv[I];
    } else if (O.matches(options::OPT_I) || O.matches(options::OPT_isystem) ||
               O.matches(options::OPT_iquote) || O.matches(options::OPT_idirafter) ||
               O.matches(options::OPT_include) || O.matches(options::OPT_imacros) ||
               O.matches(options::OPT_D) || O.matches(options::OPT_U) ||
               O.matches(options::OPT_std_EQ) || O.matches(options::OPT_O_Group)) {
      opt::ArgStringList Rendered;  // the short form (--include-directory=X: -IX)
      Parsed->render(List, Rendered);
      if (O.matches(options::OPT_O_Group))
        Words.OptLevel = join(Rendered, "");
      else
        Words.MetadataFlags.insert(Words.MetadataFlags.end(), Rendered.begin(), Rendered.end());
    }
    I = Next;
  }
  return Words;
}

bool isSubcommand(StringRef Word) {
  return llvm::is_contained({"devices", "bundle", "compile-launcher", "link-launcher"}, Word);
}

std::vector<std::string> shortGccSpellings(ArrayRef<const char *> Args) {
  struct Spelling {
    const char *Long, *Short;
    bool TakesValue, Joined;  // -l takes its value in the same word, -dumpbase in the next
  };
  static const Spelling Spellings[] = {
      {"--library", "-l", true, true},        {"--dumpbase", "-dumpbase", true, false},
      {"--dumpdir", "-dumpdir", true, false}, {"--dumpbase-ext", "-dumpbase-ext", true, false},
      {"--pie", "-pie", false, false},        {"--static-pie", "-static-pie", false, false},
      {"--time", "-time", false, false}};
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    const StringRef A = Args[I];
    if (A == "--") {  // a launcher's command follows: its own
      Out.insert(Out.end(), Args.begin() + I, Args.end());
      break;
    }
    const auto [Name, Value] = A.split('=');
    const Spelling *S = llvm::find_if(Spellings, [&](const Spelling &S) { return Name == S.Long; });
    if (S == std::end(Spellings) || (!S->TakesValue && A.contains('=')) ||
        (S->TakesValue && !A.contains('=') && I + 1 == Args.size())) {
      Out.push_back(A.str());
      continue;
    }
    std::string V = !S->TakesValue ? "" : A.contains('=') ? Value.str() : std::string(Args[++I]);
    if (!S->TakesValue || S->Joined) {
      Out.push_back(S->Short + V);
    } else {
      Out.push_back(S->Short);
      Out.push_back(V);
    }
  }
  return Out;
}

UserFlags takeUserFlags(int &argc, char **argv, function_ref<bool(StringRef)> IsDriverOption) {
  UserFlags U;
  if (argc > 1 && isSubcommand(argv[1]))
    return U;
  const opt::OptTable &Table = clang::getDriverOptTable();
  opt::InputArgList List(argv, argv + argc);
  int Out = 1;
  // Each link argument with its place among the arguments kept for llvm::cl (UserFlags::LinkAt).
  auto addLink = [&](StringRef A) {
    U.Link.push_back(A.str());
    U.LinkAt.push_back(unsigned(Out));
  };
  auto both = [&](StringRef A) {
    U.Compile.push_back(A.str());
    addLink(A);
  };
  std::string PendingInclude;  // -Wp,-include / -Xpreprocessor -D ...: its value comes next
  std::string IncludePrefix;   // -iprefix's, for -iwithprefix and -iwithprefixbefore
  for (int I = 1; I < argc;) {
    StringRef A = argv[I];
    if (A == "--") {  // the rest are inputs
      while (I < argc)
        argv[Out++] = argv[I++];
      break;
    }
    if ((A == "-Xcompiler" || A == "-Xhost" || A == "-Xoffload-device") && I + 1 < argc) {
      if (A == "-Xoffload-device")
        U.Device.push_back(argv[I + 1]);
      else
        both(argv[I + 1]);
      I += 2;
      continue;
    }
    // GCC's long spellings that clang's table does not know (gcc.c's option_map), as their
    // short forms: --machine=X (-mX), --dump=X (-dX), --for-assembler=X (-Wa,X), --entry=X and
    // --for-linker=X (the link's), --symbolic, --no-canonical-prefixes (adversarial pass).
    {
      static constexpr std::pair<StringRef, StringRef> LongForms[] = {
          {"--machine", "-m"}, {"--dump", "-d"}, {"--for-assembler", "-Wa,"},
          {"--entry", "-e"}, {"--for-linker", "-Xlinker"}};
      bool Translated = false;
      for (auto [Long, Short] : LongForms) {
        std::string Value;
        int Words = 0;
        if (A.starts_with((Long + "=").str())) {
          Value = A.substr(Long.size() + 1).str();
          Words = 1;
        } else if (A == Long && I + 1 < argc) {
          Value = argv[I + 1];
          Words = 2;
        } else {
          continue;
        }
        if (Long == "--entry" || Long == "--for-linker") {
          addLink(Short);
          addLink(Value);
        } else {
          U.Compile.push_back((Short + Value).str());
          if (Long == "--machine")
            addLink((Short + Value).str());
        }
        I += Words;
        Translated = true;
        break;
      }
      if (Translated)
        continue;
      if (A == "--symbolic" || A == "--no-canonical-prefixes") {
        both(A.drop_front());
        ++I;
        continue;
      }
    }
    // GCC's options of two words that clang's table does not know (the second word is not an
    // input): the host compile's (and -wrapper: the link's too).
    if (llvm::is_contained({"-dumpbase", "-dumpbase-ext", "-aux-info", "-wrapper", "-imultiarch",
                            "-imultilib"},
                           A) &&
        I + 1 < argc) {
      for (int W = I; W < I + 2; ++W) {
        U.Compile.push_back(argv[W]);
        if (A == "-wrapper")
          addLink(argv[W]);
      }
      I += 2;
      continue;
    }
    unsigned Next = I;
    std::unique_ptr<opt::Arg> Parsed =
        Table.ParseOneArg(List, Next, opt::Visibility(options::ClangOption));
    if (!Parsed || Next <= unsigned(I) || Next > unsigned(argc)) {  // a value missing: as it is
      both(A);
      ++I;
      continue;
    }
    const opt::Option O = Parsed->getOption();
    const unsigned Words = Next - I;
    auto keep = [&] {  // offload-cxx's own: llvm::cl reads it
      for (unsigned W = 0; W < Words; ++W)
        argv[Out++] = argv[I + W];
    };
    const StringRef Name = A.ltrim('-').split('=').first;
    const StringRef Value = Parsed->getNumValues() ? StringRef(Parsed->getValue()) : "";
    const bool DriverOption = A.starts_with("-") && Name.size() > 1 && IsDriverOption(Name);
    if (!DriverOption && Parsed->getAlias() &&
        (O.matches(options::OPT_o) || O.matches(options::OPT_c) || O.matches(options::OPT_I) ||
         O.matches(options::OPT_D) || O.matches(options::OPT_U) || O.matches(options::OPT_O_Group) ||
         O.matches(options::OPT_l) || O.matches(options::OPT_L) || O.matches(options::OPT_v) ||
         O.matches(options::OPT_std_EQ))) {
      // GCC's long spelling of one of these (--define-macro=X, --include-directory DIR,
      // --output=F, --verbose, --compile, --std=...: clang's table knows them as aliases): its
      // short form, one word, for llvm::cl (which took `--output=F` as -o "utput=F").
      opt::ArgStringList Rendered;
      Parsed->render(List, Rendered);
      std::string Joined;
      for (const char *R : Rendered)
        Joined += R;
      static StringSaver Saved(*new BumpPtrAllocator);  // argv outlives this function
      argv[Out++] = const_cast<char *>(Saved.save(Joined).data());
    } else if (O.matches(options::OPT_INPUT) || DriverOption || O.matches(options::OPT_o) ||
               O.matches(options::OPT_c) || O.matches(options::OPT_I) ||
               O.matches(options::OPT_D) || O.matches(options::OPT_U) ||
               O.matches(options::OPT_O_Group) || O.matches(options::OPT_l) ||
               O.matches(options::OPT_L) || O.matches(options::OPT_v) ||
               O.matches(options::OPT__HASH_HASH_HASH) || O.matches(options::OPT_std_EQ)) {
      keep();
    } else if (A.starts_with("--") && O.matches(options::OPT_UNKNOWN)) {
      if (U.Unknown.empty())
        U.Unknown = A.split('=').first.str();
    } else if (O.matches(options::OPT_MD) || O.matches(options::OPT_MMD)) {
      U.Deps.Enabled = true;
      U.Deps.UserHeadersOnly = O.matches(options::OPT_MMD);
    } else if (O.matches(options::OPT_MF)) {
      U.Deps.File = Value.str();
    } else if (O.matches(options::OPT_MT)) {
      U.Deps.Targets.push_back(Value.str());
    } else if (O.matches(options::OPT_MQ)) {
      U.Deps.Targets.push_back(escapeForMake(Value));  // `$` doubled, spaces and `#` escaped
    } else if (O.matches(options::OPT_MP)) {
      U.Deps.Phony = true;
    } else if (O.matches(options::OPT_isystem) || O.matches(options::OPT_iquote) ||
               O.matches(options::OPT_idirafter)) {
      U.Preprocessor.push_back(std::string(O.getPrefixedName()));
      U.Preprocessor.push_back(absolutePath(Value));
    } else if (O.matches(options::OPT_include) || O.matches(options::OPT_imacros)) {
      // A file of the current directory named from it: absolute, so that a link run elsewhere
      // (which compiles another file's functions for a GPU) finds it.
      U.Preprocessor.push_back(std::string(O.getPrefixedName()));
      U.Preprocessor.push_back(sys::fs::exists(Value) ? absolutePath(Value) : Value.str());
    } else if (A.starts_with("-g") && !O.matches(options::OPT_UNKNOWN)) {
      U.Debug.push_back(A.str());
    } else if (A.starts_with("-Wl,") || O.matches(options::OPT_Xlinker) || A == "-T" ||
               A == "-u" || A == "-z" || A == "-e") {
      for (unsigned W = 0; W < Words; ++W)
        addLink(argv[I + W]);
    } else {
      // A precompiled header (`-x c++-header`: CMake's target_precompile_headers) is g++'s own
      // product too, with no kernel to build (adversarial pass: the .gch went through objcopy).
      const bool Header = O.matches(options::OPT_x) && Value.ends_with("-header");
      const bool Output = O.matches(options::OPT_E) || O.matches(options::OPT_S) ||
                          O.matches(options::OPT_M) || O.matches(options::OPT_MM) ||
                          O.matches(options::OPT_fsyntax_only) || Header;
      if (Output && U.OtherOutput.empty())
        U.OtherOutput = A.str();
      // Compile only: warnings, the language, the preprocessor's and assembler's own flags,
      // what prints instead of compiling. The rest reach the link too, as g++ takes them there
      // (-pthread, -f..., -m..., -static, -shared, -rdynamic).
      const bool CompileOnly = Output || (A.starts_with("-W") && !A.starts_with("-Wl,")) ||
                               O.matches(options::OPT_x) || A.starts_with("-pedantic") ||
                               A == "-w" || O.matches(options::OPT_Xpreprocessor) ||
                               O.matches(options::OPT_Xassembler) || O.matches(options::OPT_M_Group);
      for (unsigned W = 0; W < Words; ++W) {
        U.Compile.push_back(argv[I + W]);
        if (!CompileOnly)
          addLink(argv[I + W]);
      }
      // Macros and forced includes given to the preprocessor directly (-Wp,-DX,
      // -Wp,-include,f.h, -Xpreprocessor -DX, -Xpreprocessor -include -Xpreprocessor f.h) reach
      // the device compiles too, or the GPU would compile the code another way than g++.
      SmallVector<StringRef> Pieces;
      if (A.starts_with("-Wp,"))
        A.drop_front(4).split(Pieces, ',');
      else if (O.matches(options::OPT_Xpreprocessor) && Words == 2)
        Pieces.push_back(argv[I + 1]);
      // (Also the two-word spellings, -Wp,-D,X and -Xpreprocessor -D -Xpreprocessor X, and the
      // include folders, -Wp,-Idir, -Wp,-isystem,dir: the kernel compiled with another macro
      // than the host's, silently; sixth adversarial pass.)
      auto folder = [](StringRef P) { return sys::fs::exists(P) ? absolutePath(P) : P.str(); };
      for (StringRef P : Pieces) {
        if (!PendingInclude.empty()) {  // the value of the option before it
          if (PendingInclude == "-D" || PendingInclude == "-U") {
            U.Preprocessor.push_back(PendingInclude + P.str());
          } else if (PendingInclude == "-I") {
            U.Preprocessor.push_back("-I" + folder(P));
          } else {  // -include, -imacros, -isystem, -iquote, -idirafter
            U.Preprocessor.push_back(PendingInclude);
            U.Preprocessor.push_back(folder(P));
          }
          PendingInclude.clear();
        } else if ((P.starts_with("-D") || P.starts_with("-U")) && P.size() > 2) {
          U.Preprocessor.push_back(P.str());
        } else if (P.starts_with("-I") && P.size() > 2) {
          U.Preprocessor.push_back("-I" + folder(P.drop_front(2)));
        } else if (P == "-include" || P == "-imacros" || P == "-D" || P == "-U" || P == "-I" ||
                   P == "-isystem" || P == "-iquote" || P == "-idirafter") {
          PendingInclude = P.str();
        }
      }
      // g++'s include folders named from a prefix (-iprefix P -iwithprefixbefore D is -I PD,
      // -iwithprefix D is -isystem PD: GCC's c-opts.cc adds it to the system chain, whatever its
      // manual says): the folder itself, absolute, for the device compiles.
      if (O.matches(options::OPT_iprefix)) {
        IncludePrefix = Value.str();
      } else if (O.matches(options::OPT_iwithprefixbefore)) {
        U.Preprocessor.push_back("-I" + folder(IncludePrefix + Value.str()));
      } else if (O.matches(options::OPT_iwithprefix)) {
        U.Preprocessor.push_back("-isystem");
        U.Preprocessor.push_back(folder(IncludePrefix + Value.str()));
      }
      if ((A.starts_with("-f") || A.starts_with("-m")) && Words == 1 &&
          !O.matches(options::OPT_UNKNOWN) && suitsCpuImage(A))
        U.Cpu.push_back(A.str());
    }
    I = Next;
  }
  argc = Out;
  argv[argc] = nullptr;
  return U;
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

bool isLanguageFlag(StringRef F) {
  static const char *const Names[] = {"unsigned-char", "signed-char",    "char8_t",
                                      "wrapv",         "short-wchar",    "operator-names",
                                      "gnu-keywords",  "ms-extensions",  "strict-enums",
                                      "short-enums"};
  if (F == "-ansi" || F == "-trigraphs" || F.starts_with("-fexec-charset=") ||
      F.starts_with("-finput-charset=") || F.starts_with("-fwide-exec-charset="))
    return true;
  if (!F.consume_front("-f"))
    return false;
  F.consume_front("no-");
  return llvm::is_contained(Names, F);
}

} // namespace offload::compiler
