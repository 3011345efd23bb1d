// Produces the golden values of tests/learn/fsrs_test.cpp from ts-fsrs, the reference
// implementation of FSRS (npm registry). ts-fsrs is NOT a dependency of the project; it is
// used only here, by hand:
//
//   mkdir -p /tmp/fsrs-gold && cd /tmp/fsrs-gold && npm init -y && npm install ts-fsrs
//   cp <repo>/tests/learn/fsrs_golden.mjs . && node fsrs_golden.mjs
//
// The values in fsrs_test.cpp were produced with ts-fsrs 5.4.2 ("using FSRS-6.0").
//
// Like with like: the workbook schedules in whole days, without sub-day learning steps.
// So ts-fsrs runs with enable_fuzz: false, learning_steps: [] and relearning_steps: []
// (a new or lapsed card goes straight to Review with interval = next_interval(S)), and
// enable_short_term: true (a review on the day of the previous one uses FSRS-6's
// short-term stability formula). Section "steps" at the end shows what ts-fsrs's default
// learning steps (1m, 10m; relearning 10m) do instead: the same S and D, but the card is
// due in minutes (scheduled_days 0) while in (re)learning, so its intervals are not comparable.
import { fsrs, generatorParameters, createEmptyCard, Rating, State, FSRSVersion, forgetting_curve } from "ts-fsrs";

const DAY = 86400000;
const t0 = Date.UTC(2026, 8, 1, 12, 0, 0);  // 2026-09-01 12:00 UTC

function run(name, seq, opts = {}) {
  const params = generatorParameters({
    enable_fuzz: false, enable_short_term: true, learning_steps: [], relearning_steps: [], ...opts,
  });
  const f = fsrs(params);
  let card = createEmptyCard(new Date(t0));
  let now = t0;
  const out = [];
  for (const [rating, days] of seq) {
    now += days * DAY;
    const r = card.state === State.New ? null : f.get_retrievability(card, new Date(now), false);
    const { card: next } = f.next(card, new Date(now), rating);
    out.push({ rating, days, r, s: next.stability, d: next.difficulty, ivl: next.scheduled_days,
               state: State[next.state], lapses: next.lapses });
    card = next;
  }
  return { name, opts, out };
}

const sequences = [
  run("good_on_time", [[3, 0], [3, 3], [3, 11], [3, 37], [3, 110]]),
  run("again_then_same_day", [[1, 0], [1, 0], [3, 0], [3, 1], [2, 3], [4, 5]]),
  run("easy_lapse_same_day", [[4, 0], [1, 15], [3, 0], [3, 2], [4, 7]]),
  run("hard_late_lapses", [[2, 0], [3, 1], [1, 30], [1, 1], [3, 4], [4, 100]]),
  run("pass_fail", [[3, 0], [1, 5], [3, 1], [3, 4], [1, 12], [3, 0], [3, 3]]),
  run("retention_085_max_30", [[3, 0], [4, 4], [4, 20], [3, 30], [2, 30]], { request_retention: 0.85, maximum_interval: 30 }),
  run("retention_095", [[3, 0], [3, 2], [3, 5], [2, 9]], { request_retention: 0.95 }),
];

console.log("// " + FSRSVersion);
console.log("// weights: " + JSON.stringify(generatorParameters().w));
for (const { name, opts, out } of sequences) {
  console.log(`// ${name} ${JSON.stringify(opts)}`);
  for (const x of out) {
    console.log(`{${x.rating}, ${x.days}, ${x.r === null ? -1 : x.r}, ${x.s}, ${x.d}, ${x.ivl}, "${x.state}"},`);
  }
}
console.log("// forgetting curve R(t, S)");
for (const [t, s] of [[0, 1], [1, 1], [3, 2.3065], [10, 2.3065], [100, 10], [365, 400]]) {
  console.log(`{${t}, ${s}, ${forgetting_curve(0.1542, t, s)}},`);
}
// With ts-fsrs's default learning steps, for comparison (not used as golden values).
const dflt = fsrs(generatorParameters({ enable_fuzz: false }));
let c = createEmptyCard(new Date(t0));
let now = t0;
console.log("// steps: ts-fsrs default learning steps [1m, 10m], relearning [10m]");
for (const [rating, minutes] of [[3, 0], [3, 10], [3, 2 * 1440], [1, 10 * 1440], [3, 10]]) {
  now += minutes * 60000;
  const { card } = dflt.next(c, new Date(now), rating);
  console.log(`//   rating ${rating} after ${minutes} min: S=${card.stability} D=${card.difficulty} state=${State[card.state]} scheduled_days=${card.scheduled_days} due_in_min=${(card.due - now) / 60000}`);
  c = card;
}
