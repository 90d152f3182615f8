#define CONF 2
