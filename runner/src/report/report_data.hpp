// `workbook report [module|lab]`: what the learner hands in, gathered from the journal:
// per lab the latest passing run (else the latest run) with its figures beside their
// expected ranges, the predictions beside the measurements, the explanations; the
// machine line of every GPU those runs used (driver, CUDA versions, clocks, power state,
// as far as the journal records them with the newest of those runs); and a
// roofline per GPU of the kernels whose runs report both FLOP and byte rates.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "content/catalog.hpp"
#include "journal/journal_queries.hpp"
#include "plot/roofline.hpp"
#include "report/ledger.hpp"
#include "report/machine_line.hpp"
#include "report/roofline_points.hpp"
#include "specs/gpu_specs.hpp"

namespace workbook {

struct LabEvidence {
  std::string lab, title;  // title "" when the content no longer has the lab
  RunRow run;              // the run shown
  int runs_total = 0;      // runs of this lab in the journal
  std::vector<MetricRow> metrics;
  std::vector<PredictionRow> predictions;
  std::vector<ExplanationRow> explanations;  // the shown run's own, never another run's
  std::vector<RunRow> explained_elsewhere;   // other runs of the lab that have an explanation, oldest first
  RunKernels kernels;
};

struct MachineLine {
  std::string gpu;                           // the runs' device name
  std::vector<std::string> arches;           // compiled for
  std::optional<CalibrationRow> calibration; // the latest of a GPU of that name
  std::string spec_id;                       // its spec sheet in data/gpus.yaml, "" if none
  long long run_id = 0;                      // the newest shown run on this GPU: its machine below
  std::string run_at;                        // when it started
  RunMachine machine;                        // as recorded with that run
  std::vector<std::string> recorded;         // machine_facts(machine).recorded
  std::vector<std::string> missing;          // what the journal does not record
};

struct RoofSection {
  plot::Roof roof;
  std::vector<plot::RoofPoint> points;
  std::string svg_name;  // file name beside the Markdown
};

struct ReportData {
  std::string scope;         // "", "module14" or "module14/tiled_gemm"
  std::string generated_at;  // ISO 8601 UTC
  std::vector<LabEvidence> labs;
  std::vector<MachineLine> machines;
  std::vector<RoofSection> roofs;
  std::vector<std::string> notes;  // e.g. kernels not placed, GPUs without a roof
  // Sections other areas add (the experiments, present/experiment_report.hpp, filled
  // by cmd/report.cpp): Markdown put before the notes, and files written beside report.md.
  std::string extra_markdown;
  std::vector<std::pair<std::string, std::string>> extra_files;  // file name -> text
  Ledger ledger;                   // the calibration ledger of the scope's module(s) (report/ledger.hpp)
  std::string ledger_svg;          // its trend chart's file name beside the Markdown; "" when nothing to draw
};

// The report scoped to the project (`workbook report project`): the labs of the project's
// topic modules whose shown run measured something (a run that was built but not run has
// nothing to hand in), the machines those runs ran on, and `ledger` (the labs' and the
// experiments' first predictions); the experiments' section is added by the caller. Pure.
void scope_to_project(ReportData& data, const std::vector<int>& topic_modules, Ledger ledger);

// The run a report shows among a lab's runs (oldest first): the learner's own (starter
// or --file runs; any run when there is none of those), the latest pass among them, else
// the latest finished one, else the latest. With the lab's default parameters
// (`defaults`), a run at them (graded against the expected ranges, unlike a sweep's other
// points or a --quick run) comes first: the latest pass at them, else the latest finished
// run at them, then the order above. Pure; nullptr when `runs` is empty.
const RunRow* run_to_show(const std::vector<RunRow>& runs, const std::optional<Figures>& defaults = std::nullopt);

// Whether a run's parameters (its JSON object) are `defaults`, every one. Pure.
bool at_default_params(const std::string& params_json, const Figures& defaults);

// The roof of a GPU: the latest calibration's fp32_tflops and d2d_gbps, else the spec
// sheet's fp32_tflops and dram_gbps; nullopt when neither is known. Pure.
std::optional<plot::Roof> roof_for(const std::string& gpu, const std::optional<CalibrationRow>& calibration,
                                   const GpuSpec* spec);

// Gathers the report. `scope` is "" or a module or lab reference ("14", "module14/tiled_gemm");
// throws UsageError for a malformed one or a lab the content does not have.
ReportData collect_report(Journal& journal, const Catalog& catalog, const std::string& scope, const std::string& now);

// Text that a Markdown renderer shows as typed: HTML's < > & as entities (no raw tag, no
// autolink), and \ ` [ ] escaped (no link, image or code span). Whatever a learner typed
// goes through here, in the labs' report and the experiments'.
std::string md_text(const std::string& s);
// md_text for a Markdown table cell or a one-line item: printable (no escape sequence),
// on one line, | escaped.
std::string md_cell(const std::string& s);

// The Markdown document (pure): links the roofline SVGs by their svg_name.
std::string render_markdown(const ReportData& data);

nlohmann::json report_data_json(const ReportData& data);

// Writes report.md and the SVGs into `dir` (created); returns the files written.
std::vector<std::filesystem::path> write_report(const ReportData& data, const std::filesystem::path& dir);

}  // namespace workbook
