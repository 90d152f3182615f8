__attribute__((weak)) float helper(float v) { return v + 100.0f; }
