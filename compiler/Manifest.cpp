// compiler/Manifest.cpp — see Manifest.h.
#include "Manifest.h"
#include <offload/abi.hpp>

#include <optional>
#include "Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;

namespace offload::compiler {

void Manifest::addKernel(ManifestKernel K) {
  auto Same = [&](const ManifestKernel &E) { return E.HostSymbol == K.HostSymbol; };
  auto It = std::find_if(Kernels.begin(), Kernels.end(), Same);
  if (It == Kernels.end()) {
    Kernels.push_back(std::move(K));
    return;
  }
  // The same instantiation seen from several files: a file that only declares the kernel cannot
  // see its barriers, the file that defines it can — whichever comes first on the link line.
  It->UsesBarriers |= K.UsesBarriers;
  It->Defined |= K.Defined;
  It->FromArchive &= K.FromArchive;
}

bool includablePath(StringRef Path) {
  return !Path.contains('\n') && !Path.contains('\r') &&
         !(Path.contains('"') && Path.contains('>'));
}

std::string lineDirective(const Manifest &M, const ManifestKernel &K) {
  const auto [File, Line] = StringRef(K.DeclaredAt).rsplit(':');
  unsigned Number = 0;
  if (File.empty() || Line.getAsInteger(10, Number) || Number == 0)
    return "";
  // DeclaredAt names the file only: the source's path where it is the source.
  const StringRef Path = sys::path::filename(M.Source) == File ? StringRef(M.Source) : File;
  std::string Escaped;
  for (char C : Path) {
    if (C == '"' || C == '\\')
      Escaped += '\\';
    Escaped += C;
  }
  return "#line " + std::to_string(Number) + " \"" + Escaped + "\"\n";
}

std::string includeDirective(StringRef Path) {
  return Path.contains('"') ? ("#include <" + Path + ">\n").str()
                            : ("#include \"" + Path + "\"\n").str();
}

std::optional<offload::abi::param_kind> paramKind(StringRef Name) {
  using offload::abi::param_kind;
  for (param_kind K : {param_kind::map_tofrom, param_kind::map_to, param_kind::literal,
                       param_kind::value_copy, param_kind::span_tofrom, param_kind::span_to,
                       param_kind::device, param_kind::unmappable})
    if (Name == offload::abi::param_kind_name(K))
      return K;
  return std::nullopt;
}

std::string deviceEntryName(StringRef HostSymbol) {
  return ("__offload_entry" + HostSymbol).str();
}

Error checkRegularFile(StringRef Path) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return createFileError(Path, EC);
  if (Status.type() != sys::fs::file_type::regular_file)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '%s': it is not a regular file", Path.str().c_str());
  return Error::success();
}

Expected<std::string> sourceHash(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createFileError(Path, Buffer.getError());
  return utohexstr(xxh3_64bits(arrayRefFromStringRef((*Buffer)->getBuffer())), /*LowerCase=*/true);
}

std::string changedSinceCompiled(const Manifest &M) {
  auto differs = [](const std::string &Path, const std::string &Hash) {
    if (Hash.empty())
      return false;  // not recorded
    Expected<std::string> Now = sourceHash(Path);
    if (!Now) {
      consumeError(Now.takeError());
      return true;
    }
    return *Now != Hash;
  };
  if (differs(M.Source, M.SourceHash))
    return M.Source;
  for (const auto &[Path, Hash] : M.Headers)
    if (differs(Path, Hash))
      return Path;
  return "";
}

void recordProjectHeader(Manifest &M, StringRef Path, StringRef OffloadIncludeDir) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  const StringRef P = Abs;
  if (P == M.Source || P.starts_with("/usr/") || P.ends_with(".pch") || P.ends_with(".gch") ||
      (!OffloadIncludeDir.empty() && P.starts_with((OffloadIncludeDir + "/").str())) ||
      llvm::any_of(M.Headers, [&](const auto &H) { return H.first == P; }))
    return;
  if (Expected<std::string> Hash = sourceHash(P))
    M.Headers.push_back({P.str(), *Hash});
  else
    consumeError(Hash.takeError());
}

std::string toJSON(const Manifest &M) {
  json::Array Kernels;
  for (const ManifestKernel &K : M.Kernels) {
    json::Array Params;
    for (const ManifestParam &P : K.Params)
    {
      json::Object Param{{"name", P.Name}, {"type", P.Type}, {"kind", offload::abi::param_kind_name(P.Kind)}};
      if (P.Restrict)  // written only when set
        Param["restrict"] = true;
      if (P.Slots != 1)
        Param["slots"] = P.Slots;
      if (P.Bytes != 0)
        Param["bytes"] = static_cast<std::int64_t>(P.Bytes);
      Params.push_back(std::move(Param));
    }
    Kernels.push_back(json::Object{{"name", K.Name},
                                   {"host_symbol", K.HostSymbol},
                                   {"entry", K.Entry},
                                   {"callee", K.Callee},
                                   {"declared_at", K.DeclaredAt},
                                   {"uses_barriers", K.UsesBarriers},
                                   {"defined", K.Defined},
                                   {"params", std::move(Params)}});
  }
  json::Object Root{{"format", "offload-cxx-manifest"},
                    {"version", Manifest::CurrentVersion},
                    {"source", M.Source},
                    {"source_hash", M.SourceHash},
                    {"compile_args", json::Array(M.CompileArgs)},
                    {"kernels", std::move(Kernels)}};
  if (!M.Exports.empty()) {
    json::Array Exports;
    for (const ManifestExport &E : M.Exports)
    {
      json::Object Export{{"symbol", E.Symbol}, {"callee", E.Callee},
                          {"uses_barriers", E.UsesBarriers}};
      if (E.Weak)
        Export["weak"] = true;
      Exports.push_back(std::move(Export));
    }
    Root["exports"] = std::move(Exports);
  }
  if (M.ExportsDeferred)
    Root["exports_deferred"] = true;
  if (!M.Headers.empty()) {
    json::Array Headers;
    for (const auto &[Path, Hash] : M.Headers)
      Headers.push_back(json::Object{{"path", Path}, {"hash", Hash}});
    Root["headers"] = std::move(Headers);
  }
  std::string Text;
  raw_string_ostream OS(Text);
  OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
  return Text;
}

Expected<Manifest> parseManifest(StringRef JSONText, StringRef Origin) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "manifest '" + Origin + "' is not valid: " + Why);
  };
  Expected<json::Value> Parsed = json::parse(JSONText);
  if (!Parsed)
    return Fail(toString(Parsed.takeError()));
  const json::Object *Root = Parsed->getAsObject();
  if (!Root || Root->getString("format") != "offload-cxx-manifest")
    return Fail("not an offload-cxx manifest");
  if (Root->getInteger("version") != Manifest::CurrentVersion)
    return Fail("version " + std::to_string(Root->getInteger("version").value_or(-1)) +
                ", this offload-cxx reads version " + std::to_string(Manifest::CurrentVersion));

  Manifest M;
  auto Str = [](const json::Object &O, StringRef Key) -> std::optional<std::string> {
    if (auto S = O.getString(Key))
      return S->str();
    return std::nullopt;
  };
  if (auto S = Str(*Root, "source"))
    M.Source = *S;
  else
    return Fail("missing \"source\"");
  if (auto S = Str(*Root, "source_hash"))  // optional: manifests of earlier builds lack it
    M.SourceHash = *S;
  if (const json::Array *Args = Root->getArray("compile_args"))
    for (const json::Value &A : *Args) {
      if (auto S = A.getAsString())
        M.CompileArgs.push_back(S->str());
      else
        return Fail("\"compile_args\" holds a non-string");
    }
  const json::Array *Kernels = Root->getArray("kernels");
  if (!Kernels)
    return Fail("missing \"kernels\"");
  for (const json::Value &KV : *Kernels) {
    const json::Object *KO = KV.getAsObject();
    if (!KO)
      return Fail("a kernel is not an object");
    ManifestKernel K;
    for (auto [Key, Field] : {std::pair{"name", &K.Name},
                              {"host_symbol", &K.HostSymbol},
                              {"entry", &K.Entry},
                              {"callee", &K.Callee},
                              {"declared_at", &K.DeclaredAt}}) {
      auto S = Str(*KO, Key);
      if (!S || (S->empty() && StringRef(Key) != "declared_at"))
        return Fail(Twine("a kernel lacks \"") + Key + "\"");
      *Field = *S;
    }
    K.UsesBarriers = KO->getBoolean("uses_barriers").value_or(true);
    K.Defined = KO->getBoolean("defined").value_or(true);
    if (K.Entry != deviceEntryName(K.HostSymbol))
      return Fail("kernel '" + K.Name + "': entry does not match its host symbol");
    const json::Array *Params = KO->getArray("params");
    if (!Params)
      return Fail("kernel '" + K.Name + "' lacks \"params\"");
    for (const json::Value &PV : *Params) {
      const json::Object *PO = PV.getAsObject();
      auto Type = PO ? Str(*PO, "type") : std::nullopt;
      auto Kind = PO ? Str(*PO, "kind") : std::nullopt;
      if (!Type || !Kind)
        return Fail("kernel '" + K.Name + "': a parameter lacks \"type\" or \"kind\"");
      std::optional<offload::abi::param_kind> ParamKind = paramKind(*Kind);
      if (!ParamKind)
        return Fail("kernel '" + K.Name + "': parameter " + Twine(K.Params.size()) +
                    " has the unknown kind \"" + *Kind +
                    "\" (offload/abi.hpp's param_kind_name spells the kinds)");
      const std::int64_t Slots =
          PO->getInteger("slots").value_or(offload::abi::slot_count(*ParamKind));
      if (Slots < 1 || Slots > 1 + std::int64_t(offload::abi::max_literal_bytes / 8) ||
          (*ParamKind != offload::abi::param_kind::literal &&
           Slots != offload::abi::slot_count(*ParamKind)))
        return Fail("kernel '" + K.Name + "': parameter " + Twine(K.Params.size()) +
                    " has a slot count (" + Twine(Slots) + ") its kind cannot have");
      const std::int64_t Bytes = PO->getInteger("bytes").value_or(0);
      if (Bytes < 0)
        return Fail("kernel '" + K.Name + "': parameter " + Twine(K.Params.size()) +
                    " has a negative size (" + Twine(Bytes) + ")");
      K.Params.push_back({Str(*PO, "name").value_or(""), *Type, *ParamKind,
                          PO->getBoolean("restrict").value_or(false), unsigned(Slots),
                          static_cast<std::uint64_t>(Bytes)});
    }
    M.Kernels.push_back(std::move(K));
  }
  M.ExportsDeferred = Root->getBoolean("exports_deferred").value_or(false);
  if (const json::Array *Headers = Root->getArray("headers"))
    for (const json::Value &HV : *Headers) {
      const json::Object *HO = HV.getAsObject();
      auto Path = HO ? Str(*HO, "path") : std::nullopt;
      auto Hash = HO ? Str(*HO, "hash") : std::nullopt;
      if (!Path || !Hash)
        return Fail("a header lacks \"path\" or \"hash\"");
      M.Headers.push_back({*Path, *Hash});
    }
  if (const json::Array *Exports = Root->getArray("exports"))
    for (const json::Value &EV : *Exports) {
      const json::Object *EO = EV.getAsObject();
      auto Symbol = EO ? Str(*EO, "symbol") : std::nullopt;
      auto Callee = EO ? Str(*EO, "callee") : std::nullopt;
      if (!Symbol || !Callee || Symbol->empty() || (Callee->empty() && !M.ExportsDeferred))
        return Fail("an export lacks \"symbol\" or \"callee\"");
      M.Exports.push_back({*Symbol, *Callee, EO->getBoolean("uses_barriers").value_or(false),
                           EO->getBoolean("weak").value_or(false)});
    }
  return M;
}

Expected<Manifest> readManifest(StringRef Path) {
  if (Error E = checkRegularFile(Path))
    return E;
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createFileError(Path, Buffer.getError());
  return parseManifest((*Buffer)->getBuffer(), Path);
}

Error writeManifest(const Manifest &M, StringRef Path) {
  return writeFile(Path, toJSON(M));
}

} // namespace offload::compiler
