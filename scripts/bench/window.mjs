// $setWindowFields: a 10-document sliding $sum ({documents: [-9, 0]}) over 1,000,000 documents,
// sorted by _id. Measured twice: the stage alone, in-process over an array (documents/s of the
// window computation, sort included), and end to end through the driver against an in-process
// server (the collection scan and a final $group, so the documents are not sent back). Prints
// documents/s and the process's RSS; with --json, one JSON object for run.mjs.
// Run after `npm run build`: node scripts/bench/window.mjs [--quick] [--json] [dist]
import { MongoClient } from 'mongodb';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const json = args.includes('--json');
const dist = args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('../../dist', import.meta.url));
const N = quick ? 200_000 : 1_000_000;
const { compilePipeline } = await import(`${dist}/storage/aggregation/pipeline.js`);
const { newPipelineContext } = await import(`${dist}/storage/aggregation/pipeline_context.js`);

const stage = { $setWindowFields: { sortBy: { _id: 1 }, output: { s: { $sum: '$v', window: { documents: [-9, 0] } } } } };
const docs = Array.from({ length: N }, (_, i) => ({ _id: i, v: i % 100 }));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const inProcess = [];
let check = 0;
for (let r = 0; r < 5; r++) {
  const run = compilePipeline([stage], newPipelineContext({ now: new Date() }));
  const t0 = performance.now();
  let last;
  for (const d of run(docs)) last = d;
  inProcess.push(performance.now() - t0);
  check = last.s;
}
// The last window holds v of N-10 .. N-1.
const expected = Array.from({ length: 10 }, (_, k) => (N - 10 + k) % 100).reduce((a, b) => a + b, 0);
if (check !== expected) throw new Error(`wrong sliding sum: ${check}, expected ${expected}`);
const stageRate = N / (median(inProcess) / 1000);
const rssAfterStage = process.memoryUsage().rss;

const { MayflyServer } = await import(`${dist}/index.js`);
const server = await MayflyServer.create();
const client = new MongoClient(server.getUri());
await client.connect();
const coll = client.db('bench').collection('window');
for (let b = 0; b < N / 10_000; b++) await coll.insertMany(docs.slice(b * 10_000, (b + 1) * 10_000).map((d) => ({ ...d })));
const viaDriver = [];
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  const [out] = await coll.aggregate([stage, { $group: { _id: null, total: { $sum: '$s' } } }]).toArray();
  viaDriver.push(performance.now() - t0);
  if (out === undefined) throw new Error('no result');
}
const driverRate = N / (median(viaDriver) / 1000);
const rss = process.memoryUsage().rss;
await client.close();
await server.stop();

const fmt = (x) => Math.round(x).toLocaleString('en');
if (json) {
  process.stdout.write(
    JSON.stringify({
      [`$setWindowFields 10-document sliding $sum over ${fmt(N)} docs`]: `${fmt(stageRate)} docs/s (stage, in-process), ${fmt(driverRate)} docs/s (aggregate through the driver, scan and $group included); RSS ${(rssAfterStage / 1048576).toFixed(0)} MiB after the stage, ${(rss / 1048576).toFixed(0)} MiB with the collection`,
    }),
  );
} else {
  console.log(`stage alone, in-process: ${fmt(stageRate)} docs/s (median of 5, ${median(inProcess).toFixed(0)} ms for ${fmt(N)} docs)`);
  console.log(`aggregate through the driver: ${fmt(driverRate)} docs/s (median of 3, ${median(viaDriver).toFixed(0)} ms)`);
  console.log(`RSS: ${(rssAfterStage / 1048576).toFixed(0)} MiB after the stage runs, ${(rss / 1048576).toFixed(0)} MiB with the server's collection`);
}
