/**
 * OP_MSG (opcode 2013): decoding requests and encoding replies.
 * Spec: https://github.com/mongodb/specifications/blob/master/source/message/OP_MSG.md
 *
 *   header(16) | flagBits uint32 | sections... | [checksum uint32 when checksumPresent]
 *   section kind 0: 0x00 | BSON document                       (the body, exactly one)
 *   section kind 1: 0x01 | int32 size | cstring identifier | BSON documents...   (at most 2)
 *
 * Checks, codes and texts follow mongod's `OpMsg::parse` (mongo/rpc/op_msg.cpp), in its order.
 */
import type { Document } from '../bson/library.js';
import { encodeDocument } from '../bson/encode.js';
import { ErrorCodes } from '../errors/codes.js';
import { HEADER_BYTES, OpCode, OpMsgFlags, OP_MSG_REQUIRED_FLAGS_MASK } from './constants.js';
import { crc32c } from './crc32c.js';
import { setInt32LE, writeHeader, type MessageHeader, type OpMsgRequest } from './message.js';
import { readBsonDocument } from './read_bson.js';
import { WireError, type WireErrorContext } from './wire_error.js';

/** mongod's code for a second kind-0 section. */
const MULTIPLE_BODIES = 40430;
/** mongod's code for a repeated sequence identifier. */
const DUPLICATE_SEQUENCE = 40431;
/** mongod's code for an unknown section kind. */
const UNKNOWN_SECTION_KIND = 40432;
/** mongod's code for a sequence identifier also present in the body. */
const SEQUENCE_CLASHES_WITH_BODY = 40433;
/** mongod's code for a message without a kind-0 section. */
const NO_BODY = 40587;
/** mongod's code for checksumPresent on a message too short to hold one. */
const TOO_SHORT_FOR_CHECKSUM = 51252;
/** ChecksumMismatch in mongo/base/error_codes.yml (connection-fatal category). */
const CHECKSUM_MISMATCH = 288;
/** Most kind-1 sections mongod accepts in one message. */
const MAX_SEQUENCES = 2;

const KNOWN_REQUIRED_FLAGS = OpMsgFlags.checksumPresent | OpMsgFlags.moreToCome;

/** True when `name` (possibly dotted) reaches a value in `body`, or an array along its path. */
function pathPresent(body: Document, name: string): boolean {
  let current: unknown = body;
  for (const part of name.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return false;
    const proto = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== null) return false;
    if (!Object.prototype.hasOwnProperty.call(current, part)) return false;
    current = (current as Document)[part];
    if (Array.isArray(current)) return true;
  }
  return true;
}

function overflow(message: string, context: WireErrorContext): never {
  throw new WireError(ErrorCodes.Overflow, message, false, context);
}

/** Decodes a complete OP_MSG frame whose header was already read. Throws WireError. */
export function decodeOpMsg(frame: Buffer, header: MessageHeader, compressorId: number | null): OpMsgRequest {
  const context: { requestId: number; opCode: number; moreToCome: boolean; compressorId: number | null } = {
    requestId: header.requestId,
    opCode: OpCode.MSG,
    moreToCome: false,
    compressorId,
  };
  const dataSize = frame.length - HEADER_BYTES;
  if (dataSize < 4) {
    overflow(`buffer size too small to read (4) bytes out of buffer[${dataSize}] at offset: 0`, context);
  }
  const flags = frame.readUInt32LE(HEADER_BYTES);
  context.moreToCome = (flags & OpMsgFlags.moreToCome) !== 0;
  if ((flags & ~KNOWN_REQUIRED_FLAGS & OP_MSG_REQUIRED_FLAGS_MASK) !== 0) {
    throw new WireError(
      ErrorCodes.IllegalOpMsgFlag,
      `Message contains illegal flags value: Ob${flags.toString(2).padStart(32, '0')}`,
      true,
      context,
    );
  }
  const checksumPresent = (flags & OpMsgFlags.checksumPresent) !== 0;
  let sectionsEnd = frame.length;
  if (checksumPresent) {
    if (dataSize <= 8) {
      throw new WireError(
        TOO_SHORT_FOR_CHECKSUM,
        'Invalid message size for an OpMsg containing a checksum',
        false,
        context,
      );
    }
    sectionsEnd -= 4;
  }

  let body: Document | null = null;
  const sequences: Array<{ name: string; docs: Document[] }> = [];
  let pos = HEADER_BYTES + 4;
  while (pos < sectionsEnd) {
    const kind = frame[pos]!;
    pos += 1;
    switch (kind) {
      case 0: {
        if (body !== null) throw new WireError(MULTIPLE_BODIES, 'Multiple body sections in message', false, context);
        const read = readBody(frame, pos, sectionsEnd - pos, context);
        body = read.doc;
        pos += read.size;
        break;
      }
      case 1: {
        if (sequences.length >= MAX_SEQUENCES) {
          throw new WireError(
            ErrorCodes.TooManyDocumentSequences,
            'Too many document sequences in OP_MSG',
            true,
            context,
          );
        }
        const left = sectionsEnd - pos;
        if (left < 4) overflow(`buffer size too small to read (4) bytes out of buffer[${left}] at offset: 0`, context);
        const size = frame.readInt32LE(pos);
        pos += 4;
        const payloadBytes = (size - 4) >>> 0;
        if (payloadBytes > left - 4) {
          overflow(`Invalid advance (${payloadBytes}) past end of buffer[${left - 4}] at offset: 0`, context);
        }
        const end = pos + payloadBytes;
        const nameLength = frame.subarray(pos, end).indexOf(0);
        if (nameLength < 0) {
          overflow(`couldn't locate terminal char (\\u0000) in buffer[${payloadBytes}] at offset: 0`, context);
        }
        const nul = pos + nameLength;
        const name = frame.toString('utf8', pos, nul);
        if (sequences.some((s) => s.name === name)) {
          throw new WireError(DUPLICATE_SEQUENCE, `Duplicate document sequence: ${name}`, false, context);
        }
        const docs: Document[] = [];
        sequences.push({ name, docs });
        pos = nul + 1;
        while (pos < end) {
          const read = readBody(frame, pos, end - pos, context);
          docs.push(read.doc);
          pos += read.size;
        }
        break;
      }
      case 2:
        throw new WireError(ErrorCodes.Unauthorized, 'Unsupported Security Token provided', false, context);
      default:
        throw new WireError(UNKNOWN_SECTION_KIND, `Unknown section kind ${kind}`, false, context);
    }
  }
  if (body === null) throw new WireError(NO_BODY, 'OP_MSG messages must have a body', false, context);
  for (const seq of sequences) {
    if (pathPresent(body, seq.name)) {
      throw new WireError(
        SEQUENCE_CLASHES_WITH_BODY,
        `Duplicate field between body and document sequence ${seq.name}`,
        false,
        context,
      );
    }
  }
  if (checksumPresent) {
    const expected = frame.readUInt32LE(frame.length - 4);
    if (crc32c(frame.subarray(0, frame.length - 4)) !== expected) {
      throw new WireError(CHECKSUM_MISMATCH, 'OP_MSG checksum does not match contents', true, context);
    }
  }
  for (const seq of sequences) body[seq.name] = seq.docs;
  return {
    kind: 'msg',
    header,
    flags,
    moreToCome: context.moreToCome,
    exhaustAllowed: (flags & OpMsgFlags.exhaustAllowed) !== 0,
    checksumPresent,
    body,
    compressorId,
    frameBytes: frame.length,
  };
}

function readBody(frame: Buffer, pos: number, limit: number, context: WireErrorContext) {
  try {
    return readBsonDocument(frame, pos, limit);
  } catch (err) {
    if (err instanceof WireError) throw err.withContext(context);
    throw err;
  }
}

/**
 * Encodes an OP_MSG with a single kind-0 section. `body` may be a document, encoded straight into
 * the frame (src/bson/encode.ts: one allocation, no copy), or its already serialised bytes
 * (spliced as is). With `flags & checksumPresent` a CRC-32C is appended.
 */
export function encodeOpMsg(
  body: Document | Uint8Array,
  responseTo: number,
  requestId: number,
  flags = 0,
): Buffer {
  const checksum = (flags & OpMsgFlags.checksumPresent) !== 0;
  let out: Buffer;
  if (body instanceof Uint8Array) {
    out = Buffer.allocUnsafe(HEADER_BYTES + 5 + body.length + (checksum ? 4 : 0));
    out.set(body, HEADER_BYTES + 5);
  } else {
    out = encodeDocument(body, HEADER_BYTES + 5, checksum ? 4 : 0);
  }
  const length = out.length;
  writeHeader(out, length, requestId, responseTo, OpCode.MSG);
  setInt32LE(out, HEADER_BYTES, flags);
  out[HEADER_BYTES + 4] = 0;
  if (checksum) out.writeUInt32LE(crc32c(out.subarray(0, length - 4)), length - 4);
  return out;
}
