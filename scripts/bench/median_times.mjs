// Shared by the BSON micro-benchmarks: each implementation timed over the same inputs, in turn,
// after a warm-up; the median of several rounds.

/** `{ name: median µs per pass over inputs }` for each function of `impls`. */
export function medianTimes(impls, inputs, reps, rounds = 9) {
  const run = (fn) => {
    const t0 = process.hrtime.bigint();
    for (let r = 0; r < reps; r++) for (const x of inputs) fn(x);
    return Number(process.hrtime.bigint() - t0) / 1000 / reps;
  };
  const times = Object.fromEntries(Object.keys(impls).map((k) => [k, []]));
  for (const fn of Object.values(impls)) run(fn); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [k, fn] of Object.entries(impls)) times[k].push(run(fn));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, median(xs)]));
}
