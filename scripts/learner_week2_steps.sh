# The steps of issue 39's walk (sourced by scripts/learner_week.sh with ROWS=30): a new
# learner on Dec 4 (assignment 3 due that night, first use), Dec 5, Dec 18 (assignment 4
# and the oral exam's sign-up), Jan 2 (an experiment for a project topic) and Jan 4 (the
# project report is due the next day).

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

step "Jan 2: an experiment for the project's BF16 topic" 2027-01-02T10:00:00Z
cmd "workbook experiment new llm_bf16"
shot

# Off screen, the learner edits the file's two commands. This machine has no GPU and no
# llm.c, so they run a stand-in that prints llm.c's lines (tests/fixtures/experiment/
# fake_train.cpp): 50 ms a step in FP32, 30 ms in BF16, the same losses.
mkdir -p "$ws/workbook/bin"
"${CXX:-c++}" -O2 -o "$ws/workbook/bin/fake_train" tests/fixtures/experiment/fake_train.cpp
python3 - "$ws/workbook/experiments/llm_bf16.yaml" <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
text = text.replace("./train_gpt2fp32cu -b 4 -t 1024 -x 40\n    cwd: ~/llm.c", "./fake_train train --steps 3 --ms 50\n    cwd: bin")
text = text.replace("./train_gpt2cu -b 4 -t 1024 -x 40\n    cwd: ~/llm.c", "./fake_train train --steps 3 --ms 30\n    cwd: bin")
open(path, "w").write(text)
PY

step "Jan 2: the experiment, predicted, run and explained" 2027-01-02T10:10:00Z
type_line "workbook experiment run llm_bf16"
type_line "1.5"
type_line "0.01"
type_line "1"
cmd "BF16 halves the bytes a step reads, and the step is bound by memory bandwidth"
shot

step "Jan 4: the first screen, the day before the project report" 2027-01-04T08:55:00Z
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

step "Jan 4: the project's report" 2027-01-04T09:15:00Z
cmd "workbook report project"
shot
