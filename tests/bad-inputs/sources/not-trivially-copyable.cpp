#include <offload/offload.hpp>
#include <string>
OFFLOAD_KERNEL void takes_string(std::string s) {}
int main() {
  offload::launch(takes_string, {}, std::string("text")); // case:not-trivially-copyable
}
