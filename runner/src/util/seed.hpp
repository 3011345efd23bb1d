// Fresh 64-bit seeds for lab runs, calibrations and exercise variants.
#pragma once

#include <cstdint>

namespace workbook {

// 64 bits from the system's random device (two 32-bit draws).
std::uint64_t new_seed();

}  // namespace workbook
