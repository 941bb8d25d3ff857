// The yardstick of PERFORMANCE.md: a server that does nothing. It frames messages with Mayfly's
// own wire layer, answers the handshake, acknowledges every write without storing it, and
// answers reads from pre-built batches. What the driver and loopback cost on their own is
// what it measures. Run: node scripts/bench/null_server.mjs  (prints its port on stdout)
import net from 'node:net';
import { Long } from 'bson';
import { FrameDecoder } from '../../dist/wire/frame_decoder.js';
import { decodeMessage } from '../../dist/wire/decode.js';
import { encodeOpMsg } from '../../dist/wire/op_msg.js';
import { encodeOpReply } from '../../dist/wire/op_reply.js';

const HELLO = {
  isWritablePrimary: true, maxBsonObjectSize: 16777216, maxMessageSizeBytes: 48000000, maxWriteBatchSize: 100000,
  logicalSessionTimeoutMinutes: 30, connectionId: 1, minWireVersion: 0, maxWireVersion: 25, readOnly: false, ok: 1,
};
const CANNED = Array.from({ length: 100_000 }, (_, i) => ({ _id: i, k: i, name: 'user' + i, n: 1 }));
const cursors = new Map();
/** Requests received (they pace `nullServerBusy`). */
let requests = 0;
let nextCursor = 1n;

function answer(cmd) {
  const name = Object.keys(cmd)[0];
  switch (name) {
    case 'hello': case 'isMaster': case 'ismaster':
      return { ...HELLO, localTime: new Date(), ismaster: name !== 'hello' ? true : undefined };
    case 'insert': return { n: cmd.documents.length, ok: 1 };
    case 'update': return { n: cmd.updates.length, nModified: cmd.updates.length, ok: 1 };
    case 'delete': return { n: cmd.deletes.length, ok: 1 };
    case 'find': {
      const ns = `${cmd.$db}.${cmd.find}`;
      if (cmd.limit === 1 || cmd.singleBatch) return { cursor: { firstBatch: [CANNED[0]], id: Long.ZERO, ns }, ok: 1 };
      const size = cmd.batchSize ?? 101;
      const id = nextCursor++;
      cursors.set(id, size);
      return { cursor: { firstBatch: CANNED.slice(0, size), id: Long.fromBigInt(id), ns }, ok: 1 };
    }
    case 'getMore': {
      const id = cmd.getMore.toBigInt();
      const at = cursors.get(id) ?? CANNED.length;
      const size = cmd.batchSize ?? CANNED.length;
      const batch = CANNED.slice(at, at + size);
      const done = at + size >= CANNED.length;
      if (done) cursors.delete(id); else cursors.set(id, at + size);
      return { cursor: { nextBatch: batch, id: done ? Long.ZERO : Long.fromBigInt(id), ns: `${cmd.$db}.${cmd.collection}` }, ok: 1 };
    }
    case 'aggregate': return { cursor: { firstBatch: [{ n: 1 }], id: Long.ZERO, ns: `${cmd.$db}.${cmd.aggregate}` }, ok: 1 };
    case 'nullServerBusy': {
      // Keeps this one thread busy for `nullServerBusy` ms in slices of `sliceMs`, paced as
      // Mayfly's reaper paces its slices (src/ttl/reaper.ts): the next slice follows at once
      // when no request arrived during the last yield, after `paceMs` when some did. Answers
      // when done, as mayflyRunTtlPass does: the floor of the TTL latency figure (run.mjs).
      const until = performance.now() + cmd.nullServerBusy;
      return new Promise((resolve) => {
        let clientsActive = false;
        const slice = () => {
          const started = performance.now();
          while (performance.now() - started < cmd.sliceMs);
          if (performance.now() >= until) return resolve({ ok: 1 });
          const before = requests;
          const next = () => {
            clientsActive = requests !== before;
            slice();
          };
          if (clientsActive) setTimeout(next, cmd.paceMs);
          else setImmediate(next);
        };
        setImmediate(slice);
      });
    }
    default: return { ok: 1 };
  }
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true);
  const decoder = new FrameDecoder();
  socket.on('data', (chunk) => {
    for (const frame of decoder.push(chunk)) {
      requests++;
      const req = decodeMessage(frame);
      if (req.kind === 'query') {
        const q = req.query.$query ?? req.query;
        socket.write(encodeOpReply([answer(q)], req.header.requestId, 0));
      } else if (!req.moreToCome) {
        const reply = answer(req.body);
        if (reply instanceof Promise) reply.then((r) => socket.write(encodeOpMsg(r, req.header.requestId, 0)));
        else socket.write(encodeOpMsg(reply, req.header.requestId, 0));
      }
    }
  });
  socket.on('error', () => {});
});
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`mongodb://127.0.0.1:${server.address().port}/\n`);
});
