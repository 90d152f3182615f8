#include <offload/offload.hpp>
int main() {
  int x = ; // case:syntax
}
