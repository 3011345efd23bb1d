#!/usr/bin/env python3
"""module23/triton_add on a GPU below Triton's documented support (compute capability 8.0).

Triton supports compute capability 8.0 and newer; a T4 is 7.5. The lab (starter and
solution alike) must then say what it does, run a probe kernel of its own, and where
Triton refuses the GPU stop with exit 3 (the runner's NOT RUN) and a last stderr line
that says why, never failing the learner for Triton's support. This runs both files in
subprocesses against stand-ins for torch and triton written into a temporary folder
(nothing here imports the real packages):
  - cc 7.5, Triton refuses: exit 3, the reason names the GPU, its compute capability,
    Triton's 8.0 and the probe's error; the learner's kernel is never launched;
  - cc 7.5, Triton aborts the probe's process (an LLVM fatal error): exit 3 all the same,
    the reason naming the signal;
  - cc 7.5, Triton runs the probe: the lab says so and goes on (launching the learner's
    kernel, which the stand-in records), with no exit 3;
  - cc 8.6: no probe at all, straight to the learner's kernel.
Standard library only.

    python3 tests/scripts/triton_support_test.py [-v]

Exits 0 when every case passes, 1 otherwise; the last line reads "N passed, N failed".
"""
import os
import subprocess
import sys
import tempfile
import textwrap

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMON = os.path.join(REPO, "labs", "common")
LABS = [os.path.join(REPO, d, "module23", "triton_add.py") for d in ("labs", "solutions")]
VERBOSE = "-v" in sys.argv[1:]

# torch as far as the lab's start needs it: the device, its capability and name, a small
# tensor the probe adds 1 to. The first step past the probe (the random inputs) stops
# the lab with exit 7, so a case sees exactly what happened up to there.
FAKE_TORCH = '''
import os, sys
__version__ = "0.fake"
float32 = "float32"
class version:
    cuda = "12.8"
class _Device:
    def __init__(self, kind, index):
        self.type, self.index = kind, index
def device(kind, index):
    return _Device(kind, index)
class _Flag:
    def __init__(self, value):
        self.value = value
    def all(self):
        return self
    def item(self):
        return self.value
class Tensor:
    def __init__(self, values):
        self.values = values
    def __eq__(self, other):
        return _Flag(all(v == other for v in self.values))
def zeros(n, dtype=None, device=None):
    return Tensor([0.0] * n)
class Generator:
    def __init__(self, device=None):
        print("past the probe")
        sys.stdout.flush()
        os._exit(7)
class _Props:
    name = "Fake GPU"
    multi_processor_count = 40
    L2_cache_size = 4 << 20
    total_memory = 16 << 30
    def __init__(self):
        self.major, self.minor = (int(x) for x in os.environ["FAKE_CC"].split("."))
class cuda:
    @staticmethod
    def is_available():
        return True
    @staticmethod
    def current_device():
        return 0
    @staticmethod
    def get_device_properties(index):
        return _Props()
    @staticmethod
    def get_device_capability(dev=None):
        p = _Props()
        return p.major, p.minor
    @staticmethod
    def get_device_name(dev=None):
        return "Fake GPU"
    @staticmethod
    def synchronize():
        pass
'''

# triton.jit returns a kernel whose launch aborts the process (FAKE_TRITON_ABORT), raises
# as a refusing Triton does (FAKE_TRITON_REFUSE) or, for the probe, adds 1 to its tensor;
# every launch is appended to $FAKE_TRITON_LOG (the probe runs in a process of its own).
FAKE_TRITON = '''
import os
__version__ = "3.fake"
def cdiv(a, b):
    return (a + b - 1) // b
class _Kernel:
    def __init__(self, fn):
        self.name = fn.__name__
    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            with open(os.environ["FAKE_TRITON_LOG"], "a") as log:
                log.write("launch %s\\n" % self.name)
            if os.environ.get("FAKE_TRITON_ABORT"):
                os.abort()
            if os.environ.get("FAKE_TRITON_REFUSE"):
                raise RuntimeError(os.environ["FAKE_TRITON_REFUSE"] + "\\nsecond line of the error")
            if self.name == "probe_kernel":
                args[0].values = [v + 1.0 for v in args[0].values]
        return launch
def jit(fn):
    return _Kernel(fn)
'''
FAKE_LANGUAGE = "constexpr = int\n"
FAKE_TESTING = "def do_bench(fn, quantiles=None):\n    return 1.0, 1.0, 1.0\n"

REFUSAL = "PassManager::run failed: no lowering for sm_75"


def make_packages(root):
    os.makedirs(os.path.join(root, "triton"))
    files = {"torch.py": FAKE_TORCH, "triton/__init__.py": FAKE_TRITON, "triton/language.py": FAKE_LANGUAGE,
             "triton/testing.py": FAKE_TESTING}
    for rel, text in files.items():
        with open(os.path.join(root, rel), "w") as f:
            f.write(textwrap.dedent(text))


def run_lab(lab, fakes, cc, refuse, abort=False):
    """(exit status, stdout, stderr, the kernels launched in every process, one a line)."""
    log = os.path.join(fakes, "launches.log")
    if os.path.exists(log):
        os.remove(log)
    env = dict(os.environ)
    env["FAKE_TRITON_LOG"] = log
    if abort:
        env["FAKE_TRITON_ABORT"] = "1"
    else:
        env.pop("FAKE_TRITON_ABORT", None)
    env.pop("WORKBOOK_RESULTS", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ beside the labs
    env["PYTHONPATH"] = os.pathsep.join([fakes, COMMON])
    env["FAKE_CC"] = cc
    if refuse:
        env["FAKE_TRITON_REFUSE"] = refuse
    else:
        env.pop("FAKE_TRITON_REFUSE", None)
    p = subprocess.run([sys.executable, lab, "quick=1"], env=env, capture_output=True, text=True, timeout=60)
    launches = open(log).read() if os.path.exists(log) else ""
    return p.returncode, p.stdout, p.stderr, launches


def check_refused(rc, out, err, launches, reason=REFUSAL):
    problems = []
    last = err.strip().splitlines()[-1] if err.strip() else ""
    if rc != 3:
        problems.append("exit %d, want 3 (NOT RUN)" % rc)
    for want in ("Triton 3.fake does not run on Fake GPU (compute capability 7.5)", reason,
                 "compute capability 8.0 and newer", "not your code"):
        if want not in last:
            problems.append("the last stderr line lacks %r: %r" % (want, last))
    if "second line of the error" in last:
        problems.append("the reason carries more than the error's first line: %r" % last)
    if "is below 8.0, where Triton's documented support starts" not in out:
        problems.append("stdout does not say the GPU is below Triton's support: %r" % out)
    if launches != "launch probe_kernel\n":
        problems.append("launches %r, want the probe's alone (never the learner's kernel)" % launches)
    return problems


def check_aborted(rc, out, err, launches):
    return check_refused(rc, out, err, launches, reason="its process was killed by signal 6")


def check_probe_ran(rc, out, err, launches):
    problems = []
    if rc != 7:
        problems.append("exit %d, want the stand-in's 7 (the lab went on past the probe): %s" % (rc, err))
    for want in ("the probe ran: Triton works on this GPU", "past the probe"):
        if want not in out:
            problems.append("stdout lacks %r: %r" % (want, out))
    if launches != "launch probe_kernel\n":
        problems.append("launches %r, want the probe's" % launches)
    return problems


def check_no_probe(rc, out, err, launches):
    problems = []
    if rc != 7:
        problems.append("exit %d, want the stand-in's 7: %s" % (rc, err))
    if "probe" in out.replace("past the probe", "") or launches:
        problems.append("a cc 8.6 GPU was probed: %r, launches %r" % (out, launches))
    return problems


def main():
    cases = [("cc 7.5, Triton refuses", "7.5", REFUSAL, False, check_refused),
             ("cc 7.5, Triton aborts the probe's process", "7.5", "", True, check_aborted),
             ("cc 7.5, the probe runs", "7.5", "", False, check_probe_ran),
             ("cc 8.6, no probe", "8.6", "", False, check_no_probe)]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as fakes:
        make_packages(fakes)
        for lab in LABS:
            for name, cc, refuse, abort, check in cases:
                label = "%s: %s" % (os.path.relpath(lab, REPO), name)
                problems = check(*run_lab(lab, fakes, cc, refuse, abort))
                if problems:
                    failed += 1
                    print("FAIL %s\n  %s" % (label, "\n  ".join(problems)))
                else:
                    passed += 1
                    if VERBOSE:
                        print("ok   %s" % label)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
