// Tests for run/lab_calibration: the band a calibration gives, and when this GPU's own
// reference grades a run and when it is set aside (the power source, the clock, a throttle,
// another driver or toolkit).
#include <catch2/catch.hpp>

#include <filesystem>

#include "run/lab_calibration.hpp"
#include "util/hash.hpp"

#include "../support/temp_dir.hpp"

using workbook::DeviceContext;
using workbook::GpuClocks;
using workbook::LabSpec;
using workbook::OwnReference;
using workbook::own_reference_for;
using workbook::reference_band;

namespace {

struct OwnReferenceCase {
  wbtest::TempDir dir;
  DeviceContext dev;
  LabSpec lab;

  OwnReferenceCase() {
    std::filesystem::create_directories(dir.path / "solutions/module14");
    const std::string source = "// the reference\n";
    dir.write("solutions/module14/tiled_gemm.cu", source);
    lab.id = "module14/tiled_gemm";
    lab.source = "tiled_gemm.cu";
    dev.solutions_root = dir.path / "solutions";
    dev.gpu = workbook::LocalGpu{"NVIDIA GeForce RTX 3050 6GB Laptop GPU", "8.6", "GPU-1", "550.54", 6144};
    dev.power_source = "mains";
    dev.own_references_gpu = dev.gpu->name;  // as load_device_context sets it with the references
    OwnReference own;
    own.row.gpu_name = dev.gpu->name;
    own.row.driver = "550.54";
    own.row.lab = lab.id;
    own.row.source_hash = workbook::hash_hex(source);
    own.row.params = {{"N", 1024}};
    own.row.power_source = "mains";
    own.row.sm_clock_mhz = 1500;
    dev.own_references.push_back(own);
  }
};

}  // namespace

TEST_CASE("lab calibration: the band is the runs' spread and a half, never under 20 %", "[run][calibrate]") {
  CHECK(reference_band(0.0) == Approx(0.2));
  CHECK(reference_band(0.1) == Approx(0.2));
  CHECK(reference_band(0.3) == Approx(0.45));
}

TEST_CASE("lab calibration: this GPU's own reference grades a run in the state it was measured in", "[run][calibrate]") {
  OwnReferenceCase c;
  std::string why;
  CHECK(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why) == &c.dev.own_references[0]);
  CHECK(why.empty());
  CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 2048}}, &why));  // other parameters
  GpuClocks steady;
  steady.sm_mhz = 1450;  // within 10 %
  steady.reasons = 0;
  CHECK(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why, &steady));

  SECTION("on battery where it was measured on mains") {
    c.dev.power_source = "battery";
    CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why));
    CHECK(why.find("measured on mains, and it runs on battery now") != std::string::npos);
  }
  SECTION("the SM clock 10 % or more below the references'") {
    GpuClocks slow = steady;
    slow.sm_mhz = 1300;
    CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why, &slow));
    CHECK(why.find("the SM clock was 1300 MHz, 10 % or more below the 1500 MHz") != std::string::npos);
  }
  SECTION("a throttle reason set during the run") {
    GpuClocks hot = steady;
    hot.reasons = 0x20;  // sw_thermal
    CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why, &hot));
    CHECK(why.find("the GPU was slowed during this run (sw_thermal)") != std::string::npos);
  }
  SECTION("the reference solution changed since: stale, not used") {
    c.dev.own_references[0].row.source_hash = "0";
    CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why));
  }
  SECTION("another driver: set aside, and the run says so") {
    c.dev.gpu->driver = "560.1";
    CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why));
    CHECK(why.find("measured with driver 550.54, and the driver is 560.1 now") != std::string::npos);
    CHECK(why.find("workbook device --calibrate --labs module14/tiled_gemm") != std::string::npos);
  }
  SECTION("another toolkit: set aside; the same one, or one unknown, grades") {
    c.dev.own_references[0].row.toolkit = "12.8";
    CHECK(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why, nullptr, "12.8"));
    CHECK(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why, nullptr, ""));  // `show`: no build
    CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why, nullptr, "13.0"));
    CHECK(why.find("measured with CUDA 12.8, and this build is CUDA 13.0") != std::string::npos);
  }
  SECTION("a MIG slice's references are its profile's: another slice is another GPU") {
    c.dev.own_references[0].row.gpu_name = c.dev.gpu->name + " MIG 3g.40gb";
    c.dev.own_references_gpu = c.dev.gpu->name + " MIG 1g.10gb";
    CHECK_FALSE(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why));
    c.dev.own_references_gpu = c.dev.gpu->name + " MIG 3g.40gb";
    CHECK(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why));
  }
  SECTION("an older reference of this build grades when the newest is another toolkit's") {
    OwnReference newer = c.dev.own_references[0];
    newer.row.toolkit = "13.0";
    c.dev.own_references[0].row.toolkit = "12.8";
    c.dev.own_references.insert(c.dev.own_references.begin(), newer);  // newest first
    CHECK(own_reference_for(c.dev, c.lab, {{"N", 1024}}, &why, nullptr, "12.8") == &c.dev.own_references[1]);
  }
}
