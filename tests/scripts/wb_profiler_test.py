#!/usr/bin/env python3
"""The Python lab harness (labs/common/wb.py) under a profiler, against the C++ one.

`workbook run --ncu/--sanitize` sets WB_PROFILER; labs/common/wb_host.hpp answers it with
wb::under_profiler() and wb::skip_check(), and its timers take one sample. wb.py must do
the same: this runs small Python labs in subprocesses (labs/common/wb_selftest.py's
Suite: labs/common on PYTHONPATH, a fresh results file) with and without WB_PROFILER and
checks
  - under_profiler(): the tool's name, None when WB_PROFILER is unset or empty;
  - skip_check(): the exact results line the C++ harness writes (written out below from
    wb_host.hpp's skip_check: pass true, skipped true, the reason as detail), its
    readable line, and that it neither fails the run nor counts in the end's tally;
    when a C++ compiler is found, a twin C++ lab built against wb_host.hpp must write
    the same results file and the same stdout byte for byte;
  - time_calls(): warm-up and sample counts without a profiler, one and one under it,
    the clock it reports, and cuda_event_timer() driven by a stand-in for torch.
Nothing here imports torch or triton. Standard library only.

    python3 tests/scripts/wb_profiler_test.py [-v]

Exits 0 when every case passes, 1 otherwise; the last line reads "N passed, N failed".
"""
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMON = os.path.join(REPO, "labs", "common")
sys.path.insert(0, COMMON)

from wb_selftest import Suite, expect, expect_json_lines, expect_rc  # noqa: E402 (after the path)

WHY = 'ncu replays each kernel, so "printf" lines repeat'
# What wb::skip_check("lines_printed", WHY) writes (wb_host.hpp: Record("check") with
# str name, boolean pass true, boolean skipped true, str detail), and its readable line.
SKIP_LINE = ('{"type":"check","name":"lines_printed","pass":true,"skipped":true,'
             '"detail":"ncu replays each kernel, so \\"printf\\" lines repeat"}')
SKIP_READABLE = '[check]  SKIP lines_printed: ncu replays each kernel, so "printf" lines repeat'

SKIP_LAB = """
    import sys, wb
    wb.init("t/skip")
    tool = wb.under_profiler()
    print("tool=%%s" %% (tool if tool else "none"))
    wb.skip_check("lines_printed", %r)
    wb.check("ok", True)
    sys.exit(wb.finish())
""" % WHY

# The same lab in C++, for the byte-for-byte comparison.
SKIP_LAB_CPP = r"""
#include "wb_host.hpp"
int main(int argc, char** argv) {
  wb::init(argc, argv, "t/skip");
  const char* tool = wb::under_profiler();
  std::printf("tool=%s\n", tool ? tool : "none");
  wb::skip_check("lines_printed", "ncu replays each kernel, so \"printf\" lines repeat");
  wb::check("ok", true);
  return wb::finish();
}
"""


def case_under_profiler(s, problems):
    for env, want in (({}, "none"), ({"WB_PROFILER": ""}, "none"), ({"WB_PROFILER": "sanitize"}, "sanitize"),
                      ({"WB_PROFILER": "ncu"}, "ncu")):
        run = s.run("""
            import sys, wb
            print("tool=%r" % (wb.under_profiler(),))
        """, results=False, env_extra=env)
        expect_rc(problems, run, 0)
        shown = repr(None if want == "none" else want)
        expect(problems, ("tool=%s" % shown) in run.out, "%r: stdout %r, want tool=%s" % (env, run.out, shown))


def case_skip_record(s, problems):
    for env in ({}, {"WB_PROFILER": "ncu"}):
        run = s.run(SKIP_LAB, env_extra=env)
        expect_rc(problems, run, 0)
        expect_json_lines(problems, run)
        checks = [line for line in (run.lines or []) if '"type":"check"' in line]
        expect(problems, checks[:1] == [SKIP_LINE], "%r: skip_check wrote %r, want %r" % (env, checks[:1], SKIP_LINE))
        expect(problems, (run.lines or [])[-1:] == ['{"type":"end","pass":true}'], "end: %r" % (run.lines or [])[-1:])
        expect(problems, SKIP_READABLE in run.out.splitlines(), "stdout lacks %r: %r" % (SKIP_READABLE, run.out))
        # Like the C++ harness, a skipped check is left out of the tally.
        expect(problems, "[end]    PASS: 1 of 1 checks passed" in run.out, "tally: %r" % run.out)


def case_skip_does_not_hide_failure(s, problems):
    run = s.run("""
        import sys, wb
        wb.init("t/skipfail")
        wb.skip_check("speed_bound", "slowed by the tool")
        wb.check("values_ok", False, 3, 0)
        sys.exit(wb.finish())
    """, env_extra={"WB_PROFILER": "sanitize"})
    expect_rc(problems, run, 1)
    recs = run.records()
    expect(problems, recs[-1:] == [{"type": "end", "pass": False}], "end: %r" % recs[-1:])
    expect(problems, "[end]    FAIL: 0 of 1 checks passed" in run.out, "tally: %r" % run.out)


def case_skip_claims_the_name(s, problems):
    for body in ('wb.check("x", True)\nwb.skip_check("x", "why")', 'wb.skip_check("Bad-Name", "why")'):
        run = s.run("import sys, wb\nwb.init('t/names')\n%s\nsys.exit(wb.finish())\n" % body)
        expect_rc(problems, run, 4)
        errors = run.of("error")
        expect(problems, len(errors) == 1 and "wb.skip_check" in errors[0]["message"], "errors: %r" % errors)


def compiler():
    for name in (os.environ.get("CXX", ""), "c++", "g++", "clang++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def case_same_as_cpp(s, problems):
    cxx = compiler()
    if cxx is None:
        print("note: no C++ compiler: the live comparison with wb_host.hpp is left out (the literal line is checked)")
        return
    tmp = tempfile.mkdtemp(prefix="wb_profiler_cpp_")
    try:
        compare_with_cpp(s, problems, cxx, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def compare_with_cpp(s, problems, cxx, tmp):
    """Builds SKIP_LAB_CPP in tmp and runs it next to SKIP_LAB, with and without WB_PROFILER."""
    src, exe = os.path.join(tmp, "skip.cpp"), os.path.join(tmp, "skip")
    with open(src, "w", encoding="utf-8") as f:
        f.write(SKIP_LAB_CPP)
    built = subprocess.run([cxx, "-std=c++17", "-O0", "-I", COMMON, src, "-o", exe],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if built.returncode != 0:
        problems.append("the C++ twin did not build: %s" % built.stderr.decode("utf-8", "replace")[-600:])
        return
    for env in ({}, {"WB_PROFILER": "ncu"}):
        py = s.run(SKIP_LAB, env_extra=env)
        results = os.path.join(tmp, "cpp.jsonl")
        if os.path.exists(results):
            os.remove(results)
        cpp_env = {k: v for k, v in os.environ.items() if k != "WB_PROFILER"}
        cpp_env.update(env)
        cpp_env["WORKBOOK_RESULTS"] = results
        cpp = subprocess.run([exe], env=cpp_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        with open(results, encoding="utf-8") as f:
            cpp_lines = f.read().splitlines()
        expect(problems, cpp.returncode == py.rc == 0, "%r: exit C++ %d, Python %d" % (env, cpp.returncode, py.rc))
        expect(problems, cpp_lines == py.lines, "%r: results differ:\n  C++    %r\n  Python %r" % (env, cpp_lines, py.lines))
        expect(problems, SKIP_LINE in cpp_lines, "%r: the C++ harness no longer writes %r: %r" % (env, SKIP_LINE, cpp_lines))
        # The start line names the results file, which differs: compare without it.
        cpp_out = cpp.stdout.decode("utf-8", "replace").replace(results, "RESULTS")
        py_out = py.out.replace(py.path, "RESULTS")
        expect(problems, cpp_out == py_out, "%r: stdout differs:\n  C++    %r\n  Python %r" % (env, cpp_out, py_out))


TIMING_LAB = """
    import sys, wb
    calls = [0]
    def fn():
        calls[0] += 1
    ticks = iter([3.0, 1.0, 2.0, 5.0, 4.0])
    def timer(f):
        f()
        return next(ticks)
    timer.clock = "fake"
    wb.init("t/timing")
    st = wb.time_calls(fn, samples=5, warmup=2, timer=timer)
    print("fake calls=%d samples=%d median=%r min=%r max=%r clock=%s" % (calls[0], st.samples, st.median, st.min,
                                                                       st.max, st.clock))
    calls[0] = 0
    host = wb.time_calls(fn, samples=3, warmup=0)
    print("host calls=%d samples=%d clock=%s" % (calls[0], host.samples, host.clock))
    wb.metric("fake_ms", st, "ms")
    sys.exit(wb.finish())
"""


def case_time_calls(s, problems):
    plain = s.run(TIMING_LAB)
    expect_rc(problems, plain, 0)
    expect(problems, "fake calls=7 samples=5 median=3.0 min=1.0 max=5.0 clock=fake" in plain.out, "plain: %r" % plain.out)
    expect(problems, "host calls=3 samples=3 clock=host" in plain.out, "plain host: %r" % plain.out)
    for tool in ("ncu", "sanitize"):
        run = s.run(TIMING_LAB, env_extra={"WB_PROFILER": tool})
        expect_rc(problems, run, 0)
        # One warm-up call and one timed call, whatever the lab asked for.
        expect(problems, "fake calls=2 samples=1 median=3.0 min=3.0 max=3.0 clock=fake" in run.out, "%s: %r" % (tool, run.out))
        expect(problems, "host calls=2 samples=1 clock=host" in run.out, "%s host: %r" % (tool, run.out))
        metric = run.of("metric")
        want = {"type": "metric", "name": "fake_ms", "value": 3, "unit": "ms", "samples": 1, "min": 3, "max": 3,
                "spread": 0, "clock": "fake"}
        expect(problems, metric == [want], "%s: metric %r" % (tool, metric))


def case_time_calls_arguments(s, problems):
    for args in ("samples=0", "warmup=-1", "samples=True", "samples=2.5"):
        run = s.run("import wb\nwb.init('t/args')\nwb.time_calls(lambda: None, %s)\n" % args)
        expect_rc(problems, run, 4)
        errors = run.of("error")
        expect(problems, len(errors) == 1 and "wb.time_calls" in errors[0]["message"], "%s: %r" % (args, errors))


EVENT_LAB = """
    import sys, wb
    log = []
    class Event:
        def __init__(self, enable_timing=False):
            assert enable_timing, "events must be created with enable_timing=True"
            self.at = None
        def record(self):
            log.append("record")
            self.at = len(log)
        def synchronize(self):
            log.append("sync")
        def elapsed_time(self, other):
            return 0.25 * (other.at - self.at)
    class FakeTorch:
        class cuda:
            Event = Event
    wb.init("t/events")
    st = wb.time_calls(lambda: log.append("call"), samples=2, warmup=1, timer=wb.cuda_event_timer(FakeTorch))
    print("log=%s samples=%d median=%r clock=%s" % (",".join(log), st.samples, st.median, st.clock))
    sys.exit(wb.finish())
"""


def case_cuda_event_timer(s, problems):
    run = s.run(EVENT_LAB)
    expect_rc(problems, run, 0)
    want = "log=call,record,call,record,sync,record,call,record,sync samples=2 median=0.5 clock=events"
    expect(problems, want in run.out, "plain: %r" % run.out)
    run = s.run(EVENT_LAB, env_extra={"WB_PROFILER": "ncu"})
    expect_rc(problems, run, 0)
    want = "log=call,record,call,record,sync samples=1 median=0.5 clock=events"
    expect(problems, want in run.out, "under ncu: %r" % run.out)


def main():
    s = Suite()
    cases = [
        ("under_profiler() reads WB_PROFILER", case_under_profiler),
        ("skip_check() writes the C++ harness's record", case_skip_record),
        ("a skipped check does not hide a failed one", case_skip_does_not_hide_failure),
        ("skip_check() claims its name like check()", case_skip_claims_the_name),
        ("a C++ twin against wb_host.hpp writes the same bytes", case_same_as_cpp),
        ("time_calls(): one warm-up and one sample under a profiler", case_time_calls),
        ("time_calls(): bad counts are harness errors", case_time_calls_arguments),
        ("cuda_event_timer(): events around each call", case_cuda_event_timer),
    ]
    return s.run_cases("wb_profiler_test", cases)


if __name__ == "__main__":
    sys.exit(main())
