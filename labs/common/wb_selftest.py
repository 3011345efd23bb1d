#!/usr/bin/env python3
"""Self-test of labs/common/wb.py, the Python lab harness.

Every case writes a tiny lab script into a temporary folder, runs it in a subprocess
(the same interpreter, labs/common on PYTHONPATH, as the runner does) and checks its exit
status, its stdout/stderr and the JSON lines of its results file. Standard library only.

    python3 labs/common/wb_selftest.py        # one line per failure, then the summary
    python3 labs/common/wb_selftest.py -v     # every case

Exits 0 when every case passes, 1 otherwise. The last line reads "N passed, N failed".
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
VERBOSE = "-v" in sys.argv[1:]

# Values of the C++ harness's wb::Rng (labs/common/wb_host.hpp) for seeds 12345 (the
# default), 2^64 - 1 and 9: Rng(0).next() twice (in that order), Rng(3).next(),
# Rng(7).uniform(). Printed by a small g++ program built against wb_host.hpp; the Python
# Rng must give the same numbers, so seeded inputs can match a CUDA lab's.
RNG_REFERENCE = {
    12345: (1250167976888783017, 972196923237752989, 3496262788746605626, 0.77007979648680347),
    18446744073709551615: (10758813685061239630, 8327075023453475193, 10406894272369204273, 0.61865013941993197),
    9: (13042345470183740839, 15042939337248016466, 16335826437533968735, 0.023094503937065469),
}


class Run:
    def __init__(self, rc, out, err, lines, path):
        self.rc = rc
        self.out = out
        self.err = err
        self.lines = lines      # the results file's lines (None: no file was written)
        self.path = path

    def records(self):
        return [json.loads(line) for line in (self.lines or [])]

    def of(self, kind):
        return [r for r in self.records() if r.get("type") == kind]

    def last_err_line(self):
        lines = [l for l in self.err.splitlines() if l.strip()]
        return lines[-1] if lines else ""


class Suite:
    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="wb_selftest_")
        self.count = 0
        self.passed = 0
        self.failed = 0

    def run(self, body, args=(), results=True, prefill="", extra_files=None, env_extra=None):
        """Writes body as lab_<n>.py and runs it with args. results: set WORKBOOK_RESULTS
        to a fresh file (prefill: text it already holds). env_extra: variables to set
        (WB_PROFILER is unset otherwise, whatever the caller's environment holds)."""
        self.count += 1
        script = os.path.join(self.tmp, "lab_%d.py" % self.count)
        with open(script, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(body))
        for name, text in (extra_files or {}).items():
            with open(os.path.join(self.tmp, name), "w", encoding="utf-8") as f:
                f.write(textwrap.dedent(text))
        env = dict(os.environ)
        env.pop("WORKBOOK_RESULTS", None)
        env.pop("WB_PROFILER", None)
        env.update(env_extra or {})
        env["PYTHONPATH"] = HERE + os.pathsep + self.tmp
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONIOENCODING"] = "utf-8"
        path = os.path.join(self.tmp, "results_%d.jsonl" % self.count)
        if results:
            env["WORKBOOK_RESULTS"] = path
            if prefill:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(prefill)
        p = subprocess.run([sys.executable, script] + list(args), env=env, cwd=self.tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        lines = None
        if results and os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        return Run(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), lines, path)

    def run_cases(self, title, cases):
        """Runs every (name, fn(suite, problems)) case, prints "title: N passed, N failed",
        removes the temporary folder and returns the exit status (0: every case passed)."""
        for name, fn in cases:
            self.case(name, lambda problems, fn=fn: fn(self, problems))
        shutil.rmtree(self.tmp, ignore_errors=True)
        print("%s: %d passed, %d failed" % (title, self.passed, self.failed))
        return 0 if self.failed == 0 else 1

    def case(self, name, fn):
        problems = []
        try:
            fn(problems)
        except Exception as e:  # a broken expectation (a KeyError in a record, say) is a failure too
            problems.append("%s: %s" % (type(e).__name__, e))
        if problems:
            self.failed += 1
            print("FAIL %s" % name)
            for p in problems:
                print("     %s" % p)
        else:
            self.passed += 1
            if VERBOSE:
                print("ok   %s" % name)


def expect(problems, cond, what):
    if not cond:
        problems.append(what)


def expect_rc(problems, run, rc):
    if run.rc != rc:
        problems.append("exit status %d, expected %d; stderr: %s" % (run.rc, rc, run.err.strip()[-400:]))


def expect_json_lines(problems, run):
    """Every line of the results file is one JSON object with a type."""
    if run.lines is None:
        problems.append("no results file was written")
        return
    for i, line in enumerate(run.lines, 1):
        try:
            obj = json.loads(line)
        except ValueError as e:
            problems.append("results line %d is not JSON (%s): %r" % (i, e, line))
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
            problems.append("results line %d is not an object with a type: %r" % (i, line))


# ---- the cases -------------------------------------------------------------------------------

FULL_LAB = """
    import sys
    import wb
    wb.init("test/full")
    n = wb.param("N", 1000, 10)
    r = wb.param_f("R", 0.5, 0.25)
    k = wb.param("K", 7)
    wb.params_done()
    assert wb.param("N", 1000, 10) == n   # a second read with the same defaults is fine
    wb.device("Fake GPU", "9.0", 132, 62914560, 150000000000)
    wb.metric("plain", 3.5, "ms")
    wb.metric("whole", 16777216.0, "count")
    wb.metric("timed", wb.Stats(0.061, 0.060, 0.064), "ms")
    wb.metric("sampled", wb.stats_of([3, 1, 2, 10]), "us")
    wb.metric("by_hand", 2.0, "GB/s", samples=5, min=1.5, max=2.5, spread=0.5, clock="events")
    wb.metric("not_a_number", float("nan"), "x")
    wb.check("with_numbers", True, 0, 0, "all equal")
    wb.check("plain_check", 1 == 1)
    wb.check("detail_only", True, detail="fine")
    print("values:", n, r, k, wb.seed(), wb.quick())
    sys.exit(wb.finish())
"""


def case_full_run(s, problems):
    run = s.run(FULL_LAB, ["N=0x10", "R=1e-3", "seed=77"])
    expect_rc(problems, run, 0)
    expect_json_lines(problems, run)
    recs = run.records()
    kinds = [r["type"] for r in recs]
    expect(problems, kinds == ["start", "param", "param", "param", "device"] + ["metric"] * 6 + ["check"] * 3 + ["end"],
           "record order: %s" % kinds)
    start = recs[0]
    expect(problems, start == {"type": "start", "lab": "test/full", "seed": 77, "quick": False}, "start: %r" % start)
    params = {r["name"]: r["value"] for r in run.of("param")}
    expect(problems, params == {"N": 16, "R": 0.001, "K": 7}, "params: %r" % params)
    expect(problems, isinstance(params.get("N"), int) and isinstance(params.get("R"), float), "param value types")
    dev = run.of("device")[0]
    expect(problems, dev == {"type": "device", "name": "Fake GPU", "cc": "9.0", "sms": 132, "l2_bytes": 62914560,
                             "global_bytes": 150000000000}, "device: %r" % dev)
    m = {r["name"]: r for r in run.of("metric")}
    expect(problems, m["plain"] == {"type": "metric", "name": "plain", "value": 3.5, "unit": "ms"}, "plain: %r" % m["plain"])
    expect(problems, m["whole"]["value"] == 16777216 and isinstance(m["whole"]["value"], int), "whole: %r" % m["whole"])
    t = m["timed"]
    expect(problems, t["value"] == 0.061 and t["min"] == 0.06 and t["max"] == 0.064 and "samples" not in t,
           "timed: %r" % t)
    expect(problems, abs(t["spread"] - 0.004 / 0.061) < 1e-12, "timed spread: %r" % t)
    sm = m["sampled"]
    expect(problems, sm["value"] == 2.5 and sm["samples"] == 4 and sm["min"] == 1 and sm["max"] == 10
           and abs(sm["spread"] - 3.6) < 1e-12, "stats_of: %r" % sm)
    bh = m["by_hand"]
    expect(problems, bh == {"type": "metric", "name": "by_hand", "value": 2, "unit": "GB/s", "samples": 5, "min": 1.5,
                            "max": 2.5, "spread": 0.5, "clock": "events"}, "by_hand: %r" % bh)
    expect(problems, m["not_a_number"]["value"] is None, "NaN must be written as null: %r" % m["not_a_number"])
    c = {r["name"]: r for r in run.of("check")}
    expect(problems, c["with_numbers"] == {"type": "check", "name": "with_numbers", "pass": True, "value": 0, "limit": 0,
                                           "detail": "all equal"}, "with_numbers: %r" % c["with_numbers"])
    expect(problems, c["plain_check"] == {"type": "check", "name": "plain_check", "pass": True}, "plain_check")
    expect(problems, c["detail_only"] == {"type": "check", "name": "detail_only", "pass": True, "detail": "fine"},
           "detail_only: %r" % c["detail_only"])
    expect(problems, recs[-1] == {"type": "end", "pass": True}, "end: %r" % recs[-1])
    # The readable lines still go to stdout while the JSON goes to the file.
    for needle in ("[start]  test/full  seed=77 quick=0", "[param]  N = 16", "[device] Fake GPU: cc 9.0, 132 SMs",
                   "[metric] timed = 0.061 ms", "[check]  PASS with_numbers: 0 (limit 0)  all equal",
                   "[end]    PASS: 3 of 3 checks passed", "values: 16 0.001 7 77 False"):
        expect(problems, needle in run.out, "stdout lacks %r" % needle)


def case_quick(s, problems):
    run = s.run(FULL_LAB, ["quick=1"])
    expect_rc(problems, run, 0)
    params = {r["name"]: r["value"] for r in run.of("param")}
    expect(problems, params == {"N": 10, "R": 0.25, "K": 7}, "quick values: %r" % params)
    start = run.of("start")[0]
    expect(problems, start["quick"] is True and start["seed"] == 12345, "start: %r" % start)


def case_failed_check(s, problems):
    run = s.run("""
        import sys, wb
        wb.init("test/fail")
        wb.check("good", True)
        wb.check("bad", False, 3, 0, "3 elements differ")
        sys.exit(wb.finish())
    """)
    expect_rc(problems, run, 1)
    expect(problems, run.records()[-1] == {"type": "end", "pass": False}, "end: %r" % run.records()[-1:])
    expect(problems, "[end]    FAIL: 1 of 2 checks passed" in run.out, "stdout: %r" % run.out)


BAD_ARGS = [
    (["N"], "is not NAME=VALUE"),
    (["=5"], "NAME must match"),
    (["1N=5"], "NAME must match"),
    (["seed=abc"], "not an unsigned 64-bit integer"),
    (["seed=-1"], "not an unsigned 64-bit integer"),
    (["seed=18446744073709551616"], "not an unsigned 64-bit integer"),
    (["seed=1", "seed=2"], "seed is given twice"),
    (["quick=2"], "must be 0 or 1"),
    (["quick=1", "quick=0"], "quick is given twice"),
    (["N=5", "N=6"], "N is given twice"),
    (["N=abc"], "is not an integer"),
    (["N=1.5"], "is not an integer"),
    (["N=0x"], "is not an integer"),
    (["N= 5"], "is not an integer"),
    (["N=1_000"], "is not an integer"),
    (["N=9223372036854775808"], "is not an integer"),
    (["R=abc"], "is not a finite number"),
    (["R=inf"], "is not a finite number"),
    (["R=1e999"], "is not a finite number"),
    (["R=1e-999"], "is not a finite number"),
]

PARAM_LAB = """
    import sys, wb
    wb.init("test/args")
    wb.param("N", 1)
    wb.param_f("R", 1.0)
    wb.params_done()
    sys.exit(wb.finish())
"""


def case_bad_arguments(s, problems):
    for args, needle in BAD_ARGS:
        run = s.run(PARAM_LAB, args)
        if run.rc != 2:
            problems.append("%s: exit %d, expected 2" % (args, run.rc))
        elif needle not in run.err or "usage:" not in run.err:
            problems.append("%s: stderr lacks %r and the usage line: %r" % (args, needle, run.err))
    ok = s.run(PARAM_LAB, ["N=-0x10", "R=-2.5e3", "seed=0xFFFFFFFFFFFFFFFF"])
    expect_rc(problems, ok, 0)
    params = {r["name"]: r["value"] for r in ok.of("param")}
    expect(problems, params == {"N": -16, "R": -2500}, "params: %r" % params)
    expect(problems, ok.of("start")[0]["seed"] == 18446744073709551615, "hex seed")


def case_unknown_parameter(s, problems):
    run = s.run(PARAM_LAB, ["N=3", "BLOKC=5"])
    expect_rc(problems, run, 2)
    expect(problems, "unknown parameter(s): BLOKC; this lab reads: N, R (plus seed, quick)" in run.err,
           "stderr: %r" % run.err)
    # No params_done(): finish() catches it, and no `end` record is written.
    late = s.run("""
        import sys, wb
        wb.init("test/late")
        wb.check("c", True)
        sys.exit(wb.finish())
    """, ["X=1"])
    expect_rc(problems, late, 2)
    expect(problems, "this lab reads: no parameters" in late.err, "stderr: %r" % late.err)
    expect(problems, not late.of("end"), "an `end` record after bad arguments")


def case_bad_argument_from_lab(s, problems):
    run = s.run("""
        import sys, wb
        wb.init("test/range")
        n = wb.param("N", 5)
        if n < 1:
            wb.bad_argument("N must be at least 1")
        sys.exit(wb.finish())
    """, ["N=0"])
    expect_rc(problems, run, 2)
    expect(problems, "test/range: N must be at least 1" in run.err, "stderr: %r" % run.err)


def case_fatal(s, problems):
    run = s.run("""
        import sys, wb
        wb.error("early.py:1", "before init: printed only")
        wb.init("test/fatal")
        wb.metric("m", 1, "x")
        wb.fatal("lab.py:42", "the GPU said no")
    """)
    expect_rc(problems, run, 4)
    expect_json_lines(problems, run)
    errors = run.of("error")
    expect(problems, errors == [{"type": "error", "where": "lab.py:42", "message": "the GPU said no"}],
           "errors: %r" % errors)
    expect(problems, "error at early.py:1: before init: printed only" in run.err, "stderr: %r" % run.err)
    expect(problems, not run.of("end"), "no `end` after a fatal error")


def case_uncaught_exception(s, problems):
    run = s.run("""
        import sys, wb

        def work():
            raise ValueError("boom")

        wb.init("test/crash")
        wb.metric("before", 1, "x")
        work()
        sys.exit(wb.finish())
    """)
    expect_rc(problems, run, 4)
    errors = run.of("error")
    expect(problems, len(errors) == 1, "errors: %r" % errors)
    if errors:
        expect(problems, errors[0]["where"] == "lab_%d.py:5" % s.count, "where: %r" % errors[0]["where"])
        expect(problems, errors[0]["message"] == "ValueError: boom", "message: %r" % errors[0]["message"])
    expect(problems, "Traceback" in run.err, "no traceback on stderr: %r" % run.err)
    expect(problems, [r["name"] for r in run.of("metric")] == ["before"], "records before the crash are kept")


def case_harness_misuse(s, problems):
    bodies = {
        "metric before init": """
            import wb
            wb.metric("m", 1, "x")
        """,
        "bad result name": """
            import wb
            wb.init("t/x")
            wb.metric("Bad-Name", 1, "x")
        """,
        "name reported twice": """
            import wb
            wb.init("t/x")
            wb.check("c", True)
            wb.metric("c", 1, "x")
        """,
        "param read twice with other defaults": """
            import wb
            wb.init("t/x")
            wb.param("N", 1)
            wb.param("N", 2)
        """,
        "reserved parameter name": """
            import wb
            wb.init("t/x")
            wb.param("seed", 1)
        """,
        "metric value not a number": """
            import wb
            wb.init("t/x")
            wb.metric("m", "fast", "x")
        """,
        "init twice": """
            import wb
            wb.init("t/x")
            wb.init("t/x")
        """,
        "check after finish": """
            import wb
            wb.init("t/x")
            wb.finish()
            wb.check("late", True)
        """,
    }
    for name, body in bodies.items():
        run = s.run(body)
        if run.rc != 4:
            problems.append("%s: exit %d, expected 4 (stderr %r)" % (name, run.rc, run.err[-300:]))
        elif "error at harness:" not in run.err:
            problems.append("%s: stderr lacks 'error at harness:': %r" % (name, run.err))


def case_require(s, problems):
    hint = "pip install no_such_module_wb (a CUDA build; Colab has it)"
    run = s.run("""
        import wb
        wb.require("no_such_module_wb", %r)
        print("not reached")
    """ % hint)
    expect_rc(problems, run, 3)
    expect(problems, run.last_err_line() == "no_such_module_wb is missing: " + hint, "last line: %r" % run.last_err_line())
    expect(problems, "not reached" not in run.out, "require() returned")
    sub = s.run("""
        import wb
        wb.require("no_such_pkg_wb.language", "pip install it")
    """)
    expect_rc(problems, sub, 3)
    expect(problems, sub.last_err_line() == "no_such_pkg_wb.language is missing: pip install it",
           "submodule: %r" % sub.last_err_line())
    present = s.run("""
        import sys, wb
        js = wb.require("json", "never shown")
        path = wb.require("os.path", "never shown")
        wb.init("t/req")
        wb.check("imported", js.dumps([1]) == "[1]" and hasattr(path, "join"))
        sys.exit(wb.finish())
    """)
    expect_rc(problems, present, 0)
    broken = s.run("""
        import wb
        wb.require("broken_mod_wb", "reinstall broken_mod_wb")
    """, extra_files={"broken_mod_wb.py": "raise OSError('libcudart.so.13: cannot open shared object file')\n"})
    expect_rc(problems, broken, 3)
    expect(problems, broken.last_err_line() == "broken_mod_wb is installed but does not import: reinstall broken_mod_wb",
           "broken: %r" % broken.last_err_line())
    expect(problems, "libcudart.so.13" in broken.err, "broken: the import error is not shown: %r" % broken.err)
    inner = s.run("""
        import wb
        wb.require("inner_mod_wb", "pip install inner_mod_wb")
    """, extra_files={"inner_mod_wb.py": "import no_such_dependency_wb\n"})
    expect_rc(problems, inner, 3)
    expect(problems, "installed but does not import" in inner.last_err_line(),
           "a missing dependency of a present module: %r" % inner.last_err_line())


def case_missing(s, problems):
    run = s.run("""
        import wb
        wb.init("t/gpu")
        wb.missing("a CUDA GPU is needed:\\nrun on Colab")
    """)
    expect_rc(problems, run, 3)
    expect(problems, run.last_err_line() == "a CUDA GPU is needed: run on Colab", "last line: %r" % run.last_err_line())
    expect(problems, not run.of("end"), "an `end` record after missing()")


def case_no_results_file(s, problems):
    run = s.run(FULL_LAB, ["seed=5"], results=False)
    expect_rc(problems, run, 0)
    expect(problems, run.lines is None, "a results file was written without WORKBOOK_RESULTS")
    lines = run.out.splitlines()
    expect(problems, lines and lines[0] == "[start]  test/full  seed=5 quick=0", "first line: %r" % lines[:1])
    expect(problems, "(results:" not in run.out, "stdout names a results file")
    expect(problems, not any(l.startswith("{") for l in lines), "JSON on stdout: %r" % lines)
    expect(problems, "[metric] sampled = 2.5 us  (median of 4; min 1; max 10; spread 360.0%)" in run.out,
           "stdout: %r" % run.out)


def case_flushed(s, problems):
    run = s.run("""
        import os, wb
        wb.init("t/crash")
        wb.metric("m", 1.25, "ms")
        wb.check("c", True)
        os._exit(9)
    """)
    expect_rc(problems, run, 9)
    kinds = [r["type"] for r in run.records()]
    expect(problems, kinds == ["start", "metric", "check"], "records after a hard exit: %r" % kinds)


def case_appends(s, problems):
    old = '{"type":"note","from":"before"}\n'
    run = s.run(PARAM_LAB, [], prefill=old)
    expect_rc(problems, run, 0)
    expect(problems, run.lines and run.lines[0] == old.strip(), "the file was not appended to: %r" % run.lines[:1])


def case_text_escaping(s, problems):
    want = 'a "quote", a \\ backslash,\na newline, a\ttab, \x01 ctrl, \x7f del, caf\u00e9 \u2713'
    run = s.run("""
        import sys, wb
        wb.init("t/text")
        wb.check("text", True, detail=%r)
        sys.exit(wb.finish())
    """ % want, ["seed=1"])
    expect_rc(problems, run, 0)
    expect_json_lines(problems, run)
    expect(problems, len(run.lines or []) == 3, "one line per record: %r" % run.lines)
    got = run.of("check")[0].get("detail") if run.of("check") else None
    expect(problems, got == want, "detail round trip: %r" % got)
    shown = [l for l in run.out.splitlines() if l.startswith("[check]")]
    expect(problems, len(shown) == 1 and "newline" in shown[0], "the readable line is split: %r" % run.out)
    undecodable = s.run(PARAM_LAB, [os.fsdecode(b"N=\xff")])
    expect_rc(problems, undecodable, 2)


def case_rng(s, problems):
    for seed_value, (a, b, c, u) in RNG_REFERENCE.items():
        run = s.run("""
            import sys, wb
            wb.init("t/rng")
            r0, r3, r7 = wb.Rng(0), wb.Rng(3), wb.Rng(7)
            print("rng", r0.next(), r0.next(), r3.next(), repr(r7.uniform()), wb.stream_seed(0))
            sys.exit(wb.finish())
        """, ["seed=%d" % seed_value])
        expect_rc(problems, run, 0)
        line = [l for l in run.out.splitlines() if l.startswith("rng ")]
        want = "rng %d %d %d %r %d" % (a, b, c, u, a >> 1)
        expect(problems, line == [want], "seed %d: %r, want %r" % (seed_value, line, want))


def case_numbers(s, problems):
    run = s.run("""
        import sys, wb
        wb.init("t/num")
        wb.metric("tenth", 0.1, "x")
        wb.metric("huge", 1e300, "x")
        wb.metric("big_int", 2.0 ** 60, "x")
        wb.metric("neg", -3.0, "x")
        wb.metric("inf", float("inf"), "x")
        wb.check("nan_value", False, float("nan"), 0.5)
        sys.exit(wb.finish())
    """)
    expect_rc(problems, run, 1)
    expect_json_lines(problems, run)
    m = {r["name"]: r["value"] for r in run.of("metric")}
    expect(problems, m == {"tenth": 0.1, "huge": 1e300, "big_int": 2.0 ** 60, "neg": -3, "inf": None}, "metrics: %r" % m)
    c = run.of("check")[0]
    expect(problems, c["value"] is None and c["limit"] == 0.5 and c["pass"] is False, "check: %r" % c)


def main():
    s = Suite()
    cases = [
        ("a full run: records, JSON types, readable lines", case_full_run),
        ("quick=1 uses the quick values", case_quick),
        ("a failed check exits 1", case_failed_check),
        ("bad arguments exit 2", case_bad_arguments),
        ("an unknown parameter exits 2 with the known ones", case_unknown_parameter),
        ("bad_argument() exits 2", case_bad_argument_from_lab),
        ("fatal() writes an error record and exits 4", case_fatal),
        ("an uncaught exception exits 4 with an error record", case_uncaught_exception),
        ("harness misuse exits 4", case_harness_misuse),
        ("require(): missing or broken modules exit 3", case_require),
        ("missing() exits 3", case_missing),
        ("without WORKBOOK_RESULTS: readable lines only", case_no_results_file),
        ("records are flushed as written", case_flushed),
        ("the results file is appended to", case_appends),
        ("text is escaped into one JSON line", case_text_escaping),
        ("Rng matches the C++ harness", case_rng),
        ("numbers: shortest form, null for NaN/inf", case_numbers),
    ]
    return s.run_cases("wb_selftest", cases)


if __name__ == "__main__":
    sys.exit(main())
