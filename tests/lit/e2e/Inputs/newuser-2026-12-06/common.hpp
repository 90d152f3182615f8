#pragma once
#include <cstdio>
#include <cstdint>
#include <vector>
#include <span>
static int g_fail = 0, g_pass = 0; static bool g_quiet = false;
#define CHECK(cond, ...) do { if (cond) ++g_pass; else { ++g_fail; if (g_fail <= 20 && !g_quiet) { std::printf("FAIL %s:%d: ", __FILE__, __LINE__); std::printf(__VA_ARGS__); std::printf("\n"); } } } while (0)
static int finish(const char *name) {
  std::printf("%s: %s (%d checks passed, %d failed)\n", name, g_fail ? "FAIL" : "PASS", g_pass, g_fail);
  return g_fail ? 1 : 0;
}
