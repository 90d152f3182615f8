int helper(int x) {
#if defined(linux) && !defined(__STRICT_ANSI__) && __cplusplus == 201703L
  return x * 2;
#else
  return x * 9;
#endif
}
