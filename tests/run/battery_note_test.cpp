// On battery a laptop GPU's clocks are capped: the device line says so before the run,
// and figures graded against ranges (fitted on mains power) carry the note.
#include <catch2/catch.hpp>

#include "run/device_context.hpp"

using namespace workbook;

namespace {

MetricGrade figure(const std::string& name, std::optional<double> lo, std::optional<double> hi, RangeStatus status) {
  MetricGrade m;
  m.name = name;
  m.lo = lo;
  m.hi = hi;
  m.status = status;
  return m;
}

}  // namespace

TEST_CASE("on battery the device line says the clocks are capped, and on mains or a server it says nothing", "[battery]") {
  CHECK(battery_note("mains").empty());
  CHECK(battery_note("").empty());
  CHECK(battery_note("battery").find("on battery") == 0);
  CHECK(battery_note("battery").find("assume mains power") != std::string::npos);
  DeviceContext dev;
  dev.gpu = LocalGpu{};
  dev.gpu->name = "NVIDIA GeForce RTX 3050 Laptop GPU";
  dev.gpu->compute_cap = "8.6";
  const std::string plugged = dev.describe();
  CHECK(plugged.find("battery") == std::string::npos);
  dev.power_source = "battery";
  CHECK(dev.describe() == plugged + "; " + battery_note("battery"));
}

TEST_CASE("a run on battery notes on each ranged figure that the range assumes mains power", "[battery]") {
  Grade g;
  g.verdict = Verdict::out_of_range;
  g.verdict_reason = "1 figure out of range";
  g.metrics = {figure("gflops", 900.0, 1400.0, RangeStatus::below), figure("count", std::nullopt, std::nullopt, RangeStatus::no_range),
               figure("ms", std::nullopt, 2.0, RangeStatus::in_range)};
  Grade on_mains = g;
  note_battery(on_mains, "mains");
  CHECK(on_mains.metrics[0].note.empty());
  CHECK(on_mains.verdict_reason == "1 figure out of range");

  note_battery(g, "battery");
  CHECK(g.metrics[0].note == "(this run was on battery; the range assumes mains power)");
  CHECK(g.metrics[1].note.empty());  // no range, nothing assumed
  CHECK(g.metrics[2].note == "(this run was on battery; the range assumes mains power)");
  // The verdict's reason is the decider's to word (RunFacts::on_battery: tests/grade/decide_test.cpp).
  CHECK(g.verdict_reason == "1 figure out of range");
}
