# The steps of issue 39's walk (sourced by scripts/learner_week.sh with ROWS=30): a new
# learner on Dec 4 (assignment 3 due that night, first use), Dec 5, Dec 18 (assignment 4
# and the oral exam's sign-up) and Jan 4 (the project report is due the next day).

step "Dec 4, first use: the first screen" 2026-12-04T08:00:00Z
cmd "workbook"
shot

step "Dec 4: the lab's predictions, wrapped to the terminal" 2026-12-04T08:10:00Z
type_line "workbook run module16/streams_pipeline"
type_line "12"
type_line "2.5"
cmd "3"
shot

step "Dec 4: what next, after a run that could not run" 2026-12-04T08:20:00Z
cmd "workbook next"
shot

step "Dec 4: a command's help at 80 columns" 2026-12-04T08:25:00Z
cmd "workbook run --help | head -28"
shot

step "Dec 5: a lab page" 2026-12-05T09:00:00Z
cmd "workbook show module16/streams_pipeline --no-pager"
shot

step "Dec 5: exercises, q at the answer prompt" 2026-12-05T09:10:00Z
type_line "workbook exercises 16"
cmd "q"
shot

step "Dec 18: the due day of assignment 4 and of the oral exam's sign-up" 2026-12-18T09:00:00Z
cmd "workbook next"
shot

step "Dec 18: the first screen, three assignments behind" 2026-12-18T09:05:00Z
cmd "workbook"
shot

step "Jan 4: the day before the project report" 2027-01-04T09:00:00Z
cmd "workbook next"
shot

step "Jan 4: the calibration ledger" 2027-01-04T09:05:00Z
cmd "workbook history --ledger"
shot

step "Jan 4: every module (progress --modules), its end" 2027-01-04T09:10:00Z
cmd "workbook progress --modules | tail -28"
shot
