#include <cstdio>
#include <cstring>
#include <source_location>
#include <cstddef>
template <class F> void dump(const char *what, const F &f, std::source_location w = std::source_location::current()) {
  unsigned char b[sizeof(F)]; std::memcpy(b, &f, sizeof(F));
  std::printf("%s line %u col %u size %zu:", what, w.line(), w.column(), sizeof(F));
  for (std::size_t i = 0; i < sizeof(F); ++i) std::printf(" %02x", b[i]);
  std::printf("\n");
}
int main() {
  char c = 0x11; double d = 0; int i = 0x22222222; short s = 0x3333; const int k = 0x44; long long q = 0x5555555555555555;
  std::memset(&d, 0x66, 8);
  dump("first-use", [=](std::size_t) { return s + i + c + d; });
  dump("nested", [=](std::size_t) { auto g = [=] { return q + c; }; return i + g(); });
  dump("constexpr-k", [=](std::size_t) { return k + i; });
  dump("decltype", [=](std::size_t) { decltype(d) x = 0; return x + sizeof(q) + c; });
  dump("ifconstexpr", [=](std::size_t) { if constexpr (sizeof(int) == 8) return q + i; else return c + i; });
  dump("sizeof-only", [=](std::size_t) { return sizeof(d) + s; });
  dump(
     "multi-line",
     [=](std::size_t) {
       return c; });
}
