// A header from a system include folder (-isystem): warnings in it are not the project's.
#pragma once
#define DROPIN_THREADS 4
static inline int dropin_unused_parameter(int x, int) { return x; }
