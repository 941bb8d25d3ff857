// The expression language's benchmark (issue 19's target: ratio >= 0.5). Part of `npm run bench`;
// alone, after `npm run build`: node scripts/bench/expressions.mjs [--quick]
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { median, startMayfly, stop } from './processes.mjs';

/**
 * The expression language's cost: `aggregate([{$project: ten expressions of ten groups}])` over
 * 100,000 stored documents against `find()` of the same documents, both read whole through the
 * driver; alternated, and the ratio (find's time over aggregate's) is the median of the pairs'.
 * Each expression gives a scalar, so that the documents returned are about the size of the ones
 * `find` returns and the ratio measures the evaluation, not the driver decoding larger replies.
 */
export async function expressionFigures(quick = false) {
  const s = await startMayfly();
  const c = new MongoClient(s.uri);
  try {
    await c.connect();
    return await measure(c, quick);
  } finally {
    await c.close();
    await stop(s);
  }
}

async function measure(c, quick) {
  const coll = c.db('bench').collection('expr');
  const at = Date.UTC(2024, 0, 1);
  for (let b = 0; b < 100; b++) {
    await coll.insertMany(
      Array.from({ length: 1000 }, (_, i) => {
        const k = b * 1000 + i;
        return { k, name: 'user' + k, n: k % 10, price: (k % 997) / 7, at: new Date(at + k * 60_000), tags: ['a', k % 2 ? 'b' : 'c'] };
      }),
    );
  }
  const project = {
    price: { $round: [{ $multiply: ['$price', 1.2] }, 2] },
    upper: { $toUpper: '$name' },
    band: { $cond: [{ $gte: ['$n', 5] }, 'high', 'low'] },
    tagCount: { $size: '$tags' },
    key: { $toString: '$k' },
    year: { $year: '$at' },
    hasA: { $setIsSubset: [['a'], '$tags'] },
    both: { $and: [{ $gt: ['$k', 10] }, { $lt: ['$n', 8] }] },
    next: { $let: { vars: { x: '$n' }, in: { $add: ['$$x', 1] } } },
    wave: { $sin: '$price' },
  };
  const readAll = async (cursor) => {
    const t0 = performance.now();
    const docs = await cursor.toArray();
    if (docs.length !== 100_000) throw new Error(`read ${docs.length} documents`);
    return performance.now() - t0;
  };
  const aggregate = () => readAll(coll.aggregate([{ $project: project }]));
  const find = () => readAll(coll.find());
  await aggregate();
  await find();
  const ratios = [];
  const aggregateTimes = [];
  const findTimes = [];
  for (let r = 0; r < (quick ? 3 : 5); r++) {
    const a = await aggregate();
    const f = await find();
    aggregateTimes.push(a);
    findTimes.push(f);
    ratios.push(f / a);
  }
  const rate = (ms) => Math.round(100_000 / (ms / 1000)).toLocaleString('en');
  return `${rate(median(aggregateTimes))} docs/s vs ${rate(median(findTimes))} docs/s = ${median(ratios).toFixed(2)} (median of ${ratios.length} alternated pairs)`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(`aggregate $project of ten expressions vs find, 100,000 docs: ${await expressionFigures(process.argv.includes('--quick'))}`);
}
