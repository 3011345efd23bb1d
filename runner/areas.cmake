# The runner's areas (runner/src/<area>/) and the areas each one may include: the one
# table of the layering (issue 13). runner/CMakeLists.txt makes a static library
# workbook_<area> per line, linked to exactly these areas; scripts/include_graph.py --check
# reads this file and fails (ctest: include_graph_follows_areas_table) when a file
# includes an area its line does not name, or when a header includes one named PRIVATE.
#   PUBLIC   areas the area's headers include (whoever includes them needs those too)
#   PRIVATE  areas only its .cpp files include
# util, the base layer, is open to every area (PUBLIC) and is not repeated below.
# main.cpp (the executable) and the tests may include any area.
# A new area is a new line here; a new edge is a word on a line, which must keep the
# table free of cycles. Lower layers first.

# Leaves: no area but util.
workbook_area(util)
workbook_area(exec)
workbook_area(ui)
workbook_area(model)
# Facts and content: spec sheets, manifests, the workspace, drawing.
workbook_area(specs     PUBLIC model)
workbook_area(plot      PUBLIC ui)
workbook_area(diff      PUBLIC ui)
workbook_area(content   PRIVATE model specs)
workbook_area(explain   PUBLIC content model)
workbook_area(workspace PUBLIC content)
workbook_area(build     PRIVATE exec)
# Grading and the journal.
workbook_area(grade     PUBLIC content model specs)
workbook_area(journal   PUBLIC grade)
workbook_area(learn     PUBLIC content journal model ui)
# The pipeline: devices, profilers, a run.
workbook_area(device    PUBLIC build content exec grade specs ui workspace PRIVATE journal model)
workbook_area(profile   PUBLIC content exec grade journal ui PRIVATE model)
workbook_area(slurm     PUBLIC device exec grade ui workspace)
workbook_area(run       PUBLIC build content device exec grade journal model plot profile slurm specs ui workspace
                        PRIVATE explain)
# What reads runs back (the learner's report) and checks the content (dev check).
workbook_area(report    PUBLIC content journal plot specs PRIVATE ui)
workbook_area(dev       PUBLIC content run PRIVATE build device diff exec specs ui)
# The llm.c project's experiments: predictions, variants, metrics, their own store.
workbook_area(experiment PUBLIC content exec grade journal plot profile report run slurm ui workspace PRIVATE build device model)
# Progress, next and history as data (the experiments' project topics count in progress).
workbook_area(progress  PUBLIC content journal report ui workspace PRIVATE experiment grade learn)
# The presenter: results as text and JSON (a run, a sweep, a comparison, a module's and a
# lab's page, the solution, dev check, the written report, an experiment's summary and its
# report section, a journal's export and import, progress, next and history, the learning
# sessions' headers and summaries).
workbook_area(present   PUBLIC content dev device diff experiment grade journal learn plot profile progress report run slurm
                        specs ui PRIVATE build model)
workbook_area(watch     PUBLIC content journal run ui workspace PRIVATE exec learn present progress)
# The commands sit on top: one file per subcommand.
workbook_area(cmd       PUBLIC content journal ui workspace
                        PRIVATE dev device diff exec experiment explain learn present profile progress report run watch)
