import { describe, expect, it } from 'vitest';
import { Code, Double, Long, ObjectId, serializeViaJsBson, type Document } from '../../../src/bson/library.js';
import { deserialize } from '../../../src/bson/decode.js';
import { decodeMessage } from '../../../src/wire/decode.js';
import { encodeOpMsg } from '../../../src/wire/op_msg.js';
import { encodeOpReply } from '../../../src/wire/op_reply.js';
import { Gen } from '../bson/random_bson.js';
import { bson, el, header, int32, int64, refCrc32c, uint32 } from './fixtures.js';

const OK1 = bson(el.double('ok', 1));

describe('encodeOpMsg', () => {
  it('lays out header, flags, a kind-0 section and the body', () => {
    const out = encodeOpMsg({ ok: new Double(1) }, 42, 1001);
    const expected = Buffer.concat([header(16 + 4 + 1 + OK1.length, 1001, 42, 2013), uint32(0), Buffer.from([0]), OK1]);
    expect(out.toString('hex')).toBe(expected.toString('hex'));
  });

  it('splices already serialised bytes and sets flags', () => {
    const out = encodeOpMsg(OK1, 5, 6, 2);
    const expected = Buffer.concat([header(16 + 5 + OK1.length, 6, 5, 2013), uint32(2), Buffer.from([0]), OK1]);
    expect(out.toString('hex')).toBe(expected.toString('hex'));
  });

  it('appends a correct CRC-32C when checksumPresent is set', () => {
    const out = encodeOpMsg(OK1, 5, 6, 1);
    const unsummed = Buffer.concat([header(16 + 5 + OK1.length + 4, 6, 5, 2013), uint32(1), Buffer.from([0]), OK1]);
    const expected = Buffer.concat([unsummed, uint32(refCrc32c(unsummed))]);
    expect(out.toString('hex')).toBe(expected.toString('hex'));
    const back = decodeMessage(out);
    expect(back.kind === 'msg' && back.checksumPresent).toBe(true);
  });

  it('round-trips through decodeMessage with BSON types kept', () => {
    const body = { n: 1, d: new Double(2), l: Long.fromNumber(3), s: 'x', arr: [1, 2] };
    const back = decodeMessage(encodeOpMsg(body, 0, 9));
    expect(back.kind).toBe('msg');
    expect(back.kind === 'msg' ? back.body : null).toEqual(body);
  });
});

describe('encodeOpReply', () => {
  it('lays out an OP_REPLY byte by byte with the defaults (AwaitCapable, no cursor)', () => {
    const out = encodeOpReply([{ ok: new Double(1) }], 77, 500);
    const expected = Buffer.concat([
      header(16 + 20 + OK1.length, 500, 77, 1),
      int32(8),
      int64(0n),
      int32(0),
      int32(1),
      OK1,
    ]);
    expect(out.toString('hex')).toBe(expected.toString('hex'));
    expect(out.length).toBe(36 + OK1.length);
    expect([out.readInt32LE(0), out.readInt32LE(4), out.readInt32LE(8), out.readInt32LE(12)]).toEqual([out.length, 500, 77, 1]);
  });

  it('writes flags, cursor id, startingFrom and several documents (bytes spliced as given)', () => {
    const d2 = bson(el.int32('a', 2));
    const out = encodeOpReply([OK1, d2], -3, 4, 2, 1234567890123n, 5);
    const expected = Buffer.concat([
      header(16 + 20 + OK1.length + d2.length, 4, -3, 1),
      int32(2),
      int64(1234567890123n),
      int32(5),
      int32(2),
      OK1,
      d2,
    ]);
    expect(out.toString('hex')).toBe(expected.toString('hex'));
  });

  it('writes an empty reply', () => {
    const out = encodeOpReply([], 1, 2);
    expect(out.toString('hex')).toBe(Buffer.concat([header(36, 2, 1, 1), int32(8), int64(0n), int32(0), int32(0)]).toString('hex'));
  });
});

describe('replies encoded in place, byte for byte as before', () => {
  // The previous encoders: js-bson's serialize, then the bytes copied into the frame.
  const before = {
    opMsg(body: Document, responseTo: number, requestId: number, flags: number): Buffer {
      const bytes = serializeViaJsBson(body);
      const checksum = (flags & 1) !== 0;
      const parts = [header(21 + bytes.length + (checksum ? 4 : 0), requestId, responseTo, 2013), uint32(flags), Buffer.from([0]), Buffer.from(bytes)];
      const unsummed = Buffer.concat(parts);
      return checksum ? Buffer.concat([unsummed, uint32(refCrc32c(unsummed))]) : unsummed;
    },
    opReply(doc: Document, responseTo: number, requestId: number, flags: number): Buffer {
      const bytes = Buffer.from(serializeViaJsBson(doc));
      return Buffer.concat([header(36 + bytes.length, requestId, responseTo, 1), int32(flags), int64(0n), int32(0), int32(1), bytes]);
    },
  };

  const ok = new Double(1);
  const replies: Document[] = [
    { ok },
    { n: 1, nModified: 1, ok },
    { cursor: { firstBatch: [{ _id: new ObjectId('0123456789abcdefabcdef01'), k: 5, name: 'user5', n: 1 }], id: Long.ZERO, ns: 'bench.fo' }, ok },
    { ok: new Double(0), errmsg: 'Unsupported OP_QUERY command: insert', code: 352, codeName: 'UnsupportedOpQueryCommand' },
    { code: new Code('1') }, // handed to js-bson whole
  ];

  it('encodeOpMsg: hot-path replies and 500 random documents, with and without checksum and moreToCome', () => {
    const gen = new Gen(99);
    const docs = [...replies, ...Array.from({ length: 500 }, () => deserialize(gen.document(0, 6)))];
    let checked = 0;
    for (const [i, doc] of docs.entries()) {
      try {
        serializeViaJsBson(doc);
      } catch {
        continue; // a vector js-bson refuses: covered by test/unit/bson/encode.test.ts
      }
      for (const flags of [0, 1, 2, 3]) {
        const out = encodeOpMsg(doc, 1000 + i, 7, flags);
        expect(out.toString('hex')).toBe(before.opMsg(doc, 1000 + i, 7, flags).toString('hex'));
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(450);
    const withSum = decodeMessage(encodeOpMsg(replies[1]!, 1, 2, 1));
    expect(withSum.kind === 'msg' && withSum.checksumPresent).toBe(true);
  });

  it('encodeOpReply: one document written in place, as before', () => {
    for (const doc of replies) {
      expect(encodeOpReply([doc], 3, 4).toString('hex')).toBe(before.opReply(doc, 3, 4, 8).toString('hex'));
      expect(encodeOpReply([doc], 3, 4, 2).toString('hex')).toBe(before.opReply(doc, 3, 4, 2).toString('hex'));
    }
  });
});
