// node scripts/bench/bson_decode.mjs (after `npm run build`): the time `deserialize` takes on
// request-shaped BSON, Mayfly's one-pass decoder against the previous path (js-bson with
// wrappers, then a walk) and js-bson's default decode, median of several rounds.
import { BSON } from 'mongodb';
import { deserialize } from '../../dist/bson/decode.js';
import { serialize } from '../../dist/bson/encode.js';
import { deserializeViaJsBson, ObjectId, UUID, Long } from '../../dist/bson/library.js';
import { medianTimes } from './median_times.mjs';

const lsid = { id: new UUID() };
const findBody = serialize({
  find: 'users', filter: { k: 42 }, limit: 1, singleBatch: true, batchSize: 1,
  lsid, $clusterTime: { clusterTime: new BSON.Timestamp({ t: 1, i: 1 }), signature: { hash: new BSON.Binary(Buffer.alloc(20)), keyId: Long.fromNumber(0) } },
  $db: 'test',
});
const smallDocs = Array.from({ length: 1000 }, (_, i) => serialize({ _id: new ObjectId(), k: i, name: 'user' + i, n: 1 }));
const insertBody = serialize({ insert: 'users', documents: Array.from({ length: 1000 }, (_, i) => ({ _id: new ObjectId(), k: i, name: 'user' + i, n: 1 })), ordered: true, lsid, $db: 'test' });
const mixedDocs = Array.from({ length: 200 }, (_, i) => serialize({
  _id: i, price: i + 0.25, ratio: 1 / (i + 3), total: new BSON.Double(i), title: 'A somewhat longer product title number ' + i,
  tags: ['red', 'green', 'blue-' + i], dims: [[i, i + 0.5], [2.5, 3.5]], meta: { created: new Date(1700000000000 + i), note: 'héllo wörld ' + i, score: [1.5, 2.5, i] },
}));

const impls = {
  'one-pass decoder': deserialize,
  'js-bson + walk (old)': deserializeViaJsBson,
  'js-bson default': (b) => BSON.deserialize(b),
};
const workloads = {
  '(a) find body with lsid': [findBody],
  '(b) insert: 1,000 docs, one call each': smallDocs,
  '(b\') insert: one body holding 1,000 docs': [insertBody],
  '(c) 200 docs: doubles, strings, nested arrays': mixedDocs,
};

for (const [name, inputs] of Object.entries(workloads)) {
  const m = medianTimes(impls, inputs, Math.max(20, Math.round(20000 / inputs.length)));
  const old = m['js-bson + walk (old)'];
  console.log(name);
  for (const k of Object.keys(impls)) {
    console.log(`  ${k.padEnd(24)} ${m[k].toFixed(2).padStart(9)} µs   ${(old / m[k]).toFixed(2)}x vs old`);
  }
}
