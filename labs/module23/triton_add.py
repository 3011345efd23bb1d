"""
Module 23 lab: a vector add written in Triton, against torch's own add. STARTER: the
body of add_kernel and the grid in launch_add are yours to write (see their TODOs);
everything else is complete.

Goal: write c = a + b for float32 vectors as a Triton kernel (one program per BLOCK
elements: program_id, a block of offsets from tl.arange, a mask instead of the CUDA
bounds check), check it exactly, then time it with triton.testing.do_bench and hold the
bandwidth it reaches against torch's a + b and against the roofline of Module 4: 12 bytes
and 1 FLOP an element, so the time is bytes over DRAM bandwidth. Finally sweep BLOCK over
128, 256, 1024 and 4096 and see how little it matters once each program has enough work.

Correctness comes first, on fresh random inputs in [-1, 1] (no element is zero), with the
output poisoned (NaN) and set between two canary bands (16384 elements either side, a
known bit pattern):
  - at N_ODD = 1000003 elements, which no BLOCK divides, so the last program sticks out
    past the end: a grid rounded down leaves the tail NaN, and a store without its mask
    writes into the band after the output (check add_bounds);
  - at N, the size that is timed (default 2^24 = 16,777,216, as Module 4's CUDA add).
The check is exact: a single float32 addition is correctly rounded (IEEE 754, round to
nearest even) on the CPU and on the GPU alike, so the kernel must reproduce the CPU sum
bit for bit. Only a kernel that passes is timed.

Run by hand (a CUDA GPU with torch and triton: Colab has both):
  PYTHONPATH=labs/common python3 labs/module23/triton_add.py
  PYTHONPATH=labs/common python3 labs/module23/triton_add.py N=65536 BLOCK=256 seed=7

Parameters (NAME=VALUE): N (elements, default 2^24, 2^20 with quick=1), BLOCK (elements
a program, a power of two from 16 to 16384, default 1024), seed, quick=1. Without torch,
triton or a CUDA GPU the lab exits 3 and says what is missing. On a GPU below compute
capability 8.0 (a T4), where Triton's documented support ends, it first runs a probe
kernel of its own, and exits 3 with the reason where Triton refuses the GPU.
"""

import os
import subprocess
import sys

import wb

INSTALL_HINT = "pip install torch triton (a CUDA build of torch; Colab has both)"
torch = wb.require("torch", INSTALL_HINT)
triton = wb.require("triton", INSTALL_HINT)
tl = wb.require("triton.language", INSTALL_HINT)
triton_testing = wb.require("triton.testing", INSTALL_HINT)

# The correctness size no BLOCK divides (1000003 is prime).
N_ODD = 1000003
# Canary band on either side of every output: 16384 float32 = 64 KiB, as the CUDA
# harness uses, wider than the largest BLOCK's overhang.
BAND = 16384
# The band's bit pattern as int32: every byte 0xA5 (as float32, about -2.9e-16). No sum
# of two inputs has these bits, so any store into a band shows.
CANARY = 0xA5A5A5A5 - (1 << 32)
# Bytes each element moves: loads of a[i] and b[i], the store of c[i].
BYTES_PER_ELEMENT = 12
# The BLOCK sweep (timed at N, reported as gbps_block<B>).
SWEEP = (128, 256, 1024, 4096)
# Triton's documented support starts at compute capability 8.0 (Ampere). Older GPUs (a
# T4 is 7.5) often run a plain float32 kernel such as this lab's, but not with every
# Triton release: there the lab first runs a probe kernel of its own (triton_runs_here),
# and where Triton refuses the GPU it stops as NOT RUN and says why, never failing your
# kernel for Triton's support.
TRITON_MIN_CC = (8, 0)
# This file run with PROBE_ARG runs only the probe (probe_here), in its own process.
PROBE_ARG = "--triton-probe"
PROBE_TIMEOUT_S = 120


# ----------------------------------------------------------------------------
# CPU reference

def add_cpu(a, b):
    """a + b on the CPU (torch CPU tensors): one correctly rounded float32 addition per
    element, the same bits the GPU's addition gives."""
    return a + b


# ----------------------------------------------------------------------------
# Kernels

@triton.jit
def add_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    """c[i] = a[i] + b[i] for the BLOCK elements this program owns."""
    pid = tl.program_id(axis=0)  # which block of the vectors this program owns: CUDA's blockIdx.x
    # TODO (Module 23.1): the body. Until you write it the kernel stores nothing, c keeps
    # its NaN poison, add_ok and add_odd_ok fail, and nothing is timed.
    #
    # Contract: program pid owns BLOCK consecutive elements, the pid-th run of BLOCK in
    # the vectors; it computes c = a + b for those of them that lie inside the n
    # elements, working on all BLOCK at once as vectors (Triton has no per-thread index).
    # Checks: N_ODD = 1000003, which no BLOCK divides, with canary bands after c
    # (add_odd_ok, add_bounds), and the default N (add_ok). Pitfall: the last program
    # sticks out past the end of the vectors, and its lanes out there must neither
    # read nor write.
    #
    # Before you run it: 12 bytes move for each element. From Module 4, what bandwidth
    # should this reach on your GPU, and should BLOCK change it?


# ----------------------------------------------------------------------------
# Launcher (enqueue only; the caller synchronizes)

def launch_add(a, b, c, n, block):
    """One program per BLOCK elements, the last one partly masked."""
    # TODO (Module 23.1): the grid that starts a program for every BLOCK elements of the
    # n, the last partial run included (add_odd_ok, add_ok). A grid is a tuple, one
    # entry per axis. Pitfall: n is rarely a multiple of block.
    grid = (1,)
    add_kernel[grid](a, b, c, n, BLOCK=block)


# ----------------------------------------------------------------------------
# main

def need_gpu():
    """The CUDA device torch will use; exit 3 (a requirement is missing) without one."""
    if not torch.cuda.is_available():
        built = torch.version.cuda or "none: a CPU-only build"
        wb.missing("a CUDA GPU is needed, and torch sees none (torch %s, CUDA %s): run on a machine with an "
                   "NVIDIA GPU and a CUDA build of torch (Colab: Runtime > Change runtime type > T4 GPU)"
                   % (torch.__version__, built))
    return torch.device("cuda", torch.cuda.current_device())


@triton.jit
def probe_kernel(x_ptr, BLOCK: tl.constexpr):
    """The lab's own probe, not yours to write: one program adds 1 to the BLOCK elements
    of x (exactly BLOCK of them, so it needs no mask)."""
    everything = tl.arange(0, BLOCK)
    tl.store(x_ptr + everything, tl.load(x_ptr + everything) + 1.0)


def probe_here():
    """The probe's own process (this file run with PROBE_ARG): probe_kernel on 256 zeros
    of the default GPU. Exit 0 when every element became 1; else exit 1, the last line on
    stderr saying why (the exception's type and first line, or wrong values)."""
    try:
        x = torch.zeros(256, dtype=torch.float32, device="cuda")
        probe_kernel[(1,)](x, BLOCK=256)
        torch.cuda.synchronize()
        right = bool((x == 1).all().item())
    except Exception as e:  # Triton refusing the GPU (compile or launch): not the learner's code
        text = str(e).strip()
        sys.stderr.write("%s: %s\n" % (type(e).__name__, text.splitlines()[0][:300] if text else "(no message)"))
        sys.exit(1)
    if not right:
        sys.stderr.write("the probe kernel ran but wrote wrong values\n")
        sys.exit(1)
    sys.exit(0)


def triton_runs_here(device):
    """Below compute capability 8.0, says so and runs probe_kernel first, in a process of
    its own (a Triton that aborts on this GPU takes only that process down). Where Triton
    refuses the GPU (the probe fails, crashes or gives wrong values) the lab cannot run
    here: wb.missing() says why and exits 3, which the runner reports as NOT RUN. From 8.0
    up there is nothing to try."""
    major, minor = torch.cuda.get_device_capability(device)
    if (major, minor) >= TRITON_MIN_CC:
        return
    gpu = "%s (compute capability %d.%d)" % (torch.cuda.get_device_name(device), major, minor)
    print("%s is below 8.0, where Triton's documented support starts: the lab runs a probe kernel of its own first"
          % gpu)
    sys.stdout.flush()
    try:
        child = subprocess.run([sys.executable, os.path.abspath(__file__), PROBE_ARG], capture_output=True,
                               text=True, timeout=PROBE_TIMEOUT_S)
        lines = child.stderr.strip().splitlines()
        why = lines[-1] if lines else "(no message)"
        if child.returncode < 0:
            why = "its process was killed by signal %d%s" % (-child.returncode, ": " + lines[-1] if lines else "")
        refused = "" if child.returncode == 0 else why
    except subprocess.TimeoutExpired:
        refused = "the probe kernel did not finish within %d s" % PROBE_TIMEOUT_S
    if refused:
        wb.missing("Triton %s does not run on %s: %s. This is Triton's support (compute capability 8.0 and newer), "
                   "not your code: run the lab on an sm_80 or newer GPU (Colab's L4 or A100, the cluster's H100)"
                   % (getattr(triton, "__version__", "?"), gpu, refused))
    print("the probe ran: Triton works on this GPU for this lab, outside its documented support")


def random_vector(n, stream):
    """n float32 values uniform in [-1, 1) from the run's seed and a stream number, on
    the CPU: 2u - 1 for u from torch.rand, with any element that comes out exactly 0 set
    to 1, so that no input is zero."""
    gen = torch.Generator(device="cpu")
    gen.manual_seed(wb.stream_seed(stream))
    x = torch.rand(n, generator=gen, dtype=torch.float32) * 2 - 1
    x[x == 0] = 1.0
    return x


class Output:
    """A float32 output of n elements between two canary bands: the kernel gets `inner`,
    a view of the middle; the bands around it must come back untouched."""

    def __init__(self, n, device):
        self.n = n
        self.full = torch.empty(n + 2 * BAND, dtype=torch.float32, device=device)
        self.inner = self.full[BAND:BAND + n]
        self.rearm()

    def rearm(self):
        """Bands to the canary pattern, the interior to NaN (an unwritten element stays NaN)."""
        self.full.view(torch.int32).fill_(CANARY)
        self.inner.fill_(float("nan"))

    def damage(self):
        """(elements written before the start, the farthest of them before it, elements
        written after the end, the farthest of them after it)."""
        bits = self.full.view(torch.int32)
        before = torch.nonzero(bits[:BAND] != CANARY).flatten()
        after = torch.nonzero(bits[BAND + self.n:] != CANARY).flatten()
        far_before = BAND - int(before[0].item()) if before.numel() else 0
        far_after = int(after[-1].item()) + 1 if after.numel() else 0
        return before.numel(), far_before, after.numel(), far_after


class Problem:
    """Two random input vectors on the GPU, their CPU sum (kept on the GPU for the
    comparison) and an output between canary bands."""

    def __init__(self, n, stream, device):
        a = random_vector(n, stream)
        b = random_vector(n, stream + 1)
        self.n = n
        self.ref = add_cpu(a, b).to(device)
        self.a = a.to(device)
        self.b = b.to(device)
        self.out = Output(n, device)


def mismatches(got, want):
    """(elements that differ, of them NaN, text naming the first one). NaN never equals
    anything, so an unwritten element counts."""
    bad = got != want
    count = int(bad.sum().item())
    nans = int(torch.isnan(got).sum().item())
    if count == 0:
        return 0, 0, ""
    first = int(torch.argmax(bad.to(torch.uint8)).item())  # argmax returns the first maximum
    return count, nans, "first at %d: got %r, want %r" % (first, got[first].item(), want[first].item())


def run_and_check(p, block, check_name):
    """Launches once at p.n, records the exact comparison as check_name and returns
    (values passed, a line about the bands for add_bounds, elements found in the bands)."""
    p.out.rearm()
    launch_add(p.a, p.b, p.out.inner, p.n, block)
    torch.cuda.synchronize()
    count, nans, first = mismatches(p.out.inner, p.ref)
    detail = "%d of %d elements differ from the CPU sum" % (count, p.n)
    if count:
        detail += " (%d of them NaN: never written); %s" % (nans, first)
    ok = wb.check(check_name, count == 0, count, 0, detail)
    n_before, far_before, n_after, far_after = p.out.damage()
    if n_before == 0 and n_after == 0:
        bands = "n=%d: no element written outside the output" % p.n
    else:
        bands = "n=%d:" % p.n
        if n_after:
            bands += " wrote %d elements past the end (the farthest %d after it)" % (n_after, far_after)
        if n_before:
            bands += " wrote %d elements before the start (the farthest %d before it)" % (n_before, far_before)
    return ok, bands, n_before + n_after


def bench(fn):
    """Times fn with triton.testing.do_bench: it runs fn once, then repeatedly for about
    100 ms, zeroing a 256 MB buffer before each call so that the L2 holds no input, and
    times each call with CUDA events. quantiles=[0.5, 0, 1] asks for the median, the
    fastest and the slowest call in ms (do_bench does not say how many it took).
    Under a profiler (workbook run --ncu or --sanitize) those hundreds of calls would each
    be profiled or slowed, and the timings are not graded there: wb.time_calls makes one
    warm-up call and times one more with CUDA events instead."""
    if wb.under_profiler():
        return wb.time_calls(fn, timer=wb.cuda_event_timer(torch))
    median, fastest, slowest = triton_testing.do_bench(fn, quantiles=[0.5, 0.0, 1.0])
    return wb.Stats(median, fastest, slowest, clock="events")


def gbps(n, ms):
    return BYTES_PER_ELEMENT * n / (ms * 1e-3) / 1e9


def main():
    wb.init("module23/triton_add")
    n = wb.param("N", 1 << 24, 1 << 20)
    block = wb.param("BLOCK", 1024)
    wb.params_done()
    if not 1 <= n <= 1 << 30:
        wb.bad_argument("N must be between 1 and 2^30")
    if not (16 <= block <= 16384 and block & (block - 1) == 0):
        wb.bad_argument("BLOCK must be a power of two from 16 to 16384 (tl.arange needs a power of two)")
    device = need_gpu()
    wb.device_from_torch(torch, device.index)
    triton_runs_here(device)

    # Correctness at the odd size first, then at N.
    odd = Problem(N_ODD, 2, device)
    odd_ok, odd_bands, odd_damage = run_and_check(odd, block, "add_odd_ok")
    del odd
    p = Problem(n, 0, device)
    ok, bands, damage = run_and_check(p, block, "add_ok")
    bounds_ok = wb.check("add_bounds", odd_damage + damage == 0, odd_damage + damage, 0,
                         "%s; %s" % (odd_bands, bands) + ("" if odd_damage + damage == 0 else
                                                          ": a store without its mask, or a grid larger than the data"))

    if ok and odd_ok and bounds_ok:
        # The Triton kernel at BLOCK, then torch's own add into a preallocated output,
        # timed the same way: the same bytes, so the same memory-bound ceiling.
        t = bench(lambda: launch_add(p.a, p.b, p.out.inner, n, block))
        wb.metric("triton_ms", t, "ms")
        triton_gbps = gbps(n, t.median)
        wb.metric("triton_gbps", triton_gbps, "GB/s")
        c_torch = torch.empty_like(p.a)
        t_torch = bench(lambda: torch.add(p.a, p.b, out=c_torch))
        wb.metric("torch_ms", t_torch, "ms")
        torch_gbps = gbps(n, t_torch.median)
        wb.metric("torch_gbps", torch_gbps, "GB/s")
        wb.metric("triton_vs_torch", triton_gbps / torch_gbps, "x")

        # The BLOCK sweep: each size is checked once at N (exactly, bands included)
        # before it is timed.
        wrong = []
        for sweep_block in SWEEP:
            p.out.rearm()
            launch_add(p.a, p.b, p.out.inner, n, sweep_block)
            torch.cuda.synchronize()
            count, _, _ = mismatches(p.out.inner, p.ref)
            spilled = sum(p.out.damage()[0::2])
            if count or spilled:
                wrong.append("BLOCK=%d: %d wrong elements, %d outside the output" % (sweep_block, count, spilled))
            t_sweep = bench(lambda blk=sweep_block: launch_add(p.a, p.b, p.out.inner, n, blk))
            wb.metric("gbps_block%d" % sweep_block, gbps(n, t_sweep.median), "GB/s")
        wb.check("sweep_ok", not wrong, len(wrong), 0,
                 "; ".join(wrong) if wrong else "every BLOCK of the sweep gives the exact sum at N")
    else:
        print("the kernel failed a check: not timed")

    sys.exit(wb.finish())


if __name__ == "__main__":
    if sys.argv[1:] == [PROBE_ARG]:
        probe_here()
    main()
