import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../src/wire/decode.js';
import {
  compressMessage,
  compressorIdOf,
  decompressMessage,
  negotiateCompressors,
} from '../../../src/wire/op_compressed.js';
import { encodeOpMsg } from '../../../src/wire/op_msg.js';
import { readHeader } from '../../../src/wire/message.js';
import { WireError } from '../../../src/wire/wire_error.js';
import { bson, el, frame, int32, kind0, opMsg, opQuery, PING } from './fixtures.js';

/** An OP_COMPRESSED built by hand around `inner` (its body compressed with `compress`). */
function wrap(
  inner: Buffer,
  compressorId: number,
  compress: (b: Buffer) => Buffer = (b) => b,
  sizeOverride?: number,
): Buffer {
  const body = inner.subarray(16);
  return frame(
    2012,
    inner.readInt32LE(4),
    inner.readInt32LE(8),
    int32(inner.readInt32LE(12)),
    int32(sizeOverride ?? body.length),
    Buffer.from([compressorId]),
    compress(body),
  );
}

function expectError(bytes: Buffer, code: number, message: string): WireError {
  let err: unknown;
  try {
    decodeMessage(bytes);
  } catch (e) {
    err = e;
  }
  if (!(err instanceof WireError)) throw new Error('expected a WireError');
  expect({ code: err.code, message: err.message, closeConnection: err.closeConnection, requestId: err.requestId }).toEqual({
    code,
    message,
    closeConnection: true,
    requestId: 21,
  });
  return err;
}

const INNER = opMsg(21, 0, [kind0(PING)]);

describe('OP_COMPRESSED', () => {
  it('decodes a hand-built noop-wrapped OP_MSG', () => {
    const req = decodeMessage(wrap(INNER, 0));
    expect(req).toEqual({
      kind: 'msg',
      header: { messageLength: INNER.length, requestId: 21, responseTo: 0, opCode: 2013 },
      flags: 0,
      moreToCome: false,
      exhaustAllowed: false,
      checksumPresent: false,
      body: { ping: 1, $db: 'admin' },
      compressorId: 0,
      // The decompressed message's size, not the compressed frame's.
      frameBytes: INNER.length,
    });
  });

  it('decodes a hand-built zlib-wrapped OP_MSG', () => {
    const req = decodeMessage(wrap(INNER, 2, (b) => deflateSync(b)));
    expect(req.kind).toBe('msg');
    expect(req.compressorId).toBe(2);
    expect(req.kind === 'msg' ? req.body : null).toEqual({ ping: 1, $db: 'admin' });
    expect(req.header).toEqual({ messageLength: INNER.length, requestId: 21, responseTo: 0, opCode: 2013 });
  });

  it('decodes a zlib-wrapped OP_QUERY', () => {
    const q = opQuery(21, 0, 'admin.$cmd', 0, -1, bson(el.int32('hello', 1)));
    const req = decodeMessage(wrap(q, 2, (b) => deflateSync(b)));
    expect(req.kind).toBe('query');
    expect(req.compressorId).toBe(2);
    expect(req.kind === 'query' ? req.query : null).toEqual({ hello: 1 });
  });

  it('verifies an OP_MSG checksum over the decompressed message', () => {
    const summed = opMsg(21, 1, [kind0(PING)], true);
    const req = decodeMessage(wrap(summed, 2, (b) => deflateSync(b)));
    expect(req.kind === 'msg' && req.checksumPresent).toBe(true);
    const bad = opMsg(21, 1, [kind0(PING)], 12345);
    const err = expectError(wrap(bad, 0), 288, 'OP_MSG checksum does not match contents');
    expect(err.compressorId).toBe(0);
  });

  it('compressMessage(noop) writes the OP_COMPRESSED layout byte by byte', () => {
    const original = encodeOpMsg({ ok: 1 }, 8, 9);
    const out = compressMessage(original, 0);
    const expected = Buffer.concat([
      int32(16 + 9 + original.length - 16),
      int32(9),
      int32(8),
      int32(2012),
      int32(2013),
      int32(original.length - 16),
      Buffer.from([0]),
      original.subarray(16),
    ]);
    expect(out.toString('hex')).toBe(expected.toString('hex'));
  });

  it('round-trips noop and zlib through compressMessage and decodeMessage', () => {
    const original = encodeOpMsg({ insert: 'c', documents: [{ a: 'x'.repeat(1000) }], $db: 'test' }, 0, 31);
    for (const id of [0, 2]) {
      const packed = compressMessage(original, id);
      expect([packed.readInt32LE(12), packed[24]]).toEqual([2012, id]);
      const unpacked = decompressMessage(packed, readHeader(packed));
      expect(unpacked.compressorId).toBe(id);
      expect(unpacked.frame.toString('hex')).toBe(original.toString('hex'));
      const req = decodeMessage(packed);
      expect(req.compressorId).toBe(id);
      expect(req.kind === 'msg' ? req.body : null).toEqual({ insert: 'c', documents: [{ a: 'x'.repeat(1000) }], $db: 'test' });
    }
    expect(compressMessage(original, 2).length).toBeLessThan(original.length);
  });

  it('refuses snappy, zstd and unknown compressor ids (InternalError, closes)', () => {
    for (const id of [1, 3, 4, 255]) {
      expectError(wrap(INNER, id), 1, 'Compression algorithm specified in message is not available');
    }
  });

  it('refuses a header too short for the compression fields', () => {
    expectError(frame(2012, 21, 0, int32(2013), int32(5)), 2, 'Invalid compressed message header');
  });

  it('refuses negative and oversized uncompressed sizes', () => {
    expectError(wrap(INNER, 0, undefined, -1), 2, 'Decompressed message would be negative in size');
    expectError(wrap(INNER, 0, undefined, 48_000_000 - 15), 2, 'Decompressed message would be larger than maximum message size');
  });

  it('refuses a size that disagrees with the data', () => {
    const body = INNER.length - 16;
    expectError(wrap(INNER, 0, undefined, body + 1), 2, 'Decompressing message returned less data than expected');
    expectError(wrap(INNER, 2, (b) => deflateSync(b), body + 10), 2, 'Decompressing message returned less data than expected');
    expectError(wrap(INNER, 2, (b) => deflateSync(b), body - 1), 2, 'Compressed message was invalid or corrupted');
  });

  it('refuses corrupted zlib data', () => {
    expectError(wrap(INNER, 2, (b) => Buffer.concat([Buffer.from([0x78, 0x9c]), b])), 2, 'Compressed message was invalid or corrupted');
    expectError(wrap(INNER, 2, () => Buffer.alloc(0)), 2, 'Compressed message was invalid or corrupted');
  });

  it('refuses OP_COMPRESSED inside OP_COMPRESSED', () => {
    const twice = wrap(wrap(INNER, 0), 0);
    expectError(twice, 20, 'Message type 2012 is not supported.');
  });

  it('negotiates only zlib, in the client order', () => {
    expect(negotiateCompressors(['snappy', 'zstd', 'zlib'])).toEqual(['zlib']);
    expect(negotiateCompressors(['snappy'])).toEqual([]);
    expect(negotiateCompressors([])).toEqual([]);
    expect([compressorIdOf('noop'), compressorIdOf('zlib'), compressorIdOf('zstd'), compressorIdOf('lz4')]).toEqual([0, 2, 3, null]);
  });

  it('compressMessage refuses a compressor it does not implement', () => {
    expect(() => compressMessage(INNER, 1)).toThrow('Compression algorithm specified in message is not available');
  });
});
