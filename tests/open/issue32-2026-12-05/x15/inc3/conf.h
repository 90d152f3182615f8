#define CONF 9
