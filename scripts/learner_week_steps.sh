# The steps of scripts/learner_week.sh (sourced by it: step, type_line, key and shot are
# defined there). Each step is what a learner types on that day, in that order.

step "Dec 1, an empty workspace: what is due?" 2026-12-01T09:00:00Z
cmd "workbook next"
shot

step "Dec 1: assignments 1 and 2 were handed in outside the tool" 2026-12-01T09:05:00Z
cmd "workbook handin a1 a2"
cmd "workbook next"
shot

step "Dec 1: the plan" 2026-12-01T09:10:00Z
cmd "workbook progress | head -32"
shot

step "Dec 1: the reading of module 16, through the pager (q quits)" 2026-12-01T09:15:00Z
type_line "workbook show 16"
shot
key q
wait_prompt
cmd "workbook progress --json | python3 -c 'import json,sys; m=json.load(sys.stdin)[\"modules\"][15]; print(\"module 16 read:\", m[\"read\"])'"
shot

step "Dec 1: the lab on a laptop without a GPU" 2026-12-01T09:30:00Z
type_line "workbook run module16/streams_pipeline"
type_line "12"
type_line "2.5"
cmd "3"
shot

step "Dec 1: the same lab again: the predictions stand" 2026-12-01T09:40:00Z
cmd "workbook run module16/streams_pipeline"
shot
cmd "workbook history module16/streams_pipeline --limit 2 | head -30"
shot

step "Dec 1: exercises of module 16: Again keeps an item in the session; q stops" 2026-12-01T10:00:00Z
type_line "workbook exercises 16"
type_line "Pinned memory can be copied by DMA while the CPU works; pageable memory is staged through a pinned buffer first."
type_line "1"
type_line "It waits for the whole device."
cmd "q"
shot

step "Dec 1: review: the item answered Again is due; Again asks it again at once" 2026-12-01T10:20:00Z
type_line "workbook review --new 1 --limit 1"
type_line "No idea yet."
type_line "1"
type_line "Now I remember the model answer."
cmd "4"
shot

step "Dec 4, the due day" 2026-12-04T09:00:00Z
cmd "workbook next"
shot

step "Dec 5: assignment 3 is behind until it is marked" 2026-12-05T09:00:00Z
cmd "workbook next"
cmd "workbook handin a3"
cmd "workbook next"
shot

step "Dec 18, the due day of assignment 4" 2026-12-18T09:00:00Z
cmd "workbook next"
shot
