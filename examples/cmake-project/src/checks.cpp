// No kernel here: plain host code in a target that has offload sources.
#include <vecops/vecops.hpp>

#include <cstdio>

namespace vecops {

bool check(const char *what, double got, double expected) {
  if (got == expected)
    return true;
  std::printf("%s: got %g, expected %g\n", what, got, expected);
  return false;
}

} // namespace vecops
