import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../src/wire/decode.js';
import { WireError } from '../../../src/wire/wire_error.js';
import { cstring, frame, header, int32, int64, kind0, opMsg, PING } from './fixtures.js';

function caught(bytes: Buffer): WireError {
  try {
    decodeMessage(bytes);
  } catch (err) {
    if (err instanceof WireError) return err;
    throw err;
  }
  throw new Error('expected a WireError');
}

function fields(err: WireError) {
  return { code: err.code, message: err.message, closeConnection: err.closeConnection, requestId: err.requestId, opCode: err.opCode };
}

describe('decodeMessage: opcodes and framing', () => {
  it('refuses an unknown opcode and closes (IllegalOperation)', () => {
    expect(fields(caught(frame(9999, 3, 0, Buffer.alloc(8))))).toEqual({
      code: 20,
      message: 'Message type 9999 is not supported.',
      closeConnection: true,
      requestId: 3,
      opCode: 9999,
    });
    expect(caught(frame(1, 3, 0, Buffer.alloc(20))).message).toBe('Message type 1 is not supported.');
  });

  it('refuses the legacy fire-and-forget opcodes removed in 6.0 and closes', () => {
    const cases: Array<[number, number, string]> = [
      [2002, 5745702, 'OP_INSERT is no longer supported'],
      [2001, 5745701, 'OP_UPDATE is no longer supported'],
      [2006, 5745700, 'OP_DELETE is no longer supported'],
      [2007, 5745703, 'OP_KILL_CURSORS is no longer supported'],
    ];
    for (const [op, code, message] of cases) {
      expect(fields(caught(frame(op, 3, 0, int32(0), cstring('test.c'))))).toEqual({
        code,
        message,
        closeConnection: true,
        requestId: 3,
        opCode: op,
      });
    }
  });

  it('answers OP_GET_MORE with the legacy-removal error, keeping the connection', () => {
    const err = caught(frame(2005, 3, 0, int32(0), cstring('test.c'), int32(0), int64(5n)));
    expect(fields(err)).toEqual({
      code: 5739101,
      message:
        'OP_GET_MORE is no longer supported. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal',
      closeConnection: false,
      requestId: 3,
      opCode: 2005,
    });
    expect(err.replyExpected).toBe(true);
  });

  it('refuses a frame whose header length disagrees with its size', () => {
    const msg = opMsg(3, 0, [kind0(PING)]);
    const err = caught(Buffer.concat([msg, Buffer.from([0])]));
    expect(fields(err)).toEqual({
      code: 17,
      message: `message length ${msg.length} does not match the ${msg.length + 1} bytes received`,
      closeConnection: true,
      requestId: 3,
      opCode: 2013,
    });
  });

  it('refuses a frame shorter than a header or announcing a bad length', () => {
    expect(fields(caught(Buffer.alloc(10)))).toEqual({
      code: 17,
      message: 'recv(): message msgLen 10 is invalid. Min 16 Max: 48000000',
      closeConnection: true,
      requestId: null,
      opCode: null,
    });
    expect(caught(header(-5, 1, 0, 2013)).message).toBe('recv(): message msgLen 18446744073709551611 is invalid. Min 16 Max: 48000000');
  });
});
