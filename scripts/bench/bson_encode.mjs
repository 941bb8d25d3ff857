// node scripts/bench/bson_encode.mjs (after `npm run build`): the time a reply takes to encode,
// Mayfly's encoder over its value representation (src/bson/encode.ts) against js-bson's
// serialize, each as a whole OP_MSG frame (js-bson's bytes copied into the frame, as before) and
// as a bare document; median of several rounds, warm.
import { serialize } from '../../dist/bson/encode.js';
import { Double, Long, ObjectId, serializeViaJsBson } from '../../dist/bson/library.js';
import { encodeOpMsg } from '../../dist/wire/op_msg.js';
import { medianTimes } from './median_times.mjs';

const ok = new Double(1);
const smallDoc = (i) => ({ _id: new ObjectId(), k: i, name: 'user' + i, n: 1 });
const workloads = {
  '(a) update reply {n, nModified, ok}': Array.from({ length: 1000 }, () => ({ n: 1, nModified: 1, ok })),
  '(b) findOne reply, one document': Array.from({ length: 1000 }, (_, i) => ({ cursor: { firstBatch: [smallDoc(i)], id: Long.ZERO, ns: 'test.users' }, ok })),
  '(c) getMore reply, 101 documents': Array.from({ length: 10 }, () => ({ cursor: { nextBatch: Array.from({ length: 101 }, (_, i) => smallDoc(i)), id: Long.fromNumber(1234567), ns: 'test.users' }, ok })),
  '(d) 200 docs: doubles, strings, nested arrays': Array.from({ length: 200 }, (_, i) => ({
    _id: i, price: i + 0.25, ratio: 1 / (i + 3), total: new Double(i), title: 'A somewhat longer product title number ' + i,
    tags: ['red', 'green', 'blue-' + i], dims: [[i, i + 0.5], [2.5, 3.5]], meta: { created: new Date(1700000000000 + i), note: 'héllo wörld ' + i, score: [1.5, 2.5, i] },
  })),
};

/** The previous encodeOpMsg: js-bson's bytes, then a frame they are copied into. */
function jsBsonFrame(doc) {
  const bytes = serializeViaJsBson(doc);
  const out = Buffer.allocUnsafe(21 + bytes.length);
  out.writeInt32LE(out.length, 0);
  out.writeInt32LE(2, 4);
  out.writeInt32LE(1, 8);
  out.writeInt32LE(2013, 12);
  out.writeUInt32LE(0, 16);
  out[20] = 0;
  out.set(bytes, 21);
  return out;
}

const impls = {
  'frame: js-bson + copy (old)': jsBsonFrame,
  'frame: encoded in place': (doc) => encodeOpMsg(doc, 1, 2),
  'document: js-bson': serializeViaJsBson,
  'document: Mayfly encoder': serialize,
};

for (const [name, inputs] of Object.entries(workloads)) {
  const perPass = medianTimes(impls, inputs, Math.max(5, Math.round(20000 / inputs.length)));
  const m = Object.fromEntries(Object.entries(perPass).map(([k, us]) => [k, us / inputs.length])); // µs per document
  console.log(name);
  for (const k of Object.keys(impls)) {
    const ref = k.startsWith('frame') ? m['frame: js-bson + copy (old)'] : m['document: js-bson'];
    console.log(`  ${k.padEnd(30)} ${m[k].toFixed(3).padStart(9)} µs   ${(ref / m[k]).toFixed(2)}x vs js-bson`);
  }
}
