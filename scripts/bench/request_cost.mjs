// In-process cost of one request: decode, dispatch and encode, timed apart, for 180,000 requests
// of one kind (after 20,000 to warm up), against a collection of 1,000 documents indexed on k.
// Run after `npm run build`: node scripts/bench/request_cost.mjs findOne|updateOne|insertOne [dist]
import { serialize, UUID } from 'bson';
import { fileURLToPath } from 'node:url';

const op = process.argv[2] ?? 'findOne';
const dist = process.argv[3] ?? fileURLToPath(new URL('../../dist', import.meta.url));
const REQUESTS = 200_000;
const WARM = 20_000;
const lsid = { id: new UUID().toBinary() };
const make = {
  findOne: (i) => ({ find: 'fo', filter: { k: (i * 7919) % 1000 }, limit: 1, singleBatch: true, batchSize: 1, lsid, $db: 'bench' }),
  insertOne: (i) => ({ insert: 'ins', documents: [{ k: i, name: 'user' + i, n: 1 }], ordered: true, lsid, $db: 'bench' }),
  updateOne: (i) => ({ update: 'fo', updates: [{ q: { k: (i * 7919) % 1000 }, u: { $inc: { n: 1 } } }], ordered: true, lsid, $db: 'bench' }),
}[op];
if (!make) throw new Error(`unknown request kind ${op}: findOne, updateOne or insertOne`);

/** An OP_MSG frame holding `body`. */
function frame(body) {
  const bytes = serialize(body);
  const buf = Buffer.alloc(21 + bytes.length);
  buf.writeInt32LE(buf.length, 0);
  buf.writeInt32LE(2013, 12);
  buf.set(bytes, 21);
  return buf;
}

const { Server } = await import(`${dist}/server/server.js`);
const { dispatch } = await import(`${dist}/commands/dispatch.js`);
const { decodeMessage } = await import(`${dist}/wire/decode.js`);
const { encodeOpMsg } = await import(`${dist}/wire/op_msg.js`);
const server = new Server({ logLevel: 'silent' });
const conn = { id: 1, remoteAddress: 'bench', localAddress: 'bench', clientMetadata: null, compressors: [] };
await dispatch(server, conn, { createIndexes: 'fo', indexes: [{ key: { k: 1 }, name: 'k_1' }], $db: 'bench' });
await dispatch(server, conn, { insert: 'fo', documents: Array.from({ length: 1000 }, (_, i) => ({ k: i, name: 'user' + i, n: 1 })), $db: 'bench' });
const frames = Array.from({ length: WARM }, (_, i) => frame(make(i)));
let decodeMs = 0;
let dispatchMs = 0;
let encodeMs = 0;
for (let i = 0; i < REQUESTS; i++) {
  const f = frames[i % WARM];
  const a = performance.now();
  const req = decodeMessage(f);
  const b = performance.now();
  const reply = dispatch(server, conn, req.body, req.frameBytes);
  const c = performance.now();
  encodeOpMsg(reply, 1, 2);
  const d = performance.now();
  if (i >= WARM) {
    decodeMs += b - a;
    dispatchMs += c - b;
    encodeMs += d - c;
  }
}
const us = (ms) => ((ms / (REQUESTS - WARM)) * 1000).toFixed(2);
console.log(`${op}: per request ${us(decodeMs + dispatchMs + encodeMs)} us (decode ${us(decodeMs)}, dispatch ${us(dispatchMs)}, encode ${us(encodeMs)})`);
