#!/usr/bin/env bash
# The learner's week, walked as a learner walks it: a real terminal (tmux, 80 columns),
# an empty workspace, the repository's content, no GPU, and the dates of the assignment 3
# week (WORKBOOK_NOW). Every screen is captured as the terminal shows it and written to
# a Markdown transcript (issue 24: docs/walkthrough/learner-week.md is its output).
#   scripts/learner_week.sh [WORKBOOK_BINARY] > docs/walkthrough/learner-week.md
# ROWS sets the terminal's height (default 50) and STEPS the steps file (default
# scripts/learner_week_steps.sh); issue 39's walk at 80 x 30:
#   ROWS=30 STEPS=scripts/learner_week2_steps.sh scripts/learner_week.sh build/ci/runner/workbook \
#     > docs/walkthrough/learner-week-2.md
# Needs tmux. Keys are typed with tmux send-keys; each screen is read after the command
# has been quiet for a moment, so a slow machine needs a larger WAIT (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build/dev/runner/workbook}")
wait_s=${WAIT:-1.5}
ws=$(mktemp -d /tmp/wb-week.XXXXXX)
session=wbweek$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$ws"' EXIT

rows=${ROWS:-50}
steps=${STEPS:-$(dirname "$0")/learner_week_steps.sh}
tmux new-session -d -s "$session" -c "$ws" -x 80 -y "$rows" "env -i HOME=$ws TERM=xterm-256color PATH=/usr/bin:/bin LANG=C.UTF-8 \
  NO_COLOR=1 WORKBOOK_WORKSPACE=$ws/workbook WORKBOOK_CONTENT=$PWD PS1='$ ' bash --norc --noprofile"
sleep 0.5
tmux send-keys -t "$session" "alias workbook=$bin" Enter
sleep 0.3

screen() {  # the pane's whole history since the last clear, trailing blank lines dropped
  tmux capture-pane -p -t "$session" -S - | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}
# type TEXT: keys as typed, then Enter; settle waits for the output to stop changing.
type_line() { tmux send-keys -t "$session" -l "$1"; tmux send-keys -t "$session" Enter; settle; }
key() { tmux send-keys -t "$session" "$@"; settle; }
settle() {
  local before after n=0
  sleep "$wait_s"
  before=$(screen)
  while :; do
    sleep 0.5
    after=$(screen)
    [[ "$after" == "$before" || $n -ge 20 ]] && break
    before=$after
    n=$((n + 1))
  done
}
# wait_prompt: until the shell's prompt is back (the command ended), at most 240 s.
wait_prompt() {
  local n=0
  sleep 0.5
  while [[ "$(screen | tail -1)" != '$' && $n -lt 480 ]]; do sleep 0.5; n=$((n + 1)); done
}
# cmd TEXT: a command typed at the prompt; returns when it has ended.
cmd() { tmux send-keys -t "$session" -l "$1"; tmux send-keys -t "$session" Enter; wait_prompt; }

# step TITLE DATE: a new section; the pane is cleared and the date set for what follows.
step() {
  tmux send-keys -t "$session" "clear; export WORKBOOK_NOW=$2" Enter
  sleep 0.3
  tmux clear-history -t "$session"
  printf '\n## %s (%s)\n\n' "$1" "${2%%T*}"
}
shot() { printf '```text\n%s\n```\n' "$(screen)"; }

printf '# The learner'"'"'s week, in a terminal (80 x %s)\n\n' "$rows"
printf 'Made by `scripts/learner_week.sh` (%s) on %s: tmux at 80 x %s, NO_COLOR, an empty\n' "$steps" "$(date -u +%Y-%m-%d)" "$rows"
printf 'workspace, the repository content, a machine without a GPU. `WORKBOOK_NOW` sets the\n'
printf 'date each section happens on; the shell starts in the home folder, which holds the\n'
printf 'workspace (workbook/). Every screen below is what the terminal showed.\n'
printf '%s\n' "The calendar follows WORKBOOK_NOW; the times the journal records (a prediction's 'made'" \
       "date, history's run times) are the real clock's: the day this transcript was made."

. "$steps"
