#include <conf.h>
int helper(int x) { return x * CONF; }
