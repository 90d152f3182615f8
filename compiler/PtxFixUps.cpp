// compiler/PtxFixUps.cpp — see PtxFixUps.h.
#include "PtxFixUps.h"

#include "Subprocess.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

using namespace llvm;

namespace offload::compiler {

std::string quoteSafeFileDirectives(StringRef Ptx) {
  SmallVector<StringRef> Lines;
  Ptx.split(Lines, '\n');
  std::string Out;
  for (StringRef Line : Lines) {
    StringRef T = Line.ltrim();
    size_t First = T.find('"'), Last = T.rfind('"');
    if (T.starts_with(".file") && First != StringRef::npos && Last > First &&
        T.substr(First + 1, Last - First - 1).contains('"')) {
      std::string Path = T.substr(First + 1, Last - First - 1).str();
      std::replace(Path.begin(), Path.end(), '"', '\'');
      Out += (Line.take_front(Line.size() - T.size()) + T.substr(0, First + 1) + Path +
              T.substr(Last))
                 .str();
    } else {
      Out += Line;
    }
    Out += '\n';
  }
  Out.pop_back();
  return Out;
}

namespace {

/// One PTX instruction line: its opcode and operands, without guard, spaces or ';'. Directives,
/// labels, comments and braces are not instructions.
struct Instruction {
  StringRef Opcode;
  SmallVector<StringRef, 4> Operands;
  bool Guarded = false;  // @%p ...: written only when the predicate holds
};

bool parseInstruction(StringRef Line, Instruction &I) {
  StringRef T = Line.trim();
  if (T.empty() || !T.ends_with(";") || T.starts_with(".") || T.starts_with("//") ||
      T.starts_with("{") || T.starts_with("}"))
    return false;
  T = T.drop_back().rtrim();
  I.Guarded = T.starts_with("@");
  if (I.Guarded)  // @%p1 or @!%p1
    T = T.split(' ').second.ltrim();
  auto [Opcode, Rest] = T.split(' ');
  I.Opcode = Opcode.trim();
  I.Operands.clear();
  Rest = Rest.trim();
  // Operands split at the commas outside braces and brackets.
  int Depth = 0;
  size_t Start = 0;
  for (size_t K = 0; K <= Rest.size(); ++K) {
    char C = K < Rest.size() ? Rest[K] : ',';
    if (C == '{' || C == '[' || C == '(')
      ++Depth;
    else if (C == '}' || C == ']' || C == ')')
      --Depth;
    else if (C == ',' && Depth == 0) {
      StringRef Op = Rest.slice(Start, K).trim();
      if (!Op.empty())
        I.Operands.push_back(Op);
      Start = K + 1;
    }
  }
  return !I.Opcode.empty();
}

/// The registers an instruction writes: its first operand, or the registers of a {..} list
/// there; none for stores, branches and other instructions whose first operand is not written.
SmallVector<StringRef, 4> definedRegisters(const Instruction &I) {
  SmallVector<StringRef, 4> Regs;
  if (I.Operands.empty() || I.Opcode.starts_with("st") || I.Opcode.starts_with("bra") ||
      I.Opcode.starts_with("bar") || I.Opcode.starts_with("red") || I.Opcode.starts_with("call") ||
      I.Opcode.starts_with("ret") || I.Opcode.starts_with("prefetch"))
    return Regs;
  StringRef First = I.Operands.front();
  if (First.starts_with("[") || First.starts_with("("))
    return Regs;
  SmallVector<StringRef, 4> Parts;
  First.trim("{}").split(Parts, ',');
  for (StringRef P : Parts)
    for (StringRef R : {P.split('|').first, P.split('|').second})
      if (R.trim().starts_with("%"))
        Regs.push_back(R.trim());
  return Regs;
}

bool parseInteger(StringRef Text, int64_t &Value) {
  return !Text.getAsInteger(10, Value);
}

/// splitHighHalfAdds on one function's lines.
void splitInFunction(MutableArrayRef<std::string> Lines, unsigned &Rewritten) {
  // Each line parsed once (its operands point into the line, which only the last loop below
  // replaces, after reading them).
  std::vector<std::optional<Instruction>> Parsed(Lines.size());
  StringMap<unsigned> Definitions;
  for (size_t K = 0; K < Lines.size(); ++K) {
    Instruction I;
    if (!parseInstruction(Lines[K], I))
      continue;
    for (StringRef R : definedRegisters(I))
      ++Definitions[R];
    Parsed[K] = std::move(I);
  }
  struct HighHalf {  // a register's high half: of Base, plus (or times) Value
    std::string Base;
    int32_t Value;
  };
  StringMap<HighHalf> HighAdds;  // A -> (B, C) for add.s64 A, B, C*2^32
  // B -> (X, K) for mul.lo.s64 B, X, K*2^32 or shl.b64 B, X, 32 (K = 1): B's high half is
  // the low half of X times K.
  StringMap<HighHalf> HighProducts;
  for (const std::optional<Instruction> &I : Parsed) {
    int64_t Value;
    if (!I || I->Guarded || I->Operands.size() != 3 || !parseInteger(I->Operands[2], Value) ||
        Value == 0)
      continue;
    const auto High = static_cast<int32_t>(static_cast<uint64_t>(Value) >> 32);
    if (I->Opcode == "add.s64" && (Value & 0xffffffffLL) == 0)
      HighAdds[I->Operands[0]] = {I->Operands[1].str(), High};
    else if (I->Opcode == "mul.lo.s64" && (Value & 0xffffffffLL) == 0)
      HighProducts[I->Operands[0]] = {I->Operands[1].str(), High};
    else if (I->Opcode == "shl.b64" && Value == 32)
      HighProducts[I->Operands[0]] = {I->Operands[1].str(), 1};
  }
  if (HighAdds.empty())
    return;
  for (size_t K = 0; K < Lines.size(); ++K) {
    const std::optional<Instruction> &I = Parsed[K];
    if (!I || I->Guarded || I->Opcode != "shr.s64" || I->Operands.size() != 3 ||
        I->Operands[2] != "32")
      continue;
    auto It = HighAdds.find(I->Operands[1]);
    if (It == HighAdds.end() || Definitions.lookup(I->Operands[1]) != 1 ||
        Definitions.lookup(It->second.Base) != 1)
      continue;
    std::string &Line = Lines[K];
    const std::string Indent = Line.substr(0, Line.find_first_not_of(" \t"));
    const std::string C = std::to_string(It->second.Value), D = I->Operands[0].str();
    auto Product = HighProducts.find(It->second.Base);
    if (Product != HighProducts.end() && Definitions.lookup(Product->second.Base) == 1)
      // All in 32 bits: lo(X) * K + C, widened (ptxas still miscompiled the form below when B
      // was such a product: gpu-regressions/ptxas-13.0/small-20023.cpp, k20023_27).
      Line = Indent + "{ .reg .b32 %ofx_lo, %ofx_hi; cvt.u32.u64 %ofx_lo, " +
             Product->second.Base + "; mad.lo.s32 %ofx_hi, %ofx_lo, " +
             std::to_string(Product->second.Value) + ", " + C + "; cvt.s64.s32 " + D +
             ", %ofx_hi; }";
    else
      Line = Indent + "{ .reg .b32 %ofx_lo, %ofx_hi; mov.b64 {%ofx_lo, %ofx_hi}, " +
             It->second.Base + "; add.s32 %ofx_hi, %ofx_hi, " + C + "; cvt.s64.s32 " + D +
             ", %ofx_hi; }";
    ++Rewritten;
  }
}

} // namespace

std::string splitHighHalfAdds(StringRef Ptx, unsigned *Rewritten) {
  std::vector<std::string> Lines;
  SmallVector<StringRef> Parts;
  Ptx.split(Parts, '\n');
  for (StringRef P : Parts)
    Lines.push_back(P.str());
  unsigned Count = 0;
  // A function's body ends at a '}' in the first column (nested blocks are indented).
  size_t Begin = 0;
  for (size_t K = 0; K < Lines.size(); ++K)
    if (StringRef(Lines[K]).starts_with("}")) {
      splitInFunction(MutableArrayRef<std::string>(Lines).slice(Begin, K - Begin), Count);
      Begin = K + 1;
    }
  if (Rewritten)
    *Rewritten = Count;
  if (Count == 0)
    return Ptx.str();
  std::string Out;
  for (const std::string &L : Lines)
    Out += L + '\n';
  Out.pop_back();
  return Out;
}

Error fixUpPtxFile(const std::string &PtxPath) {
  auto Buffer = MemoryBuffer::getFile(PtxPath, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createFileError(PtxPath, Buffer.getError());
  const StringRef Original = (*Buffer)->getBuffer();
  const std::string Fixed = splitHighHalfAdds(quoteSafeFileDirectives(Original));
  if (Fixed == Original)
    return Error::success();
  return writeFile(PtxPath, Fixed);
}

} // namespace offload::compiler
