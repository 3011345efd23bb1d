// Tests for util/hash: FNV-1a 128 with length-terminated fields.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/error.hpp"
#include "util/hash.hpp"

namespace fs = std::filesystem;
using workbook::Hasher;

namespace {

// A unique temporary file, removed at the end of the test.
struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& content) {
    path = fs::temp_directory_path() /
           ("wb-hash-test-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path, ec);
  }
};

}  // namespace

TEST_CASE("a fresh hasher shows the FNV-1a 128 offset basis", "[hash]") {
  CHECK(Hasher().hex() == "6c62272e07bb014262b821756295c58d");
}

TEST_CASE("the hash is stable across runs and machines (golden value)", "[hash]") {
  // FNV-1a 128 over "hello", then its length as 8 little-endian bytes and a 0xff terminator,
  // computed independently.
  CHECK(workbook::hash_hex("hello") == "d21d57d3b46ba3faa937b5161faa5113");
  Hasher h;
  h.add("hello");
  CHECK(h.hex() == "d21d57d3b46ba3faa937b5161faa5113");
}

TEST_CASE("field boundaries and order count", "[hash]") {
  Hasher a, b;
  a.add("ab");
  a.add("c");
  b.add("a");
  b.add("bc");
  CHECK(a.hex() != b.hex());

  Hasher c, d;
  c.add("x");
  c.add("y");
  d.add("y");
  d.add("x");
  CHECK(c.hex() != d.hex());

  Hasher empty_field, nothing;
  empty_field.add("");
  CHECK(empty_field.hex() != nothing.hex());

  Hasher e1, e2;
  e1.add("");
  e1.add("x");
  e2.add("x");
  e2.add("");
  CHECK(e1.hex() != e2.hex());
}

TEST_CASE("equal inputs give equal hashes, any difference changes it", "[hash]") {
  CHECK(workbook::hash_hex("kernel<<<1,1>>>") == workbook::hash_hex("kernel<<<1,1>>>"));
  CHECK(workbook::hash_hex("kernel<<<1,1>>>") != workbook::hash_hex("kernel<<<1,2>>>"));
  CHECK(workbook::hash_hex(std::string("a\0b", 3)) != workbook::hash_hex(std::string("a\0c", 3)));
  std::string hex = workbook::hash_hex("anything");
  REQUIRE(hex.size() == 32);
  CHECK(hex.find_first_not_of("0123456789abcdef") == std::string::npos);
}

TEST_CASE("add_file hashes the same as add of the file's bytes", "[hash]") {
  std::string small("abc\0def\n", 8);
  std::string large;
  for (int i = 0; i < 200000; ++i) large.push_back(static_cast<char>('a' + i % 26));  // spans several read chunks
  for (const std::string* content : {&small, &large}) {
    TempFile f(*content);
    Hasher from_file, from_bytes;
    from_file.add_file(f.path);
    from_bytes.add(*content);
    CHECK(from_file.hex() == from_bytes.hex());
  }
  TempFile f(large);
  Hasher one, other;
  one.add_file(f.path);
  other.add(large.substr(0, large.size() - 1) + "!");
  CHECK(one.hex() != other.hex());
}

TEST_CASE("add_file on a missing file throws", "[hash]") {
  Hasher h;
  CHECK_THROWS_AS(h.add_file(fs::temp_directory_path() / "wb-hash-test-no-such-file"), workbook::Error);
}
