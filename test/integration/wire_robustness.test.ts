/**
 * Malformed input over a real socket: each bad frame gets mongod's error reply or a closed
 * connection, and the server keeps serving another client through the official driver.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BSON } from 'mongodb';
import { startHarness, type Harness } from './harness.js';
import { bson, el, header, int32, cstring } from '../unit/wire/fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** Sends `bytes` on a fresh socket; resolves with what came back and whether the server closed. */
function exchange(bytes: Buffer, waitMs = 300): Promise<{ data: Buffer; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(h.server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closed = false;
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', () => socket.write(bytes));
    const timer = setTimeout(finish, waitMs);
    function finish() {
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), closed });
    }
  });
}

function opMsg(requestId: number, flags: number, sections: Buffer): Buffer {
  const body = Buffer.concat([int32(flags), sections]);
  return Buffer.concat([header(16 + body.length, requestId, 0, 2013), body]);
}

/** The body document of an OP_MSG reply. */
function replyBody(data: Buffer): Record<string, unknown> {
  expect(data.readInt32LE(12)).toBe(2013);
  expect(data[20]).toBe(0);
  return BSON.deserialize(data.subarray(21));
}

async function driverStillWorks(): Promise<void> {
  expect(await h.db.command({ ping: 1 })).toEqual({ ok: 1 });
}

describe('malformed frames', () => {
  it('answers a good OP_MSG on a raw socket', async () => {
    const { data, closed } = await exchange(opMsg(7, 0, Buffer.concat([Buffer.from([0]), bson(el.int32('ping', 1), el.string('$db', 'admin'))])));
    expect(closed).toBe(false);
    expect(data.readInt32LE(8)).toBe(7);
    expect(replyBody(data)).toEqual({ ok: 1 });
  });

  it('closes on a length below the header size, a negative length and an oversized length', async () => {
    for (const length of [8, -5, 48_000_001]) {
      const { data, closed } = await exchange(Buffer.concat([int32(length), int32(1), int32(0), int32(2013)]));
      expect(closed).toBe(true);
      expect(data.length).toBe(0);
    }
    await driverStillWorks();
  });

  it('closes on an unknown opcode', async () => {
    const { closed } = await exchange(Buffer.concat([header(20, 1, 0, 9999), int32(0)]));
    expect(closed).toBe(true);
    await driverStillWorks();
  });

  it('answers bad BSON with InvalidBSON and keeps the connection', async () => {
    // An element of type 0x77, which BSON does not have.
    const badDoc = Buffer.concat([int32(10), Buffer.from([0x77, 0x61, 0x00, 0x00, 0x00]), Buffer.from([0x00])]);
    const { data, closed } = await exchange(opMsg(3, 0, Buffer.concat([Buffer.from([0]), badDoc])));
    expect(closed).toBe(false);
    const body = replyBody(data);
    expect(body.ok).toBe(0);
    expect(body.code).toBe(22);
    expect(body.codeName).toBe('InvalidBSON');
    await driverStillWorks();
  });

  it('closes on a bad checksum', async () => {
    const msg = opMsg(4, 1, Buffer.concat([Buffer.from([0]), bson(el.int32('ping', 1), el.string('$db', 'admin')), int32(12345)]));
    const { closed } = await exchange(msg);
    expect(closed).toBe(true);
    await driverStillWorks();
  });

  it('answers a section kind it does not know with an error', async () => {
    const { data } = await exchange(opMsg(5, 0, Buffer.concat([Buffer.from([0]), bson(el.int32('ping', 1), el.string('$db', 'admin')), Buffer.from([7])])));
    const body = replyBody(data);
    expect(body.ok).toBe(0);
    expect(typeof body.code).toBe('number');
    await driverStillWorks();
  });

  it('sends nothing back for moreToCome', async () => {
    const { data, closed } = await exchange(opMsg(6, 2, Buffer.concat([Buffer.from([0]), bson(el.int32('ping', 1), el.string('$db', 'admin'))])));
    expect(data.length).toBe(0);
    expect(closed).toBe(false);
  });

  it('answers a legacy OP_QUERY find with UnsupportedOpQueryCommand', async () => {
    const query = bson(el.string('find', 'c'));
    const body = Buffer.concat([int32(0), cstring('test.$cmd'), int32(0), int32(-1), query]);
    const { data } = await exchange(Buffer.concat([header(16 + body.length, 9, 0, 2004), body]));
    expect(data.readInt32LE(12)).toBe(1);
    const reply = BSON.deserialize(data.subarray(36));
    expect(reply.code).toBe(352);
    expect(reply.codeName).toBe('UnsupportedOpQueryCommand');
    expect(reply.errmsg).toBe(
      'Unsupported OP_QUERY command: find. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal',
    );
  });

  it('answers the legacy isMaster handshake over OP_QUERY with OP_REPLY', async () => {
    const query = bson(el.int32('isMaster', 1));
    const body = Buffer.concat([int32(0), cstring('admin.$cmd'), int32(0), int32(-1), query]);
    const { data } = await exchange(Buffer.concat([header(16 + body.length, 10, 0, 2004), body]));
    expect(data.readInt32LE(8)).toBe(10);
    expect(data.readInt32LE(12)).toBe(1);
    expect(data.readInt32LE(32)).toBe(1);
    const reply = BSON.deserialize(data.subarray(36));
    expect(reply.ismaster).toBe(true);
    expect(reply.maxWireVersion).toBe(25);
    expect(reply.minWireVersion).toBe(0);
  });

  it('a message split into single bytes still gets its answer', async () => {
    const msg = opMsg(11, 0, Buffer.concat([Buffer.from([0]), bson(el.int32('ping', 1), el.string('$db', 'admin'))]));
    const answer = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(h.server.port, '127.0.0.1');
      socket.on('error', reject);
      socket.on('data', (d) => {
        socket.destroy();
        resolve(d);
      });
      socket.on('connect', async () => {
        for (const byte of msg) {
          socket.write(Buffer.from([byte]));
          await new Promise((r) => setImmediate(r));
        }
      });
    });
    expect(replyBody(answer)).toEqual({ ok: 1 });
  });
});

describe('document size', () => {
  /** An insert of `docs` as a kind-1 sequence, sent on a raw socket (the driver refuses big documents itself). */
  async function rawInsert(requestId: number, docs: Buffer[]): Promise<Record<string, unknown>> {
    const body = bson(el.string('insert', 'sizes'), el.string('$db', h.db.databaseName));
    const seq = Buffer.concat(docs);
    const kind1 = Buffer.concat([Buffer.from([1]), int32(4 + 'documents'.length + 1 + seq.length), cstring('documents'), seq]);
    const { data } = await exchange(opMsg(requestId, 0, Buffer.concat([Buffer.from([0]), body, kind1])), 3000);
    return replyBody(data);
  }
  const bigDoc = (id: number, bytes: number) => bson(el.int32('_id', id), el.string('s', 'x'.repeat(bytes)));

  it('refuses a document over 16 MiB with 10334, and keeps the small one beside it', async () => {
    const over = bigDoc(1, 16 * 1024 * 1024);
    const reply = await rawInsert(21, [bigDoc(2, 10), over]);
    expect(reply).toEqual({
      n: 1,
      writeErrors: [{ index: 1, code: 10334, errmsg: `object to insert too large. size in bytes: ${over.length}, max size: 16777216` }],
      ok: 1,
    });
    expect(await h.db.collection('sizes').find({}, { projection: { _id: 1 } }).toArray()).toEqual([{ _id: 2 }]);
  });

  it('stores a document of exactly 16 MiB', async () => {
    const exact = bson(el.int32('_id', 3), el.string('s', 'x'.repeat(16 * 1024 * 1024 - 22)));
    expect(exact.length).toBe(16 * 1024 * 1024);
    expect(await rawInsert(22, [exact])).toEqual({ n: 1, ok: 1 });
    await h.db.collection('sizes').deleteOne({ _id: 3 });
  });
});

describe('pipelined requests', () => {
  it('are answered in order when the first waits (a blocking fail point) and the next does not', async () => {
    await h.client.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['find'], blockConnection: true, blockTimeMS: 150 },
    });
    const find = opMsg(31, 0, Buffer.concat([Buffer.from([0]), bson(el.string('find', 'nothing'), el.string('$db', h.db.databaseName))]));
    const ping = opMsg(32, 0, Buffer.concat([Buffer.from([0]), bson(el.int32('ping', 1), el.string('$db', 'admin'))]));
    const { data, closed } = await exchange(Buffer.concat([find, ping]), 1000);
    expect(closed).toBe(false);
    const first = data.subarray(0, data.readInt32LE(0));
    const second = data.subarray(first.length);
    expect([first.readInt32LE(8), second.readInt32LE(8)]).toEqual([31, 32]); // responseTo, in request order
    expect(replyBody(first)).toMatchObject({ cursor: { firstBatch: [], ns: `${h.db.databaseName}.nothing` }, ok: 1 });
    expect(replyBody(second)).toEqual({ ok: 1 });
  });
});
