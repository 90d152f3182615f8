#define SCALE 7
