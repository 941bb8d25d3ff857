/**
 * OP_REPLY (opcode 1): the reply to an OP_QUERY (the legacy handshake).
 *
 *   header(16) | responseFlags int32 | cursorID int64 | startingFrom int32 |
 *   numberReturned int32 | documents...
 */
import { serialize, encodeDocument } from '../bson/encode.js';
import type { Document } from '../bson/library.js';
import { HEADER_BYTES, OpCode, ReplyFlags } from './constants.js';
import { writeHeader } from './message.js';

/** Bytes of the OP_REPLY fields between the header and the documents. */
export const OP_REPLY_PREFIX_BYTES = 20;

/**
 * Encodes an OP_REPLY. Documents may be given already serialised (spliced as is); a single
 * document (every reply Mayfly sends) is encoded straight into the message.
 * `responseFlags` defaults to AwaitCapable (8), what mongod sets on every successful reply.
 */
export function encodeOpReply(
  documents: Array<Document | Uint8Array>,
  responseTo: number,
  requestId: number,
  responseFlags: number = ReplyFlags.awaitCapable,
  cursorId = 0n,
  startingFrom = 0,
): Buffer {
  const prefix = HEADER_BYTES + OP_REPLY_PREFIX_BYTES;
  const only = documents.length === 1 ? documents[0]! : null;
  let out: Buffer;
  if (only !== null && !(only instanceof Uint8Array)) {
    out = encodeDocument(only, prefix);
  } else {
    const parts = documents.map((d) => (d instanceof Uint8Array ? d : serialize(d)));
    let length = prefix;
    for (const p of parts) length += p.length;
    out = Buffer.allocUnsafe(length);
    let at = prefix;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
  }
  const length = out.length;
  writeHeader(out, length, requestId, responseTo, OpCode.REPLY);
  out.writeInt32LE(responseFlags | 0, 16);
  out.writeBigInt64LE(BigInt.asIntN(64, cursorId), 20);
  out.writeInt32LE(startingFrom | 0, 28);
  out.writeInt32LE(documents.length, 32);
  return out;
}
