// The benchmarks' machine-readable summary (`npm run bench`, bench/all.mjs): when BATON_BENCH_SUMMARY
// names a file, each benchmark appends one JSON line per headline figure to it, e.g.
// {"bench":"testrun","figure":"Baton run ÷ direct","value":2.51,"unit":"×","goal":"≤ 1.5","met":false}.
// Without the variable it writes nothing: a benchmark run alone prints only its own figures.
import { appendFileSync } from 'node:fs';
import process from 'node:process';

/**
 * Appends one row per figure for `bench`. Each figure: { figure, value, unit, goal?, met? }; `goal`
 * is the goal as written ("≤ 1.5"), `met` true or false against it, both null where there is none.
 */
export function summarize(bench, figures) {
  const file = process.env.BATON_BENCH_SUMMARY;
  if (!file) return;
  const lines = figures.map(({ figure, value, unit, goal = null, met = null }) =>
    JSON.stringify({ bench, figure, value: value ?? null, unit: unit ?? '', goal, met: goal === null ? null : met }),
  );
  appendFileSync(file, lines.map((line) => `${line}\n`).join(''));
}
