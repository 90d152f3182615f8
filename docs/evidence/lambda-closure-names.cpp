#include <cstdio>
#include <typeinfo>
#include <cstddef>
template <class F> void show(F) { std::printf("%s\n", typeid(F).name()); }
static void helper() { show([](std::size_t) {}); show([](std::size_t) {}); }
template <class T> void tmpl(T t) { show([=](std::size_t i) { (void)(t + i); }); }
namespace ns { inline void inl() { show([](std::size_t) {}); } struct S { void m() { show([this](std::size_t) {}); } }; }
auto global_lambda = [](std::size_t) {};
int main() {
  int k = 3;
  show([=](std::size_t i) { (void)(k + i); });
  show([=](auto i) { (void)(k + i); });
  helper(); tmpl(1); tmpl(2.0); ns::inl(); ns::S s; s.m();
  show(global_lambda);
  show([=](std::size_t) { show([=](std::size_t) {}); });
  auto outer = [=](std::size_t) { show([=](std::size_t) {}); }; outer(0);
}
