#define CONF_FACTOR 2
