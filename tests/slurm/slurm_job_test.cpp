// A Slurm job's life on the login node (slurm/slurm_job.hpp), in-process, against the fake
// tools of tests/support/fake_slurm_tools.hpp on PATH: what the run's owner records, and
// in which order, for a job that starts before sbatch answers, a refused job, and an
// sbatch that prints no id (the job found by its name, or not found).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "slurm/slurm_job.hpp"
#include "util/error.hpp"

#include "../support/fake_slurm_tools.hpp"
#include "../support/scoped_env.hpp"
#include "../support/temp_dir.hpp"

using wbtest::ScopedEnv;
namespace fs = std::filesystem;

namespace {

// Records each call, in order; `submitting` leaves a file the job looks for.
class RecordingOwner : public workbook::SlurmJobOwner {
 public:
  explicit RecordingOwner(fs::path marker) : marker_(std::move(marker)) {}
  std::vector<std::string> calls;
  void submitting() override {
    calls.push_back("submitting");
    std::ofstream(marker_) << "recorded\n";
  }
  void job_id_known(const std::string& id) override { calls.push_back("job " + id); }
  void not_submitted(const std::string& why) override { calls.push_back("not submitted: " + why); }
  void interrupted_submitting(const std::string& why) override { calls.push_back("interrupted: " + why); }

 private:
  fs::path marker_;
};

class RecordingObserver : public workbook::SlurmObserver {
 public:
  std::vector<std::string> said;
  void submitted(const std::string& id, const std::string& label, const workbook::SlurmSettings&) override {
    said.push_back("submitted " + id + " for " + label);
  }
  void found_by_name(const std::string&, const std::string& name, const std::string& id) override {
    said.push_back("found " + name + " as " + id);
  }
};

// The fake tools first on PATH, in `mode` (FAKE_SBATCH), for the scope.
struct FakeCluster {
  wbtest::TempDir tmp;
  fs::path dir = tmp.path / "job";
  std::optional<ScopedEnv> path, state, mode;
  explicit FakeCluster(const std::string& sbatch_mode) {
    wbtest::write_fake_slurm_tools(tmp.path / "bin");
    fs::create_directories(tmp.path / "state");
    const char* old = std::getenv("PATH");
    path.emplace("PATH", (tmp.path / "bin").string() + ":" + (old ? old : "/usr/bin:/bin"));
    state.emplace("FAKE_SLURM_STATE", (tmp.path / "state").string());
    mode.emplace("FAKE_SBATCH", sbatch_mode);
  }
  // A job that says whether the owner's record was there when it started.
  workbook::SlurmJob job() const {
    workbook::SlurmJob j;
    j.dir = dir;
    j.run_label = "run #7";
    j.echo = false;
    j.done_marker = dir / "done";
    j.script.settings.poll_s = 0.1;
    j.script.job_name = "wb-test-7";
    j.script.run_label = "run #7 of a test";
    j.script.output = dir / "job.out";
    j.script.workdir = tmp.path;
    j.script.command = {"/bin/sh", "-c", "test -f '" + (dir / "recorded").string() + "' && echo record-found"};
    return j;
  }
  std::string output() const {
    std::ifstream in(dir / "job.out");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

}  // namespace

TEST_CASE("a job that starts before sbatch answers finds its run's record, and is followed to its end",
          "[slurm_job_test]") {
  FakeCluster cluster("sync");
  RecordingOwner owner(cluster.dir / "recorded");
  RecordingObserver observer;
  const workbook::SlurmJobEnd end = workbook::run_slurm_job(cluster.job(), owner, observer, workbook::Style(false));
  CHECK(owner.calls == std::vector<std::string>{"submitting", "job 100"});
  CHECK(cluster.output().find("record-found") != std::string::npos);
  CHECK(end.job_id == "100");
  CHECK(end.status.state == "COMPLETED");
  CHECK_FALSE(end.cancelled_here);
  CHECK(observer.said == std::vector<std::string>{"submitted 100 for run #7"});
}

TEST_CASE("a job sbatch refuses ends its run as not submitted, with sbatch's words", "[slurm_job_test]") {
  FakeCluster cluster("refuse");
  RecordingOwner owner(cluster.dir / "recorded");
  RecordingObserver observer;
  CHECK_THROWS_WITH(workbook::run_slurm_job(cluster.job(), owner, observer, workbook::Style(false)),
                    Catch::Contains("invalid partition specified: nope"));
  REQUIRE(owner.calls.size() == 2);
  CHECK(owner.calls[0] == "submitting");
  CHECK(owner.calls[1].rfind("not submitted: ", 0) == 0);
  CHECK(owner.calls[1].find("invalid partition") != std::string::npos);
  CHECK(observer.said.empty());
}

TEST_CASE("sbatch printing no job id: the job is found by its name, or the run is left open", "[slurm_job_test]") {
  SECTION("found once: its id is recorded and it is followed") {
    FakeCluster cluster("silent-sync");
    RecordingOwner owner(cluster.dir / "recorded");
    RecordingObserver observer;
    const workbook::SlurmJobEnd end = workbook::run_slurm_job(cluster.job(), owner, observer, workbook::Style(false));
    CHECK(owner.calls == std::vector<std::string>{"submitting", "job 100"});
    CHECK(observer.said == std::vector<std::string>{"found wb-test-7 as 100", "submitted 100 for run #7"});
    CHECK(end.status.state == "COMPLETED");
  }
  SECTION("not found: the run stays open, and the error says how to find the job") {
    FakeCluster cluster("silent");
    RecordingOwner owner(cluster.dir / "recorded");
    RecordingObserver observer;
    try {
      workbook::run_slurm_job(cluster.job(), owner, observer, workbook::Style(false));
      FAIL("no error");
    } catch (const workbook::Error& e) {
      CHECK(std::string(e.what()).find("printed no job id") != std::string::npos);
      CHECK(e.hint().find("run #7 is recorded with your predictions and stays open") != std::string::npos);
      CHECK(e.hint().find("squeue -u \"$USER\" -n wb-test-7") != std::string::npos);
    }
    CHECK(owner.calls == std::vector<std::string>{"submitting"});
  }
}
