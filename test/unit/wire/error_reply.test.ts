import { describe, expect, it } from 'vitest';
import { deserialize } from '../../../src/bson/decode.js';
import { Double } from '../../../src/bson/library.js';
import { codeNameOf } from '../../../src/errors/codes.js';
import { decodeMessage } from '../../../src/wire/decode.js';
import { encodeErrorReply } from '../../../src/wire/error_reply.js';
import { decompressMessage } from '../../../src/wire/op_compressed.js';
import { readHeader } from '../../../src/wire/message.js';
import { WireError } from '../../../src/wire/wire_error.js';
import { cstring, frame, int32, int64, kind0, opMsg, PING } from './fixtures.js';

function caught(bytes: Buffer): WireError {
  try {
    decodeMessage(bytes);
  } catch (err) {
    if (err instanceof WireError) return err;
    throw err;
  }
  throw new Error('expected a WireError');
}

describe('encodeErrorReply', () => {
  it('answers a bad OP_MSG with an OP_MSG error body', () => {
    const err = caught(opMsg(40, 0, [kind0(PING), Buffer.from([7])]));
    const reply = encodeErrorReply(err, 900)!;
    expect([reply.readInt32LE(0), reply.readInt32LE(4), reply.readInt32LE(8), reply.readInt32LE(12)]).toEqual([reply.length, 900, 40, 2013]);
    const back = decodeMessage(reply);
    expect(back.kind === 'msg' ? back.body : null).toEqual({
      ok: new Double(0),
      errmsg: 'Unknown section kind 7',
      code: 40432,
      codeName: codeNameOf(40432),
    });
  });

  it('answers OP_GET_MORE with an OP_REPLY $err and QueryFailure', () => {
    const err = caught(frame(2005, 41, 0, int32(0), cstring('test.c'), int32(0), int64(5n)));
    const reply = encodeErrorReply(err, 901)!;
    expect([reply.readInt32LE(4), reply.readInt32LE(8), reply.readInt32LE(12)]).toEqual([901, 41, 1]);
    expect([reply.readInt32LE(16), reply.readBigInt64LE(20), reply.readInt32LE(28), reply.readInt32LE(32)]).toEqual([2, 0n, 0, 1]);
    expect(deserialize(reply.subarray(36))).toEqual({
      $err: 'OP_GET_MORE is no longer supported. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal',
      code: 5739101,
      ok: new Double(0),
    });
  });

  it('answers a bad OP_QUERY command with an OP_REPLY command error (AwaitCapable)', () => {
    const err = caught(frame(2004, 42, 0, int32(0), cstring('admin.$cmd'), int32(0), int32(1)));
    const reply = encodeErrorReply(err, 902)!;
    expect([reply.readInt32LE(8), reply.readInt32LE(12), reply.readInt32LE(16), reply.readInt32LE(32)]).toEqual([42, 1, 8, 1]);
    expect(deserialize(reply.subarray(36))).toEqual({
      ok: new Double(0),
      errmsg: 'Client Error: Remaining data too small for BSON object',
      code: 22,
      codeName: codeNameOf(22),
    });
  });

  it('compresses the reply like the request', () => {
    const inner = opMsg(43, 0, [kind0(PING), Buffer.from([7])]);
    const compressed = frame(2012, 43, 0, int32(2013), int32(inner.length - 16), Buffer.from([0]), inner.subarray(16));
    const reply = encodeErrorReply(caught(compressed), 903)!;
    expect([reply.readInt32LE(12), reply[24]]).toEqual([2012, 0]);
    const unpacked = decompressMessage(reply, readHeader(reply));
    const back = decodeMessage(unpacked.frame);
    expect(back.kind === 'msg' ? back.body.code : null).toBe(40432);
  });

  it('sends nothing for fatal errors and for moreToCome requests', () => {
    expect(encodeErrorReply(caught(opMsg(44, 4, [kind0(PING)])), 904)).toBe(null);
    expect(encodeErrorReply(caught(opMsg(44, 2, [kind0(PING), Buffer.from([7])])), 904)).toBe(null);
    expect(encodeErrorReply(new WireError(17, 'x', true), 904)).toBe(null);
  });
});
