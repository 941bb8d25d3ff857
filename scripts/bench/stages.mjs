// The aggregation stages' benchmark (the issue's targets), through the driver against an
// in-process server: over 1,000,000 documents, `$group` by a 100-value key with `$sum` and
// `$avg` (target >= 3 M documents/s), `$sort` on an unindexed field + `$limit: 10` (top-k,
// >= 5 M documents/s), a full `$sort` (<= 2 s; followed by a `$skip` of all but one document, so
// the reply does not measure the driver), and `$lookup` of 10,000 documents against an indexed
// 100,000-document collection (>= 200,000 outer documents/s). Each figure is printed with the
// internal limit measured in the same run: the unindexed filter scan (`countDocuments` with a
// filter no document matches) over the same collection, and the process's RSS.
// Part of `npm run bench`; alone, after `npm run build`: node --max-old-space-size=8192
// scripts/bench/stages.mjs [--quick] [--json]
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

const quick = process.argv.includes('--quick');
const json = process.argv.includes('--json');
const DOCS = quick ? 300_000 : 1_000_000;
const RUNS = quick ? 3 : 5;
const dist = fileURLToPath(new URL('../../dist', import.meta.url));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rate = (n, ms) => `${(n / (ms / 1000) / 1e6).toFixed(2)} M docs/s`;
const mib = () => `${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB RSS`;

async function timeMs(fn) {
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function stageFigures() {
  const { MayflyServer } = await import(`${dist}/index.js`);
  const server = await MayflyServer.create();
  const client = new MongoClient(server.getUri());
  const out = {};
  try {
    await client.connect();
    const db = client.db('bench');
    const coll = db.collection('stages');
    const BATCH = 10_000;
    for (let b = 0; b < DOCS / BATCH; b++) {
      await coll.insertMany(
        Array.from({ length: BATCH }, (_, i) => {
          const k = b * BATCH + i;
          return { _id: k, key: k % 100, v: (k * 7919) % 1_000_003, name: 'user' + k };
        }),
      );
    }
    const scanMs = await timeMs(() => coll.countDocuments({ name: 'no such name' }));
    const scan = `unindexed filter scan ${rate(DOCS, scanMs)}`;
    const n = DOCS.toLocaleString('en');

    const groupMs = await timeMs(() => coll.aggregate([{ $group: { _id: '$key', total: { $sum: '$v' }, mean: { $avg: '$v' } } }]).toArray());
    out[`$group by a 100-value key, $sum + $avg, ${n} docs (target >= 3 M docs/s)`] = `${rate(DOCS, groupMs)} (${groupMs.toFixed(0)} ms); ${scan}; ${mib()}`;

    const topMs = await timeMs(() => coll.aggregate([{ $sort: { v: 1 } }, { $limit: 10 }]).toArray());
    out[`$sort unindexed + $limit 10 (top-k), ${n} docs (target >= 5 M docs/s)`] = `${rate(DOCS, topMs)} (${topMs.toFixed(0)} ms); ${scan}; ${mib()}`;

    const sortMs = await timeMs(() => coll.aggregate([{ $sort: { v: 1 } }, { $skip: DOCS - 1 }]).toArray());
    out[`full $sort unindexed, ${n} docs (target <= 2 s)`] = `${(sortMs / 1000).toFixed(2)} s = ${rate(DOCS, sortMs)}; ${scan}; ${mib()}`;

    const OUTER = quick ? 3_000 : 10_000;
    const INNER = quick ? 30_000 : 100_000;
    const inner = db.collection('lookup_inner');
    const outer = db.collection('lookup_outer');
    for (let b = 0; b < INNER / BATCH; b++) {
      await inner.insertMany(Array.from({ length: BATCH }, (_, i) => ({ _id: b * BATCH + i, ref: b * BATCH + i, payload: 'p' + i })));
    }
    await inner.createIndex({ ref: 1 });
    await outer.insertMany(Array.from({ length: OUTER }, (_, i) => ({ _id: i, ref: (i * 7) % INNER })));
    const innerScanMs = await timeMs(() => inner.countDocuments({ payload: 'no such payload' }));
    const lookupMs = await timeMs(() =>
      outer.aggregate([{ $lookup: { from: 'lookup_inner', localField: 'ref', foreignField: 'ref', as: 'joined' } }, { $skip: OUTER - 1 }]).toArray(),
    );
    out[`$lookup of ${OUTER.toLocaleString('en')} docs against an indexed ${INNER.toLocaleString('en')}-doc collection (target >= 200,000 outer docs/s)`] =
      `${Math.round(OUTER / (lookupMs / 1000)).toLocaleString('en')} outer docs/s (${lookupMs.toFixed(0)} ms); unindexed filter scan of the inner collection ${rate(INNER, innerScanMs)}; ${mib()}`;
  } finally {
    await client.close();
    await server.stop();
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await stageFigures();
  if (json) process.stdout.write(JSON.stringify(figures));
  else for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
}
