"""wb.py: the Python half of the workbook lab harness.

A Python lab is an ordinary script; this module lets it speak the lab contract
(docs/lab-contract.md) exactly as labs/common/wb_host.hpp does for C++ labs: NAME=VALUE
arguments, parameters with a quick value for smoke runs, and results written one JSON
object a line to the file named by $WORKBOOK_RESULTS. Standard library only (Python 3.8
or newer), so it imports anywhere; the packages a lab needs (torch, triton) are asked for
with require(), which exits 3 with an install hint when one is missing.

A minimal lab:

    import sys
    import wb

    torch = wb.require("torch", "pip install torch")   # exit 3 when it is missing

    def main():
        wb.init("module23/example")
        n = wb.param("N", 1 << 20, 1 << 10)             # full value, quick value
        wb.params_done()                                # reject typos before long work
        ...
        wb.metric("add_ms", wb.Stats(0.061, 0.060, 0.064), "ms")
        wb.check("add_ok", mismatches == 0, mismatches, 0)
        sys.exit(wb.finish())                           # 0 every check passed, 1 not

    if __name__ == "__main__":
        main()

Exit codes: 0 every check passed, 1 a check failed, 2 bad arguments, 3 a requirement is
missing (a package, a GPU: the last line on stderr says what to do), 4 harness error or
an exception the lab did not catch (an `error` record says where). Without
WORKBOOK_RESULTS every record is printed as a readable line on stdout; with it, the JSON
goes to the file too. Every line is flushed as soon as it is written, so a crash never
loses the records before it.

Under `workbook run --ncu` or `--sanitize` the runner sets WB_PROFILER: under_profiler()
names the tool, skip_check(name, why) reports a check the tool makes meaningless (a
measured speed) as the C++ wb::skip_check does, and time_calls() takes one sample.

Run a lab by hand with labs/common on the module path:

    PYTHONPATH=labs/common python3 labs/module23/triton_add.py N=65536 seed=7
"""

import importlib
import math
import os
import re
import sys
import time
import traceback

__all__ = [
    "init", "seed", "quick", "param", "param_f", "params_done", "bad_argument",
    "Rng", "stream_seed", "Stats", "stats_of", "time_calls", "cuda_event_timer", "metric", "check",
    "under_profiler", "skip_check", "error", "fatal", "device", "device_from_torch", "require", "missing",
    "finish",
]

# The seed used when none is passed, so that runs by hand repeat exactly (as in C++).
DEFAULT_SEED = 12345

_MASK64 = (1 << 64) - 1
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_RESULT_NAME = re.compile(r"[a-z0-9_]+\Z")
_INT_TEXT = re.compile(r"[+-]?(0[xX][0-9a-fA-F]+|[0-9]+)\Z")
_UINT_TEXT = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)\Z")
_REAL_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")


class _State:
    def __init__(self):
        self.started = False
        self.finished = False
        self.lab = ""
        self.seed = DEFAULT_SEED
        self.quick = False
        self.args = []          # [name, value, used] for every NAME=VALUE but seed/quick
        self.known = []         # parameter names the lab has read, in order
        self.known_values = {}  # name -> the JSON text of the value it resolved to
        self.reported = set()   # metric and check names used so far
        self.results = None     # the results file, or None: readable lines only
        self.results_path = ""
        self.checks = 0
        self.failed = 0


_s = _State()


# ---- text and JSON ---------------------------------------------------------------------

def _clean_text(text):
    """text as a str that encodes to UTF-8 (a lone surrogate, say from an undecodable
    command-line byte, becomes '?'), so every JSON line stays valid."""
    if not isinstance(text, str):
        text = str(text)
    return text.encode("utf-8", "replace").decode("utf-8")


def _json_string(text):
    out = ['"']
    for ch in _clean_text(text):
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _json_number(value):
    """A float as the shortest text that reads back the same; NaN and infinity, which
    JSON lacks, become null. Whole numbers below 2^53 are written without a fraction."""
    v = float(value)
    if not math.isfinite(v):
        return "null"
    if v == int(v) and abs(v) < 2.0 ** 53:
        return str(int(v))
    return repr(v)


def _json_value(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _json_number(value)
    return _json_string(value)


def _record(kind, fields):
    """One results line: {"type":kind, then the (key, value) pairs in order}."""
    parts = ['"type":' + _json_string(kind)]
    for key, value in fields:
        parts.append(_json_string(key) + ":" + _json_value(value))
    return "{" + ",".join(parts) + "}\n"


def _human(value):
    """A number for the readable lines: 6 significant digits, nan/inf as they are."""
    return "%.6g" % float(value)


def _write_stream(stream, text):
    try:
        stream.write(text)
    except UnicodeEncodeError:  # a terminal that cannot show every character
        encoding = getattr(stream, "encoding", None) or "ascii"
        stream.write(text.encode(encoding, "replace").decode(encoding, "replace"))
    stream.flush()


def _fold(line, width):
    """`line` folded at spaces into lines of at most `width` characters, each after the
    first indented under the text after the record's tag ("[check]  "), as wb_host.hpp
    folds them; a word longer than a line stays whole; under 40 columns, as it is."""
    pad = " " * 9
    if width < 40 or len(line) <= width:
        return line
    out, rest, first = [], line, True
    while rest:
        room = width if first else width - len(pad)
        if len(rest) <= room:
            out.append(rest)
            break
        cut = rest.rfind(" ", 0, room + 1)
        if cut <= 0:
            cut = rest.find(" ", room)
        if cut < 0:
            out.append(rest)
            break
        out.append(rest[:cut])
        rest, first = rest[cut:].lstrip(" "), False
    return ("\n" + pad).join(out)


def _emit(line, readable):
    """Writes one record: the readable line on stdout always (folded to a terminal's
    width; a log or a pipe keeps it on one line), the JSON line to the results file when
    there is one. Both are flushed at once."""
    shown = "".join(" " if (ord(c) < 0x20 or ord(c) == 0x7F) else c for c in _clean_text(readable))
    try:  # the terminal's width, else the one the runner passes when it shows these lines
        width = (os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty()
                 else int(os.environ.get("WB_COLUMNS", "0")))
    except (OSError, ValueError):  # no size known, or stdout replaced by an object without a file
        width = 0
    shown = _fold(shown, width)
    _write_stream(sys.stdout, shown + "\n")
    if _s.results is not None:
        _s.results.write(line)
        _s.results.flush()


def _flush_std():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # a closed stream: nothing left to flush
            pass


def _usage_exit(message):
    """Bad command line: say why on stderr and exit 2 (no `end` record is written)."""
    _flush_std()
    _write_stream(sys.stderr, "%s: %s\n" % (_s.lab or "lab", message))
    _write_stream(sys.stderr, "usage: python3 lab.py [NAME=VALUE ...]   (reserved: seed=<uint64>, quick=0|1)\n")
    _close_results()
    sys.exit(2)


def _close_results():
    if _s.results is not None:
        try:
            _s.results.close()
        finally:
            _s.results = None


# ---- errors ------------------------------------------------------------------------------

def error(where, message):
    """Records an `error` record (where: "lab.py:123", message: what went wrong) and prints
    it on stderr. Usable before init (then it only prints). Does not exit: see fatal()."""
    _flush_std()
    _write_stream(sys.stderr, "error at %s: %s\n" % (_clean_text(where), _clean_text(message)))
    if _s.results is not None:
        _s.results.write(_record("error", [("where", str(where)), ("message", str(message))]))
        _s.results.flush()


def fatal(where, message):
    """Records an error and exits with status 4 (harness error, or a GPU error)."""
    error(where, message)
    _close_results()
    sys.exit(4)


def bad_argument(message):
    """For a lab's own argument checks (a size out of range): prints the message and
    exits 2, like any other bad argument."""
    _usage_exit(message)


def _require_running(api):
    if not _s.started:
        fatal("harness", "%s called before wb.init" % api)
    if _s.finished:
        fatal("harness", "%s called after wb.finish" % api)


def _claim_result_name(api, name):
    """Metric and check names must match [a-z0-9_]+ and be used once per run."""
    _require_running(api)
    if not isinstance(name, str) or not _RESULT_NAME.match(name):
        fatal("harness", "%s: name %r must match [a-z0-9_]+" % (api, name))
    if name in _s.reported:
        fatal("harness", "%s: name '%s' was already reported in this run" % (api, name))
    _s.reported.add(name)


def _lab_frame(tb):
    """The innermost traceback entry that lies in the lab's own script (its __main__),
    else the innermost entry of all: where an uncaught exception is reported."""
    chosen = None
    last = None
    while tb is not None:
        last = tb
        if tb.tb_frame.f_globals.get("__name__") == "__main__":
            chosen = tb
        tb = tb.tb_next
    entry = chosen or last
    if entry is None:
        return "lab"
    return "%s:%d" % (os.path.basename(entry.tb_frame.f_code.co_filename), entry.tb_lineno)


def _excepthook(kind, value, tb):
    """An exception the lab did not catch: the traceback on stderr as usual, then an
    `error` record naming the lab's line, and exit 4 (never 1, which means a failed
    check). Ctrl-C keeps Python's own handling."""
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, value, tb)
        return
    try:
        _flush_std()
        traceback.print_exception(kind, value, tb)
        text = "".join(traceback.format_exception_only(kind, value)).strip()
        error(_lab_frame(tb), text)
        _close_results()
        _flush_std()
    finally:
        os._exit(4)


sys.excepthook = _excepthook


# ---- start ---------------------------------------------------------------------------------

def _parse_int(text):
    if not _INT_TEXT.match(text):
        return None
    value = int(text, 0) if re.match(r"[+-]?0[xX]", text) else int(text, 10)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


def _parse_uint(text):
    if not _UINT_TEXT.match(text):
        return None
    value = int(text, 16) if text[:2] in ("0x", "0X") else int(text, 10)
    return value if value <= _MASK64 else None


def _parse_real(text):
    match = _REAL_TEXT.match(text)
    if not match:
        return None
    value = float(text)
    if not math.isfinite(value):
        return None
    if value == 0.0 and re.search(r"[1-9]", match.group(1)):
        return None  # underflowed to zero: out of range, as strtod says
    return value


def init(lab, argv=None):
    """Parses the NAME=VALUE arguments (sys.argv[1:] by default), opens
    $WORKBOOK_RESULTS for appending and writes `start`. lab is the lab's address, for
    example "module23/triton_add". Bad arguments exit 2."""
    if _s.started:
        fatal("harness", "wb.init called twice")
    _s.lab = str(lab or "")
    seen_seed = seen_quick = False
    for arg in (sys.argv[1:] if argv is None else list(argv)):
        arg = _clean_text(arg)
        if "=" not in arg:
            _usage_exit("argument '%s' is not NAME=VALUE (for example N=4096)" % arg)
        name, value = arg.split("=", 1)
        if not _IDENTIFIER.match(name):
            _usage_exit("argument '%s': NAME must match [A-Za-z_][A-Za-z0-9_]*" % arg)
        if name == "seed":
            if seen_seed:
                _usage_exit("seed is given twice")
            parsed = _parse_uint(value)
            if parsed is None:
                _usage_exit("seed='%s' is not an unsigned 64-bit integer" % value)
            _s.seed = parsed
            seen_seed = True
        elif name == "quick":
            if seen_quick:
                _usage_exit("quick is given twice")
            if value not in ("0", "1"):
                _usage_exit("quick='%s' must be 0 or 1" % value)
            _s.quick = value == "1"
            seen_quick = True
        else:
            if any(a[0] == name for a in _s.args):
                _usage_exit("%s is given twice" % name)
            _s.args.append([name, value, False])

    path = os.environ.get("WORKBOOK_RESULTS", "")
    if path:
        try:
            _s.results = open(path, "a", encoding="utf-8", newline="\n")
        except OSError as e:
            fatal("harness", "cannot open WORKBOOK_RESULTS file '%s': %s" % (path, e.strerror or e))
        _s.results_path = path
    _s.started = True

    readable = "[start]  %s  seed=%d quick=%d" % (_s.lab, _s.seed, 1 if _s.quick else 0)
    if _s.results is not None:
        readable += "  (results: %s)" % path
    _emit(_record("start", [("lab", _s.lab), ("seed", _s.seed), ("quick", _s.quick)]), readable)


def seed():
    """The run's seed (the runner passes a fresh one; by hand it is 12345)."""
    return _s.seed


def quick():
    """True under quick=1: parameters take their quick values."""
    return _s.quick


# ---- parameters ------------------------------------------------------------------------------

def _lookup_param(api, name):
    """Marks name as a parameter of the lab; returns its override text or None."""
    _require_running(api)
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        fatal("harness", "%s: %r is not a valid parameter name" % (api, name))
    if name in ("seed", "quick"):
        fatal("harness", "%s: '%s' is reserved; use wb.seed() / wb.quick()" % (api, name))
    for a in _s.args:
        if a[0] == name:
            a[2] = True
            return a[1]
    return None


def _note_param(name, json_text, shown):
    """Records the value a parameter resolved to, the first time it is read; a later
    read must resolve to the same value."""
    if name in _s.known_values:
        if _s.known_values[name] != json_text:
            fatal("harness", "parameter %s read twice with different values (%s, then %s)"
                  % (name, _s.known_values[name], json_text))
        return
    _s.known.append(name)
    _s.known_values[name] = json_text
    _emit('{"type":"param","name":%s,"value":%s}\n' % (_json_string(name), json_text),
          "[param]  %s = %s" % (name, shown))


def param(name, full, quick_value=None):
    """An integer parameter: the NAME=VALUE override if given, else quick_value under
    quick=1 (full when quick_value is None), else full. Overrides are decimal or 0x-hex;
    anything else exits 2. Writes a `param` record the first time it is read."""
    text = _lookup_param("wb.param", name)
    if quick_value is None:
        quick_value = full
    for default in (full, quick_value):
        if isinstance(default, bool) or not isinstance(default, int):
            fatal("harness", "wb.param: the defaults of %s must be integers (got %r)" % (name, default))
    value = quick_value if _s.quick else full
    if text is not None:
        value = _parse_int(text)
        if value is None:
            _usage_exit("%s='%s' is not an integer" % (name, text))
    _note_param(name, str(value), str(value))
    return value


def param_f(name, full, quick_value=None):
    """A real-valued parameter; the same rules as param()."""
    text = _lookup_param("wb.param_f", name)
    if quick_value is None:
        quick_value = full
    value = float(quick_value if _s.quick else full)
    if text is not None:
        parsed = _parse_real(text)
        if parsed is None:
            _usage_exit("%s='%s' is not a finite number" % (name, text))
        value = parsed
    if not math.isfinite(value):
        fatal("harness", "wb.param_f: default of %s is not finite" % name)
    _note_param(name, _json_number(value), _human(value))
    return value


def params_done():
    """Rejects (exit 2) every NAME=VALUE that no param() call has read so far, naming
    the parameters the lab does read. finish() calls it too; call it right after reading
    the parameters so that a typo stops the lab before any long work."""
    unknown = [a[0] for a in _s.args if not a[2]]
    if not unknown:
        return
    known = ", ".join(_s.known) if _s.known else "no parameters"
    _usage_exit("unknown parameter(s): %s; this lab reads: %s (plus seed, quick)" % (", ".join(unknown), known))


# ---- seeded random numbers ---------------------------------------------------------------------

def _mix64(z):
    """splitmix64's output function, as in wb_host.hpp."""
    z &= _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class Rng:
    """The C++ harness's generator (splitmix64), bit for bit: one stream under the run's
    seed. Different streams give unrelated sequences; the same seed and stream repeat."""

    def __init__(self, stream):
        self._state = _mix64(seed() ^ _mix64(int(stream) + 0x632BE59BD9B4E019))

    def next(self):
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        return _mix64(self._state)

    def uniform(self):
        """A double in [0, 1)."""
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)


def stream_seed(stream):
    """A seed in [0, 2^63) for another generator (torch.Generator().manual_seed, say),
    drawn from the run's seed and a stream number: one per input array."""
    return Rng(stream).next() >> 1


# ---- statistics ----------------------------------------------------------------------------------

class Stats:
    """A summary of repeated timings: what metric() writes as value (the median),
    samples, min, max and spread ((max - min) / median). samples may be None where the
    timer does not say how many it took (triton.testing.do_bench)."""

    def __init__(self, median, min, max, samples=None, clock=None):  # noqa: A002 (the record's names)
        self.median = float(median)
        self.min = float(min)
        self.max = float(max)
        self.samples = samples
        self.clock = clock
        self.spread = (self.max - self.min) / self.median if self.median > 0 else 0.0

    def scaled(self, factor):
        """The same summary in another unit (ms -> us: scaled(1e3))."""
        return Stats(self.median * factor, self.min * factor, self.max * factor, self.samples, self.clock)


def stats_of(samples):
    """Median, min, max and spread of a list of numbers."""
    values = sorted(float(v) for v in samples)
    if not values:
        nan = float("nan")
        return Stats(nan, nan, nan, 0)
    n = len(values)
    median = values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])
    return Stats(median, values[0], values[-1], n)


# ---- timing ----------------------------------------------------------------------------------------

def _host_timer(fn):
    """Milliseconds of one call of fn on the host's monotonic clock."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


_host_timer.clock = "host"


def cuda_event_timer(torch):
    """A timer for time_calls() that brackets one call of fn with a pair of CUDA events on
    torch's current stream and waits for the second: GPU time in ms, clock "events".
    torch is the module, passed in so that this file needs no package."""
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)

    def timer(fn):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        return float(start.elapsed_time(stop))

    timer.clock = "events"
    return timer


def time_calls(fn, samples=20, warmup=2, timer=None):
    """Times fn(): warmup untimed calls, then samples calls, each measured by timer(fn)
    (milliseconds of that one call); returns their Stats, with the timer's clock.
    The default timer reads the host clock around the call, which suits work that is
    done when fn returns; for GPU work pass cuda_event_timer(torch).
    Under a profiler (under_profiler()) it makes one warm-up call and takes one sample,
    as the C++ time_kernel does: the tool profiles or slows every call, and timings are
    not graded there."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        fatal("harness", "wb.time_calls: samples must be an integer >= 1 (got %r)" % (samples,))
    if isinstance(warmup, bool) or not isinstance(warmup, int) or warmup < 0:
        fatal("harness", "wb.time_calls: warmup must be an integer >= 0 (got %r)" % (warmup,))
    if timer is None:
        timer = _host_timer
    if under_profiler():
        warmup, samples = 1, 1
    for _ in range(warmup):
        fn()
    result = stats_of([timer(fn) for _ in range(samples)])
    result.clock = getattr(timer, "clock", None)
    return result


# ---- results ---------------------------------------------------------------------------------------

def _real(api, what, value):
    try:
        return float(value)
    except (TypeError, ValueError):
        fatal("harness", "%s: %s %r is not a number" % (api, what, value))


def metric(name, value, unit, samples=None, min=None, max=None, spread=None, clock=None):  # noqa: A002
    """A measured figure. unit is free text: "ms", "GB/s", "x", "%", "count". value may
    be a Stats (its median is the value; samples, min, max, spread and clock come with it)
    or a number, with the same optional fields given by hand."""
    _claim_result_name("wb.metric", name)
    if isinstance(value, Stats):
        samples, min, max, spread, clock = value.samples, value.min, value.max, value.spread, value.clock
        value = value.median
    v = _real("wb.metric", "value", value)
    fields = [("name", name), ("value", v), ("unit", str(unit))]
    extra = []
    if samples is not None:
        fields.append(("samples", int(samples)))
        extra.append("median of %d" % int(samples))
    if min is not None:
        fields.append(("min", _real("wb.metric", "min", min)))
        extra.append("min " + _human(min))
    if max is not None:
        fields.append(("max", _real("wb.metric", "max", max)))
        extra.append("max " + _human(max))
    if spread is not None:
        fields.append(("spread", _real("wb.metric", "spread", spread)))
        extra.append("spread %.1f%%" % (100.0 * float(spread)))
    if clock:
        fields.append(("clock", str(clock)))
        extra.append("clock: %s" % clock)
    readable = "[metric] %s = %s %s" % (name, _human(v), unit)
    if extra:
        readable += "  (" + "; ".join(extra) + ")"
    _emit(_record("metric", fields), readable)


def check(name, passed, value=None, limit=None, detail=""):
    """A correctness check, with the measured value and the limit it was held to when
    there are numbers. Returns passed (as a bool)."""
    _claim_result_name("wb.check", name)
    ok = bool(passed)
    _s.checks += 1
    if not ok:
        _s.failed += 1
    fields = [("name", name), ("pass", ok)]
    readable = "[check]  %s %s" % ("PASS" if ok else "FAIL", name)
    numbers = []
    if value is not None:
        v = _real("wb.check", "value", value)
        fields.append(("value", v))
        numbers.append(_human(v))
    if limit is not None:
        lim = _real("wb.check", "limit", limit)
        fields.append(("limit", lim))
        numbers.append("(limit %s)" % _human(lim))
    if numbers:
        readable += ": " + " ".join(numbers)
    if detail:
        fields.append(("detail", str(detail)))
        readable += ("  " if numbers else ": ") + str(detail)
    _emit(_record("check", fields), readable)
    return ok


def under_profiler():
    """The tool the runner started this lab under ("ncu", "sanitize"), or None: `workbook
    run --ncu/--sanitize` sets WB_PROFILER. Under one every kernel is replayed (ncu) or
    slowed many times over (compute-sanitizer), so a check about measured speed cannot be
    made: report it with skip_check() instead."""
    tool = os.environ.get("WB_PROFILER", "")
    return tool or None


def skip_check(name, why):
    """A check this run cannot make (see under_profiler), reported with the reason: a
    `check` record with pass true and skipped true. It neither passes nor fails the run
    (it is not counted in finish()'s tally) and the runner shows it as SKIP."""
    _claim_result_name("wb.skip_check", name)
    fields = [("name", name), ("pass", True), ("skipped", True), ("detail", str(why))]
    _emit(_record("check", fields), "[check]  SKIP %s: %s" % (name, why))


def device(name, cc, sms, l2_bytes, global_bytes):
    """The `device` record: the GPU the lab ran on (cc as "9.0")."""
    _require_running("wb.device")
    fields = [("name", str(name)), ("cc", str(cc)), ("sms", int(sms)), ("l2_bytes", int(l2_bytes)),
              ("global_bytes", int(global_bytes))]
    readable = "[device] %s: cc %s, %d SMs, L2 %.1f MiB, %.1f GiB global" % (
        name, cc, int(sms), int(l2_bytes) / 1048576.0, int(global_bytes) / 1073741824.0)
    _emit(_record("device", fields), readable)


def device_from_torch(torch, index=None):
    """Writes the `device` record for a CUDA device as torch sees it (the current one by
    default). torch is the module, passed in so that this file needs no package."""
    if index is None:
        index = torch.cuda.current_device()
    props = torch.cuda.get_device_properties(index)
    device(props.name, "%d.%d" % (props.major, props.minor), props.multi_processor_count,
           getattr(props, "L2_cache_size", 0), props.total_memory)


# ---- requirements ----------------------------------------------------------------------------------

def missing(message):
    """A requirement of the lab is not there (a GPU, a driver): prints message as the
    last line on stderr, saying what to install or where to run, and exits 3. The runner
    reports the run as not_run."""
    _flush_std()
    _close_results()
    _write_stream(sys.stderr, _clean_text(message).replace("\n", " ") + "\n")
    sys.exit(3)


def require(module_name, install_hint):
    """Imports and returns module_name ("torch", "triton.language"). When it is not
    installed, prints "<module> is missing: <install_hint>" on stderr and exits 3; when it
    is installed but fails to import, says so first, then exits 3 the same way."""
    try:
        return importlib.import_module(module_name)
    except ImportError as e:
        absent = getattr(e, "name", None)
        if absent is not None and (module_name == absent or module_name.startswith(absent + ".")):
            missing("%s is missing: %s" % (module_name, install_hint))
        problem = "%s: %s" % (type(e).__name__, e)
    except Exception as e:  # a broken install: a library it loads is not there, say
        problem = "%s: %s" % (type(e).__name__, e)
    _flush_std()
    _write_stream(sys.stderr, "importing %s failed: %s\n" % (module_name, _clean_text(problem).replace("\n", " ")))
    missing("%s is installed but does not import: %s" % (module_name, install_hint))


# ---- end -------------------------------------------------------------------------------------------

def finish():
    """Rejects unknown arguments (exit 2), writes `end` with pass = every check passed,
    closes the results file and returns the exit status: sys.exit(wb.finish())."""
    _require_running("wb.finish")
    params_done()
    _s.finished = True
    ok = _s.failed == 0
    readable = "[end]    %s: %d of %d checks passed" % ("PASS" if ok else "FAIL", _s.checks - _s.failed, _s.checks)
    if _s.checks == 0:
        readable += " (this lab ran no checks)"
    _emit(_record("end", [("pass", ok)]), readable)
    _close_results()
    return 0 if ok else 1
