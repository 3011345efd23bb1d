// new_seed (see seed.hpp).
#include "util/seed.hpp"

#include <random>

namespace workbook {

std::uint64_t new_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace workbook
