#define EXTRA 1
