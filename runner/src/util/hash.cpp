// FNV-1a 128 (the published offset basis and prime) with length-terminated fields.
#include "util/hash.hpp"

#include <fmt/format.h>

#include "util/error.hpp"
#include "util/file_text.hpp"

namespace workbook {
namespace {

__extension__ typedef unsigned __int128 u128;

constexpr u128 make_u128(std::uint64_t high, std::uint64_t low) { return (static_cast<u128>(high) << 64) | low; }

// FNV-1a 128: offset basis 0x6c62272e07bb014262b821756295c58d, prime 2^88 + 0x13b.
constexpr u128 kOffsetBasis = make_u128(0x6c62272e07bb0142ULL, 0x62b821756295c58dULL);
constexpr u128 kPrime = make_u128(0x0000000001000000ULL, 0x000000000000013bULL);

}  // namespace

Hasher::Hasher() : state_(kOffsetBasis) {}

void Hasher::feed(const void* data, std::size_t n) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  u128 h = state_;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= bytes[i];
    h *= kPrime;
  }
  state_ = h;
}

void Hasher::end_field(std::uint64_t length) {
  unsigned char le[9];
  for (int i = 0; i < 8; ++i) le[i] = static_cast<unsigned char>(length >> (8 * i));
  le[8] = 0xff;  // field terminator
  feed(le, sizeof le);
}

void Hasher::add(std::string_view field) {
  feed(field.data(), field.size());
  end_field(field.size());
}

void Hasher::add_file(const std::filesystem::path& path) {
  // A learner's copy among them: never a FIFO or a device, never without a bound.
  const FileText file = read_regular_file(path);
  if (!file.text) throw UsageError(fmt::format("cannot read {}: it {}", path.string(), file.problem));
  feed(file.text->data(), file.text->size());
  end_field(file.text->size());
}

std::string Hasher::hex() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(32, '0');
  u128 h = state_;
  for (int i = 31; i >= 0; --i) {
    s[static_cast<std::size_t>(i)] = digits[static_cast<unsigned>(h & 0xf)];
    h >>= 4;
  }
  return s;
}

std::string hash_hex(std::string_view text) {
  Hasher h;
  h.add(text);
  return h.hex();
}

}  // namespace workbook
