float helper(float v) { return v + 500.0f; }
