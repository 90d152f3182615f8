#include "conf.h"
#if __has_include("extra.h")
#include "extra.h"
#endif
#ifndef EXTRA
#define EXTRA 0
#endif
int helper(int x) { return x * CONF + EXTRA; }
