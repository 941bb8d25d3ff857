import { describe, expect, it } from 'vitest';
import { Double } from '../../../src/bson/library.js';
import { decodeMessage } from '../../../src/wire/decode.js';
import type { OpMsgRequest } from '../../../src/wire/message.js';
import { WireError } from '../../../src/wire/wire_error.js';
import { bson, cstring, el, frame, int32, kind0, kind1, opMsg, PING, refCrc32c, uint32 } from './fixtures.js';

function decodeMsg(bytes: Buffer): OpMsgRequest {
  const req = decodeMessage(bytes);
  if (req.kind !== 'msg') throw new Error('expected an OP_MSG');
  return req;
}

function caught(fn: () => unknown): WireError {
  try {
    fn();
  } catch (err) {
    if (err instanceof WireError) return err;
    throw err;
  }
  throw new Error('expected a WireError');
}

/** Asserts the error fields a connection acts on. */
function expectError(
  bytes: Buffer,
  code: number,
  message: string,
  closeConnection: boolean,
  requestId: number | null = 7,
): WireError {
  const err = caught(() => decodeMessage(bytes));
  expect({ code: err.code, message: err.message, closeConnection: err.closeConnection, requestId: err.requestId }).toEqual(
    { code, message, closeConnection, requestId },
  );
  return err;
}

const DOC1 = bson(el.int32('_id', 1), el.string('a', 'x'));
const DOC2 = bson(el.int32('_id', 2));
const UPD = bson(el.doc('q', bson()), el.doc('u', bson(el.int32('b', 1))));

describe('decodeMessage: OP_MSG', () => {
  it('decodes a body-only message', () => {
    const bytes = opMsg(7, 0, [kind0(PING)]);
    const req = decodeMsg(bytes);
    expect(req).toEqual({
      kind: 'msg',
      header: { messageLength: bytes.length, requestId: 7, responseTo: 0, opCode: 2013 },
      flags: 0,
      moreToCome: false,
      exhaustAllowed: false,
      checksumPresent: false,
      body: { ping: 1, $db: 'admin' },
      compressorId: null,
      frameBytes: bytes.length,
    });
    expect(Object.keys(req.body)).toEqual(['ping', '$db']);
  });

  it('merges two kind-1 sequences into the body, after its own fields', () => {
    const body = bson(el.string('insert', 'c'), el.string('$db', 'test'));
    const bytes = opMsg(7, 0, [kind0(body), kind1('documents', [DOC1, DOC2]), kind1('updates', [UPD])]);
    const req = decodeMsg(bytes);
    expect(req.body).toEqual({
      insert: 'c',
      $db: 'test',
      documents: [{ _id: 1, a: 'x' }, { _id: 2 }],
      updates: [{ q: {}, u: { b: 1 } }],
    });
    expect(Object.keys(req.body)).toEqual(['insert', '$db', 'documents', 'updates']);
  });

  it('accepts a sequence before the body', () => {
    const body = bson(el.string('insert', 'c'), el.string('$db', 'test'));
    const req = decodeMsg(opMsg(7, 0, [kind1('documents', [DOC2]), kind0(body)]));
    expect(req.body).toEqual({ insert: 'c', $db: 'test', documents: [{ _id: 2 }] });
  });

  it('turns an empty sequence into an empty array', () => {
    const body = bson(el.string('insert', 'c'), el.string('$db', 'test'));
    const req = decodeMsg(opMsg(7, 0, [kind0(body), kind1('documents', [])]));
    expect(req.body).toEqual({ insert: 'c', $db: 'test', documents: [] });
  });

  it('keeps the BSON types of the body (integral double stays a Double)', () => {
    const req = decodeMsg(opMsg(7, 0, [kind0(bson(el.double('d', 1), el.double('f', 1.5), el.bool('t', true)))]));
    expect(req.body.d).toBeInstanceOf(Double);
    expect((req.body.d as Double).value).toBe(1);
    expect(req.body.f).toBe(1.5);
    expect(req.body.t).toBe(true);
  });

  it('reads moreToCome and exhaustAllowed, and ignores unknown optional bits', () => {
    const more = decodeMsg(opMsg(7, 2, [kind0(PING)]));
    expect([more.flags, more.moreToCome, more.exhaustAllowed, more.checksumPresent]).toEqual([2, true, false, false]);
    const exhaust = decodeMsg(opMsg(7, 1 << 16, [kind0(PING)]));
    expect([exhaust.flags, exhaust.moreToCome, exhaust.exhaustAllowed]).toEqual([65536, false, true]);
    const optional = decodeMsg(opMsg(7, (1 << 16) | (1 << 20) | (1 << 31), [kind0(PING)]));
    expect([optional.flags, optional.exhaustAllowed]).toEqual([0x80110000, true]);
  });

  it('verifies a correct checksum', () => {
    const bytes = opMsg(7, 1, [kind0(PING)], true);
    expect(bytes.readUInt32LE(bytes.length - 4)).toBe(refCrc32c(bytes.subarray(0, bytes.length - 4)));
    const req = decodeMsg(bytes);
    expect([req.checksumPresent, req.flags]).toEqual([true, 1]);
    expect(req.body).toEqual({ ping: 1, $db: 'admin' });
  });

  it('rejects a wrong checksum: ChecksumMismatch, connection closed', () => {
    const good = opMsg(7, 1, [kind0(PING)], true);
    const bad = opMsg(7, 1, [kind0(PING)], (good.readUInt32LE(good.length - 4) ^ 1) >>> 0);
    expectError(bad, 288, 'OP_MSG checksum does not match contents', true);
    const flipped = Buffer.from(good);
    flipped[27] = flipped[27]! ^ 0x20; // 'ping' becomes 'pIng'
    expectError(flipped, 288, 'OP_MSG checksum does not match contents', true);
  });

  it('parses sections before verifying the checksum, as mongod does', () => {
    const good = opMsg(7, 1, [kind0(PING)], true);
    const broken = Buffer.from(good);
    broken[20] = 9; // the section kind byte
    expectError(broken, 40432, 'Unknown section kind 9', false);
  });

  it('rejects checksumPresent on a message too short to hold one (51252)', () => {
    const bytes = frame(2013, 7, 0, uint32(1), uint32(0));
    expectError(bytes, 51252, 'Invalid message size for an OpMsg containing a checksum', false);
  });

  it('rejects an unknown required flag bit: IllegalOpMsgFlag, connection closed', () => {
    const err = expectError(
      opMsg(7, 4, [kind0(PING)]),
      223,
      'Message contains illegal flags value: Ob00000000000000000000000000000100',
      true,
    );
    expect(err.opCode).toBe(2013);
    expectError(
      opMsg(7, (1 << 15) | 2 | (1 << 16), [kind0(PING)]),
      223,
      'Message contains illegal flags value: Ob00000000000000011000000000000010',
      true,
    );
  });

  it('rejects a message too short to hold its flags', () => {
    expectError(frame(2013, 7, 0, Buffer.from([0, 0])), 15, 'buffer size too small to read (4) bytes out of buffer[2] at offset: 0', false);
  });

  it('rejects an unknown section kind with a reply (40432)', () => {
    const err = expectError(
      opMsg(7, 0, [kind0(PING), Buffer.concat([Buffer.from([3]), PING])]),
      40432,
      'Unknown section kind 3',
      false,
    );
    expect([err.replyExpected, err.moreToCome, err.opCode, err.compressorId]).toEqual([true, false, 2013, null]);
  });

  it('rejects a security-token section (kind 2) as mongod without multitenancy does', () => {
    expectError(opMsg(7, 0, [Buffer.concat([Buffer.from([2]), cstring('tok')]), kind0(PING)]), 13, 'Unsupported Security Token provided', false);
  });

  it('rejects a message without a body (40587)', () => {
    expectError(opMsg(7, 0, [kind1('documents', [DOC1])]), 40587, 'OP_MSG messages must have a body', false);
    expectError(opMsg(7, 0, []), 40587, 'OP_MSG messages must have a body', false);
  });

  it('rejects two bodies (40430)', () => {
    expectError(opMsg(7, 0, [kind0(PING), kind0(PING)]), 40430, 'Multiple body sections in message', false);
  });

  it('rejects a third sequence: TooManyDocumentSequences, connection closed', () => {
    expectError(
      opMsg(7, 0, [kind0(PING), kind1('a', []), kind1('b', []), kind1('c', [])]),
      233,
      'Too many document sequences in OP_MSG',
      true,
    );
  });

  it('rejects a duplicate sequence identifier (40431)', () => {
    expectError(
      opMsg(7, 0, [kind0(PING), kind1('documents', [DOC1]), kind1('documents', [DOC2])]),
      40431,
      'Duplicate document sequence: documents',
      false,
    );
  });

  it('rejects an identifier that is also a body field (40433), dotted paths included', () => {
    const body = bson(el.string('insert', 'c'), el.array('documents', []), el.string('$db', 'test'));
    expectError(
      opMsg(7, 0, [kind0(body), kind1('documents', [DOC1])]),
      40433,
      'Duplicate field between body and document sequence documents',
      false,
    );
    const nested = bson(el.doc('a', bson(el.int32('b', 1))), el.string('$db', 'test'));
    expectError(opMsg(7, 0, [kind0(nested), kind1('a.b', [DOC1])]), 40433, 'Duplicate field between body and document sequence a.b', false);
    const scalar = bson(el.int32('a', 1), el.string('$db', 'test'));
    expect(decodeMsg(opMsg(7, 0, [kind0(scalar), kind1('a.b', [DOC2])])).body).toEqual({ a: 1, $db: 'test', 'a.b': [{ _id: 2 }] });
  });

  it('rejects a sequence whose size runs past the message (Overflow)', () => {
    const bytes = opMsg(7, 0, [kind0(PING), kind1('documents', [DOC1], 100)]);
    const left = bytes.length - (16 + 4 + 1 + PING.length + 1) - 4;
    expectError(bytes, 15, `Invalid advance (96) past end of buffer[${left}] at offset: 0`, false);
  });

  it('rejects a sequence whose size field is cut off', () => {
    expectError(
      opMsg(7, 0, [kind0(PING), Buffer.from([1, 9, 0])]),
      15,
      'buffer size too small to read (4) bytes out of buffer[2] at offset: 0',
      false,
    );
  });

  it('rejects a sequence whose identifier is not terminated', () => {
    const section = Buffer.concat([Buffer.from([1]), int32(7), Buffer.from('abc', 'ascii')]);
    expectError(opMsg(7, 0, [kind0(PING), section]), 15, "couldn't locate terminal char (\\u0000) in buffer[3] at offset: 0", false);
  });

  it('rejects a body whose declared length exceeds the bytes left (InvalidBSON)', () => {
    const body = Buffer.from(PING);
    body.writeInt32LE(PING.length + 1, 0);
    expectError(
      opMsg(7, 0, [kind0(body)]),
      22,
      "Incorrect BSON length in element with field name '?' in object with unknown _id",
      false,
    );
  });

  it('rejects a body whose declared length stops before its terminator', () => {
    const body = Buffer.from(PING);
    body.writeInt32LE(PING.length - 3, 0);
    expectError(
      opMsg(7, 0, [kind0(body)]),
      22,
      "BSON object not terminated with EOO in element with field name '?' in object with unknown _id",
      false,
    );
  });

  it('rejects a document shorter than 5 bytes', () => {
    expectError(
      opMsg(7, 0, [kind0(Buffer.from([4, 0, 0, 0, 0]))]),
      22,
      "BSON data has to be at least 5 bytes in element with field name '?' in object with unknown _id",
      false,
    );
    expectError(
      opMsg(7, 0, [Buffer.from([0, 5, 0, 0])]),
      22,
      "BSON data has to be at least 5 bytes in element with field name '?' in object with unknown _id",
      false,
    );
  });

  it('rejects a document with a bad element inside a sequence (InvalidBSON, answered)', () => {
    const bad = Buffer.concat([int32(0), Buffer.from([0x6f]), cstring('a'), int32(1), Buffer.from([0])]);
    bad.writeInt32LE(bad.length, 0);
    expectError(
      opMsg(7, 0, [kind0(PING), kind1('documents', [DOC1, bad])]),
      22,
      'Detected unknown BSON type 6f for fieldname "a"',
      false,
    );
  });

  it('treats trailing bytes after the body as a further section', () => {
    expectError(opMsg(7, 0, [kind0(PING), Buffer.from([5])]), 40432, 'Unknown section kind 5', false);
    expectError(opMsg(7, 0, [kind0(PING), Buffer.from([0])]), 40430, 'Multiple body sections in message', false);
  });

  it('marks errors of a moreToCome request as needing no reply', () => {
    const err = expectError(opMsg(7, 2, [kind0(PING), Buffer.from([9])]), 40432, 'Unknown section kind 9', false);
    expect([err.moreToCome, err.replyExpected]).toEqual([true, false]);
  });
});
