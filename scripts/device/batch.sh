#!/usr/bin/env bash
# One call on the lent GPU machine that runs several device scripts in turn, each with
# its own output folder, and packs everything into $OUT/batch.tgz -- renewed after every
# script, so a call that runs out of time still brings back what finished (only a few
# files come back from the machine).
#   scripts/device/batch.sh "profilers_check.sh" "learner_runs.sh" "validate.sh labs module04"
# Each argument is a script under scripts/device/ with its arguments.
set -u
OUT=${OUT:-/tmp/wb-out}
work=/tmp/wb-batch; rm -rf "$work"; mkdir -p "$work"
for entry in "$@"; do
  name=$(echo "$entry" | tr -c 'A-Za-z0-9_.-' '_' | sed 's/_*$//')
  mkdir -p "$work/$name"
  start=$(date +%s)
  # shellcheck disable=SC2086
  OUT="$work/$name" bash scripts/device/$entry >"$work/$name/console.txt" 2>&1
  echo "$entry rc=$? in $(( $(date +%s) - start )) s" | tee -a "$work/batch-steps.txt"
  tar czf "$OUT/batch.tgz" -C "$work" .
done
