import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../src/wire/decode.js';
import type { OpQueryRequest } from '../../../src/wire/message.js';
import { WireError } from '../../../src/wire/wire_error.js';
import { bson, cstring, el, frame, int32, opQuery } from './fixtures.js';

function decodeQuery(bytes: Buffer): OpQueryRequest {
  const req = decodeMessage(bytes);
  if (req.kind !== 'query') throw new Error('expected an OP_QUERY');
  return req;
}

function expectError(bytes: Buffer, code: number, message: string, closeConnection: boolean): WireError {
  let err: unknown;
  try {
    decodeMessage(bytes);
  } catch (e) {
    err = e;
  }
  if (!(err instanceof WireError)) throw new Error('expected a WireError');
  expect({ code: err.code, message: err.message, closeConnection: err.closeConnection, requestId: err.requestId, opCode: err.opCode }).toEqual({
    code,
    message,
    closeConnection,
    requestId: 11,
    opCode: 2004,
  });
  return err;
}

const HELLO = bson(
  el.int32('isMaster', 1),
  el.bool('helloOk', true),
  el.doc('client', bson(el.doc('driver', bson(el.string('name', 'nodejs'), el.string('version', '7.0.0'))))),
  el.array('compression', []),
);

describe('decodeMessage: OP_QUERY', () => {
  it('decodes the legacy handshake', () => {
    const bytes = opQuery(11, 4, 'admin.$cmd', 0, -1, HELLO);
    expect(decodeQuery(bytes)).toEqual({
      kind: 'query',
      header: { messageLength: bytes.length, requestId: 11, responseTo: 0, opCode: 2004 },
      flags: 4,
      fullCollectionName: 'admin.$cmd',
      numberToSkip: 0,
      numberToReturn: -1,
      query: { isMaster: 1, helloOk: true, client: { driver: { name: 'nodejs', version: '7.0.0' } }, compression: [] },
      returnFieldsSelector: null,
      compressorId: null,
    });
  });

  it('decodes a non-command query with a field selector fully', () => {
    const q = bson(el.doc('a', bson(el.int32('$gt', 3))));
    const fields = bson(el.int32('a', 1), el.int32('_id', 0));
    const req = decodeQuery(opQuery(11, 0, 'test.coll', 5, 20, q, fields));
    expect([req.fullCollectionName, req.numberToSkip, req.numberToReturn]).toEqual(['test.coll', 5, 20]);
    expect(req.query).toEqual({ a: { $gt: 3 } });
    expect(req.returnFieldsSelector).toEqual({ a: 1, _id: 0 });
  });

  it('ignores bytes after the field selector, as mongod does', () => {
    const req = decodeQuery(opQuery(11, 0, 'admin.$cmd', 0, 1, bson(el.int32('ping', 1)), Buffer.concat([bson(), Buffer.from([1, 2, 3])])));
    expect(req.query).toEqual({ ping: 1 });
    expect(req.returnFieldsSelector).toEqual({});
  });

  it('fails and closes when the flags are cut off (18634)', () => {
    expectError(frame(2004, 11, 0, Buffer.from([0, 0])), 18634, 'Not enough data to read', true);
  });

  it('fails and closes when the namespace is not terminated (18633)', () => {
    expectError(frame(2004, 11, 0, int32(0), Buffer.from('admin.$cmd', 'ascii')), 18633, 'Failed to parse ns string', true);
  });

  it('answers when numberToSkip or numberToReturn is cut off (18634)', () => {
    expectError(frame(2004, 11, 0, int32(0), cstring('admin.$cmd'), Buffer.from([1, 0])), 18634, 'Not enough data to read', false);
    expectError(frame(2004, 11, 0, int32(0), cstring('admin.$cmd'), int32(0), Buffer.from([1])), 18634, 'Not enough data to read', false);
  });

  it('answers when the query document is missing or too short', () => {
    expectError(
      frame(2004, 11, 0, int32(0), cstring('admin.$cmd'), int32(0), int32(1)),
      22,
      'Client Error: Remaining data too small for BSON object',
      false,
    );
    expectError(
      frame(2004, 11, 0, int32(0), cstring('admin.$cmd'), int32(0), int32(1), Buffer.from([5, 0, 0])),
      22,
      'Client Error: Remaining data too small for BSON object',
      false,
    );
  });

  it('answers when the query document length disagrees with the bytes', () => {
    const q = bson(el.int32('ping', 1));
    q.writeInt32LE(q.length + 10, 0);
    expectError(
      opQuery(11, 0, 'admin.$cmd', 0, 1, q),
      22,
      "Client Error: bad object in message: Incorrect BSON length in element with field name '?' in object with unknown _id",
      false,
    );
    const short = bson(el.int32('ping', 1));
    short.writeInt32LE(short.length - 4, 0); // last covered byte is the int32 value's 0x01
    expectError(
      opQuery(11, 0, 'admin.$cmd', 0, 1, short),
      22,
      "Client Error: bad object in message: BSON object not terminated with EOO in element with field name '?' in object with unknown _id",
      false,
    );
  });

  it('answers when the field selector is malformed', () => {
    expectError(
      opQuery(11, 0, 'admin.$cmd', 0, 1, bson(el.int32('ping', 1)), Buffer.from([9, 0])),
      22,
      'Client Error: Remaining data too small for BSON object',
      false,
    );
  });
});
