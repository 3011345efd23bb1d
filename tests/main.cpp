// The Catch2 entry point: one translation unit, so the other test files compile fast.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
