#define EXTRA 7
