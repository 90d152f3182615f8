// compiler/OffloadMentions.cpp — see OffloadMentions.h.
#include "OffloadMentions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace offload::compiler {

/// Text with its comments and the contents of its string and character literals blanked (line
/// breaks kept, so that `#include` lines stay lines). Raw strings are treated as plain ones.
std::string stripCommentsAndLiterals(StringRef T) {
  std::string Out;
  Out.reserve(T.size());
  for (size_t I = 0; I < T.size();) {
    const char C = T[I];
    if (C == '/' && I + 1 < T.size() && T[I + 1] == '/') {
      // To the line's end — and on, past a line that ends in a backslash (the comment goes on
      // there: adversarial pass), its line breaks kept.
      while (I < T.size() && T[I] != '\n') {
        if (T[I] == '\\' && I + 1 < T.size() && T[I + 1] == '\n') {
          Out += '\n';
          ++I;
        } else if (T[I] == '\\' && I + 2 < T.size() && T[I + 1] == '\r' && T[I + 2] == '\n') {
          Out += '\n';
          I += 2;
        }
        ++I;
      }
    } else if (C == '/' && I + 1 < T.size() && T[I + 1] == '*') {
      const size_t End = T.find("*/", I + 2);
      for (size_t J = I; J < (End == StringRef::npos ? T.size() : End + 2); ++J)
        if (T[J] == '\n')
          Out += '\n';
      I = End == StringRef::npos ? T.size() : End + 2;
      Out += ' ';
    } else if (C == 'R' && I + 1 < T.size() && T[I + 1] == '"' &&
               (I == 0 || !(isAlnum(T[I - 1]) || T[I - 1] == '_') ||
                StringRef("uU8L").contains(T[I - 1]))) {
      // A raw string, R"delim( ... )delim": its inner quotes end nothing (adversarial pass:
      // `R"(--backend "offload::cpu")"` was read as code after the inner quote).
      const size_t Open = T.find('(', I + 2);
      const std::string Close = ")" + T.slice(I + 2, Open).str() + "\"";
      const size_t End = Open == StringRef::npos ? StringRef::npos : T.find(Close, Open + 1);
      const size_t Stop = End == StringRef::npos ? T.size() : End + Close.size();
      Out += "\"\"";
      for (size_t J = I; J < Stop; ++J)
        if (T[J] == '\n')
          Out += '\n';
      I = Stop;
    } else if (C == '"' || C == '\'') {
      // <offload/x.hpp> is not a literal; "offload/x.hpp" in an #include is kept as written
      const size_t LineStart = T.rfind('\n', I) == StringRef::npos ? 0 : T.rfind('\n', I) + 1;
      // (so is the file of a line marker, `# 1 "…/offload/offload.hpp"`, or a #line: the
      // preprocessed output of a file that includes offload's headers)
      StringRef Directive = T.slice(LineStart, I).ltrim();
      const bool Include = C == '"' && Directive.consume_front("#") &&
                           (Directive.contains("include") || Directive.ltrim().starts_with("line") ||
                            (!Directive.trim().empty() &&
                             llvm::all_of(Directive.trim(), [](char D) { return isDigit(D); })));
      size_t J = I + 1;
      while (J < T.size() && T[J] != C && T[J] != '\n')
        J += T[J] == '\\' ? 2 : 1;
      if (Include)
        Out += T.slice(I, std::min(J + 1, T.size())).str();
      else
        Out += "\"\"";
      I = std::min(J + 1, T.size());
    } else {
      Out += C;
      ++I;
    }
  }
  return Out;
}

/// Whether code (comments and literals stripped) uses offload: an #include naming offload/, the
/// name offload:: (not the tail of another name), or OFFLOAD_KERNEL.
bool namesOffload(StringRef Code) {
  auto identifierChar = [](char C) { return isAlnum(C) || C == '_'; };
  SmallVector<StringRef> Lines;
  Code.split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.ltrim();
    if (L.consume_front("#") && L.contains("offload/") &&
        (L.ltrim().starts_with("include") || L.ltrim().starts_with("line") ||
         isDigit(L.ltrim().empty() ? ' ' : L.ltrim().front())))
      return true;  // an #include of offload's headers, or a line marker into them (a .ii)
  }
  // A file that declares its own `namespace offload` or its own OFFLOAD_KERNEL (a macro, an
  // enumerator) and includes no offload header: its names are its own (adversarial pass: such a
  // file was compiled as C++20). If a project header it includes brings offload's in after all,
  // the compile as written finds them (its dependencies) and the file is built with offload.
  auto wordAt = [&](size_t At, size_t Size) {
    return (At == 0 || !identifierChar(Code[At - 1])) &&
           (At + Size == Code.size() || !identifierChar(Code[At + Size]));
  };
  // (also its own `struct`/`class`/`union`/`enum [class]` named offload, or a namespace alias
  // `namespace offload = ...`)
  for (StringRef Key : {"namespace", "struct", "class", "union", "enum"})
    for (size_t At = Code.find(Key); At != StringRef::npos; At = Code.find(Key, At + 1))
      if (wordAt(At, Key.size())) {
        StringRef After = Code.drop_front(At + Key.size()).ltrim();
        if (Key == "enum" && (After.consume_front("class") || After.consume_front("struct")))
          After = After.ltrim();
        if (!After.consume_front("offload") || (!After.empty() && identifierChar(After.front())))
          continue;
        After = After.ltrim();
        if (Key == "namespace" ? (After.starts_with("{") || After.starts_with("::") ||
                                  (After.starts_with("=") && !After.starts_with("==")))
                               : (After.starts_with("{") || After.starts_with(":") ||
                                  After.starts_with(";") || After.starts_with("final")))
          return false;
      }
  for (size_t At = Code.find("OFFLOAD_KERNEL"); At != StringRef::npos;
       At = Code.find("OFFLOAD_KERNEL", At + 1))
    if (wordAt(At, 14)) {
      StringRef Before = Code.take_front(At).rtrim(" \t");
      StringRef After = Code.drop_front(At + 14).ltrim(" \t");
      if (Before.ends_with("define") || After.starts_with("=") || After.starts_with(",") ||
          After.starts_with("}"))
        return false;
    }
  for (size_t At = Code.find("offload::"); At != StringRef::npos; At = Code.find("offload::", At + 1)) {
    if (At > 0 && identifierChar(Code[At - 1]))
      continue;  // myoffload::
    // `a::offload::` (a namespace of the user's own) is not ours; `::offload::` is.
    StringRef Before = Code.take_front(At).rtrim();
    if (Before.consume_back("::") && !Before.rtrim().empty() && identifierChar(Before.rtrim().back()))
      continue;
    return true;
  }
  for (size_t At = Code.find("OFFLOAD_KERNEL"); At != StringRef::npos;
       At = Code.find("OFFLOAD_KERNEL", At + 1))
    if (wordAt(At, 14))
      return true;
  return false;
}

/// Whether a source file mentions offload at all (its headers, OFFLOAD_KERNEL, a launch): if
/// not, it is first compiled as the user wrote it (compileAsWritten).
bool mentionsOffload(const std::string &Source) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Source);
  if (!Text)
    return true;
  // Its headers (an #include naming offload/), its names (offload::) or its macro
  // (OFFLOAD_KERNEL), outside comments and string literals: "offload" in a comment, a string
  // (getenv("OFFLOAD_INFO")) or another identifier (USE_OFFLOAD_X) is not a use (adversarial
  // pass: such files were compiled as C++20). Offload's headers reached through a project header
  // are found by the compile as written (its dependencies).
  return namesOffload(stripCommentsAndLiterals((*Text)->getBuffer()));
}

/// Code without what lies between #if/#ifdef/#ifndef and its #endif (#elif and #else inside):
/// the lines every preprocessing of the file reads, its other directives included.
static std::string outsideConditionals(StringRef Code) {
  std::string Outside;
  Outside.reserve(Code.size());
  SmallVector<StringRef> Lines;
  Code.split(Lines, '\n');
  int Depth = 0;
  for (StringRef L : Lines) {
    if (StringRef D = L.ltrim(); D.consume_front("#")) {
      D = D.ltrim();
      if (D.starts_with("if")) {  // #if, #ifdef, #ifndef
        ++Depth;
        continue;
      }
      if (D.starts_with("endif")) {
        Depth = Depth > 0 ? Depth - 1 : 0;
        continue;
      }
    }
    if (Depth == 0)
      Outside += L.str();
    Outside += '\n';
  }
  return Outside;
}

bool mentionsOffloadOnlyConditionally(const std::string &Source) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Text = MemoryBuffer::getFile(Source);
  if (!Text)
    return false;
  const std::string Code = stripCommentsAndLiterals((*Text)->getBuffer());
  if (!namesOffload(Code))
    return false;
  return !namesOffload(outsideConditionals(Code));
}
} // namespace offload::compiler
