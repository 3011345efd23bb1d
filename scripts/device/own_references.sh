#!/usr/bin/env bash
# The lent GPU as one the project has no figures for (issues 37 and 42): data/measured/h200.yaml
# is set aside in the device's copy of the tree (on another GPU it would not apply anyway),
# every lab is compiled (16 at once) into one build cache, and then the STEPS, in order
# (default "calibrate slowA run2A devcheck"):
#   solutionsB  every solution run once in B, a fresh workspace with no references and no
#               calibration: graded by the spec sheet's model bands alone
#   slowB       every slow variant in B (how many of them the sheet alone catches)
#   calibrate   `workbook device --calibrate --labs` over the whole course in A, timed; then
#               a learner's `run module14/tiled_gemm` on an 80 x 30 pseudo-terminal
#   slowA       every slow variant in A, graded against those references
#   run2A       every solution once more in A, graded against them
#   devcheck    `dev check --run` per lab in A (solutions pass, starters and wrong variants
#               fail, slow variants are out of range)
# Deadlines in seconds from the start: SLOW_BY (slow variants and solutions), RUN2_BY,
# DEVCHECK_BY. LABS_NAMED=1 names every lab to --labs (a runner before 2026-12-05 read a
# bare --labs as one empty lab id). WITH_B=1 is STEPS="calibrate slowA slowB run2A devcheck".
# Each step has a deadline (seconds from the start) after which it starts nothing new, and
# everything is packed into /tmp/wb-own.tgz after every step. It runs on a copy of the tree
# in /tmp/wb-tree (a later call of the device tool copies the working tree again, h200.yaml
# with it), so it can run in the background across calls, each of which copies the archive
# into its $OUT:
#   setsid bash scripts/device/own_references.sh >/tmp/wb-own.log 2>&1 < /dev/null &
#   until grep -q ': done' /tmp/wb-own/steps.txt; do sleep 10; done; cp /tmp/wb-own.tgz $OUT/
# Needs the portable runner in .carry/bin/ (docs/maintaining.md, "Building for another machine").
set -u
tree=/tmp/wb-tree; rm -rf "$tree"; mkdir -p "$tree"
tar -C "$PWD" --exclude=./.git --exclude=./build -cf - . | tar -C "$tree" -xf -
cd "$tree" || exit 1
rm data/measured/h200.yaml  # this copy only: the H200 as a GPU without the project's figures
export WORKBOOK_CONTENT=$tree
d=/tmp/wb-own; rm -rf "$d"; mkdir -p "$d/t" "$d/reports"
export PATH=/usr/local/cuda/bin:$PATH NO_COLOR=1
W=$PWD/.carry/bin/workbook
A=/tmp/wb-own-A B=/tmp/wb-own-B
rm -rf "$A" "$B"; mkdir -p "$A" "$B/.workbook"
log=$d/steps.txt
start=$(date +%s)
now() { echo $(( $(date +%s) - start )); }
pack() {
  echo "$(now) s: $1" | tee -a "$log"
  tar czf /tmp/wb-own.tgz.part -C "$d" . && mv /tmp/wb-own.tgz.part /tmp/wb-own.tgz
}
before() { (( $(now) < $1 )); }
gpu_state() {
  nvidia-smi --query-gpu=name,uuid,driver_version,compute_cap,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv,noheader 2>&1
}

{ echo "start $(date -u +%FT%TZ)"; gpu_state; nvcc --version | tail -2; } >"$d/machine.txt"
"$W" list --json | python3 -c 'import json,sys; print("\n".join(l["id"] for m in json.load(sys.stdin) for l in m["labs"]))' >"$d/labs.txt"
pack "machine: $(head -2 "$d/machine.txt" | tail -1)"

# Every lab's starter, solution and variants compiled at once, 16 at a time, into A's build
# cache (the compile a learner's calibration would do one lab at a time is timed here apart).
t0=$(date +%s)
WORKBOOK_WORKSPACE=$A timeout 300 "$W" dev check -j 16 --arch sm_90 </dev/null >"$d/compile.txt" 2>&1
pack "compile rc=$? in $(( $(date +%s) - t0 )) s: $(tail -1 "$d/compile.txt")"
ln -s "$A/.workbook/build" "$B/.workbook/build"

calibrate() {
  local t0=$(date +%s)
  WORKBOOK_WORKSPACE=$A timeout "${CAL_TIMEOUT:-560}" "$W" device --calibrate --labs ${LABS_NAMED:+$(cat "$d/labs.txt")} --json </dev/null >"$d/calibrate_labs.json" 2>"$d/calibrate_labs.err"
  pack "A calibrate --labs rc=$? in $(( $(date +%s) - t0 )) s; $(gpu_state)"
  WORKBOOK_WORKSPACE=$A "$W" journal export "$d/A-export.json" >/dev/null 2>&1
  # A learner's first look after the calibration: 80 x 30, a pseudo-terminal.
  script -qec "stty cols 80 rows 30; WORKBOOK_WORKSPACE=$A $W run module14/tiled_gemm --solution --yes --no-predict" \
    "$d/learner_tiled_gemm.typescript" </dev/null >/dev/null 2>&1
  pack "learner run rc=$?"
}

# run_each WS BY WHAT: `workbook run` of each line of $d/WHAT.txt in workspace WS ("LAB
# VARIANT" runs the variant, "LAB" the solution), until BY seconds from the start.
run_each() {
  local ws=$1 by=$2 what=$3 dir lab variant n
  dir=$([ "$ws" = A ] && echo "$A" || echo "$B")
  while read -r lab variant; do
    before "$by" || { pack "$ws $what $lab $variant skipped"; continue; }
    n=$ws-$what-${lab//\//_}${variant:+-$variant}
    local which=(--solution)
    [ -n "$variant" ] && which=(--variant "$variant")
    WORKBOOK_WORKSPACE=$dir timeout 200 "$W" run "$lab" "${which[@]}" --yes --no-predict --json </dev/null >"$d/t/$n.json" 2>"$d/t/$n.err"
    pack "$ws $what $lab $variant rc=$?"
  done <"$d/$what.txt"
}

devcheck() {
  local lab n
  while read -r lab; do
    before "${DEVCHECK_BY:-1100}" || { pack "A dev check $lab skipped"; continue; }
    n=${lab//\//_}
    WORKBOOK_WORKSPACE=$A timeout 400 "$W" dev check --run --only "$lab" --report "$d/reports/A-$n.md" </dev/null >"$d/t/A-devcheck-$n.txt" 2>&1
    pack "A dev check $lab rc=$? $(tail -1 "$d/t/A-devcheck-$n.txt")"
  done <"$d/labs.txt"
}

python3 - >"$d/slow.txt" <<'EOF2'
import glob, yaml
for f in sorted(glob.glob("modules/*/module.yaml")):
    for lab in yaml.safe_load(open(f)).get("labs", []):
        for v in lab.get("variants") or []:
            if v.get("kind") == "slow":
                print(f"{f.split('/')[1]}/{lab['id'].split('/')[-1]} {v['id']}")
EOF2
cp "$d/labs.txt" "$d/solutions.txt"
# dev check without --run only checks a variant (nvcc -cuda): the slow ones are built here,
# 16 at once, by runs in a throwaway workspace C on the same cache, each stopped after 1 s.
C=/tmp/wb-own-C; rm -rf "$C"; mkdir -p "$C/.workbook"; ln -s "$A/.workbook/build" "$C/.workbook/build"
t0=$(date +%s)
WORKBOOK_WORKSPACE=$C xargs -P 16 -L 1 sh -c '"$0" run "$1" --variant "$2" --yes --no-predict --timeout 1 --json >/dev/null 2>&1' "$W" <"$d/slow.txt"
pack "slow variants built in $(( $(date +%s) - t0 )) s"
default_steps="calibrate slowA run2A devcheck"
[ -n "${WITH_B:-}" ] && default_steps="calibrate slowA slowB run2A devcheck"
for step in ${STEPS:-$default_steps}; do
  case $step in
    calibrate) calibrate ;;
    solutionsB) run_each B "${SLOW_BY:-900}" solutions ;;
    slowB) run_each B "${SLOW_BY:-900}" slow ;;
    slowA) run_each A "${SLOW_BY:-900}" slow ;;
    run2A) run_each A "${RUN2_BY:-1000}" solutions ;;
    devcheck) devcheck ;;
    *) pack "unknown step $step" ;;
  esac
done
gpu_state >>"$d/machine.txt"
WORKBOOK_WORKSPACE=$A "$W" journal export "$d/A-export-end.json" >/dev/null 2>&1
pack "done"
