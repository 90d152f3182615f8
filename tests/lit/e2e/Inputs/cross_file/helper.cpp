#include <cmath>
#include <cstdio>
float helper(float x) { return std::sqrt(x) + 1.0f; }
static int host_only_count = 0;
void log_host(const char *what) { std::printf("host log %d: %s\n", ++host_only_count, what); }
template <class T> T triple(T x) { return 3 * x; }
template int triple<int>(int);  // defined here, for the kernels of other files
