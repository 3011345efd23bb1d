// A stable content hash (FNV-1a, 128 bits) for the build cache: the same inputs give the
// same hex string on every machine and every run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace workbook {

// Accumulates fields into a 128-bit FNV-1a hash. Every field is followed by its length,
// so the field boundaries count: add("ab"), add("c") differs from add("a"), add("bc").
// Not cryptographic: it keys a cache, it does not defend against crafted collisions.
class Hasher {
 public:
  Hasher();

  // Adds one field: the bytes of `field`.
  void add(std::string_view field);

  // Adds one field: the bytes of the file at `path`, read in chunks (the name is not
  // included; add it separately when it matters). Throws Error when it cannot be read.
  void add_file(const std::filesystem::path& path);

  // The hash of the fields so far: 32 lowercase hex digits. Adding more fields after
  // calling it is allowed.
  std::string hex() const;

 private:
  void feed(const void* data, std::size_t n);
  void end_field(std::uint64_t length);

  __extension__ typedef unsigned __int128 u128;
  u128 state_;
};

// The hex hash of one field: Hasher h; h.add(text); h.hex().
std::string hash_hex(std::string_view text);

}  // namespace workbook
