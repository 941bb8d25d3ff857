import { describe, expect, it } from 'vitest';
import { Double, Long } from '../../../src/bson.js';
import { decodeMessage } from '../../../src/wire/decode.js';
import { encodeOpMsg } from '../../../src/wire/op_msg.js';
import { encodeOpReply } from '../../../src/wire/op_reply.js';
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
