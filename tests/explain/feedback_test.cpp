// Tests for the explanation checker (explain/feedback): the limiting resource from the
// run's roofline position (intensity against the ridge of the learner's figures) or the
// block's bound, with negations told apart from claims; a cited number read with the
// answers' grammar and matched to a figure of the run, and the ceiling it is compared
// with; the Amdahl account of a speed-up. Deterministic: the same text and facts give
// the same lines.
#include <catch2/catch.hpp>

#include "explain/cited_numbers.hpp"
#include "explain/facts.hpp"
#include "explain/feedback.hpp"
#include "explain/text_words.hpp"

using namespace workbook;

namespace {

// A vector add: 1 FLOP per 12 bytes, on a GPU whose ridge is 16 FLOP/byte.
ExplainSpec vecadd() {
  ExplainSpec s;
  s.bound = "memory";
  s.figures = {"achieved_gbps", "kernel_us"};
  s.intensity = "1 / 12";
  return s;
}

ExplainFacts vecadd_facts(bool calibrated = true) {
  LabSpec lab;
  return explain_facts(lab, {{"achieved_gbps", "GB/s", 3466}, {"kernel_us", "us", 58}, {"pct_of_bandwidth", "%", 87.1}},
                       {{"dram_gbps", 3980}, {"fp32_tflops", 63.68}}, {}, calibrated);
}

}  // namespace

TEST_CASE("explain feedback: a wrong bound is answered with the run's intensity and ridge", "[explain]") {
  const Feedback f = explanation_feedback(vecadd(), "It is compute-bound: the GPU adds numbers.", vecadd_facts());
  REQUIRE(f.points.size() == 2);
  const FeedbackPoint* b = f.point("bound");
  REQUIRE(b);
  CHECK_FALSE(b->ok);
  CHECK(b->line == "You say compute; intensity 0.0833 FLOP/byte is far left of this GPU's ridge at 16 FLOP/byte "
                   "(calibrated): memory is what limits it (say so: memory bound, bandwidth bound, memory bandwidth).");
  CHECK_FALSE(f.point("figure")->ok);
  CHECK(f.point("figure")->line.find("Cite a measured figure with its unit: this run measured achieved_gbps = 3466 GB/s") == 0);
}

TEST_CASE("explain feedback: a good memory-bound explanation passes every point", "[explain]") {
  const Feedback f = explanation_feedback(
      vecadd(), "Memory-bound: 3466 GB/s is 87 % of the calibrated 3980 GB/s, so the FP32 units wait on DRAM.",
      vecadd_facts());
  INFO(feedback_text(f));
  CHECK(f.all_ok());
  CHECK(f.point("bound")->line.find("Names the limiting resource, memory (intensity 0.0833") == 0);
  CHECK(f.point("figure")->line == "Cites 3466 GB/s (achieved_gbps, measured 3466 GB/s) against 87% (pct_of_bandwidth).");
}

TEST_CASE("explain feedback: a ceiling counts as its value, a percentage of it, or another unit", "[explain]") {
  // 3.47 TB/s is achieved_gbps; 87 % of dram_gbps is its share, without the % figure.
  ExplainFacts facts = vecadd_facts(false);
  facts.figures.pop_back();
  Feedback f = explanation_feedback(vecadd(), "DRAM bandwidth: 3.47 TB/s, about 87% of dram_gbps.", facts);
  INFO(feedback_text(f));
  CHECK(f.point("figure")->ok);
  CHECK(f.point("figure")->line.find("against 87% of dram_gbps") != std::string::npos);
  f = explanation_feedback(vecadd(), "Bandwidth-bound at 3466 GB/s against a 3980 GB/s peak.", facts);
  CHECK(f.point("figure")->ok);
  // A figure cited with no ceiling: said, with the ceiling and where it comes from.
  f = explanation_feedback(vecadd(), "Bandwidth-bound: 58 us for the kernel.", facts);
  CHECK_FALSE(f.point("figure")->ok);
  CHECK(f.point("figure")->line == "Cites 58 us (kernel_us, measured 58 us), but not the ceiling it meets: "
                                   "dram_gbps = 3980 GB/s on this GPU (spec sheet).");
}

TEST_CASE("explain feedback: a negated resource is no claim, and a number of the wrong size is named", "[explain]") {
  const Feedback f =
      explanation_feedback(vecadd(), "It is not memory-bound, it takes 5 ms, limited by the FP32 rate.", vecadd_facts());
  CHECK_FALSE(f.point("bound")->ok);
  CHECK(f.point("bound")->line.rfind("You say compute;", 0) == 0);
  CHECK(f.point("figure")->line.rfind("5 ms is no figure of this run: it measured achieved_gbps", 0) == 0);
  // "not compute-bound but memory-bound": the negation stays in its clause.
  const Feedback g = explanation_feedback(vecadd(), "Not compute-bound but memory-bound.", vecadd_facts());
  CHECK(g.point("bound")->ok);
}

TEST_CASE("explain feedback: past the ridge the roofline says compute, whatever the block declares", "[explain]") {
  ExplainSpec s = vecadd();
  s.intensity = "64";
  const Feedback f = explanation_feedback(s, "Memory-bound.", vecadd_facts());
  CHECK_FALSE(f.point("bound")->ok);
  CHECK(f.point("bound")->line.find("intensity 64 FLOP/byte is right of this GPU's ridge at 16") != std::string::npos);
  CHECK(f.point("bound")->line.find(": compute is what limits it") != std::string::npos);
  // Without a ridge (no device figures) the declared bound stands.
  LabSpec lab;
  const ExplainFacts none = explain_facts(lab, {{"kernel_us", "us", 58}}, {}, {}, false);
  CHECK(explanation_feedback(s, "Memory-bound, 58 us.", none).all_ok());
}

TEST_CASE("explain feedback: a speed-up must account for what did not speed up", "[explain]") {
  ExplainSpec s;
  s.bound = "pcie";
  s.figures = {"overall_speedup"};
  s.amdahl = ExplainAmdahl{"overall_speedup", "copy_fraction", {"copies", "serial stage"}, 0};
  s.ceilings = std::vector<ExplainCeiling>{};  // `ceilings: {}`: a figure alone is enough
  LabSpec lab;
  lab.vars = {{"copy_fraction", "copy_ms / total_ms", 0}};
  const ExplainFacts facts = explain_facts(
      lab, {{"overall_speedup", "x", 2.5}, {"copy_ms", "ms", 4}, {"total_ms", "ms", 10}}, {{"h2d_pinned_gbps", 25}}, {}, false);
  Feedback f = explanation_feedback(s, "A 2.5x speed-up because the GPU is faster over PCIe.", facts);
  REQUIRE(f.points.size() == 3);
  CHECK(f.point("bound")->ok);
  CHECK(f.point("figure")->ok);
  CHECK_FALSE(f.point("amdahl")->ok);
  CHECK(f.point("amdahl")->line == "A 2.5x speed-up needs its Amdahl account: say what did not speed up (copies, 40 % "
                                   "of the time, which caps the speed-up at 2.5x).");
  f = explanation_feedback(s, "2.5x over PCIe: the copies did not speed up.", facts);
  CHECK(f.point("amdahl")->ok);
}

TEST_CASE("explain feedback: empty text has no points, and the text form is one line a point", "[explain]") {
  CHECK(explanation_feedback(vecadd(), "  \n", vecadd_facts()).points.empty());
  const Feedback f = explanation_feedback(vecadd(), "compute-bound", vecadd_facts());
  const std::string text = feedback_text(f);
  CHECK(text.rfind("✗ You say compute", 0) == 0);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  CHECK(feedback_text(explanation_feedback(vecadd(), "compute-bound", vecadd_facts())) == text);  // deterministic
}

TEST_CASE("explain text: words match whole words, plurals, hyphens, and negations in their clause", "[explain]") {
  const std::string t = normal_text("Launch-bound, NOT bandwidth bound; the launches dominate (L2 fits)");
  auto hits = find_words(t, {"launch bound", "bandwidth bound", "launch", "l2", "dram"});
  REQUIRE(hits.size() == 5);
  CHECK(hits[0].word == "launch bound");
  CHECK_FALSE(hits[0].negated);
  CHECK(hits[1].word == "launch");  // inside "launch bound"
  CHECK(hits[2].word == "bandwidth bound");
  CHECK(hits[2].negated);
  CHECK(hits[3].word == "launch");  // "launches"
  CHECK(hits[4].word == "l2");
  CHECK(find_words(normal_text("caches"), {"cache"}).size() == 1);
  CHECK(find_words(normal_text("l2cache"), {"l2"}).empty());
}

TEST_CASE("explain numbers: the answers' grammar, converted units, speed-ups and counts", "[explain]") {
  const auto n = numbers_in("took 280 us (0.28 ms), 1.5x faster, 16-fold fewer, 4 idle threads, sm_90, 1,5 ms");
  REQUIRE(n.size() == 5);
  CHECK(cites(n[0], 0.28, "ms"));
  CHECK(cites(n[1], 0.28, "ms"));
  CHECK_FALSE(cites(n[1], 0.28, "GB/s"));
  CHECK(cites(n[2], 1.52, "x"));
  CHECK_FALSE(cites(n[2], 1.52, "%"));
  CHECK(cites(n[3], 16, "x"));
  CHECK(cites(n[4], 4, "count"));
  CHECK(typed(n[2]) == "1.5x");
}
