/**
 * The decoded request shapes the wire layer hands to the server, and the standard header.
 * Layout of every message (little-endian int32s):
 *   messageLength | requestID | responseTo | opCode | body...
 */
import type { Document } from '../bson/library.js';

/** The 16-byte standard header. */
export interface MessageHeader {
  messageLength: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

/** A decoded OP_MSG. */
export interface OpMsgRequest {
  kind: 'msg';
  header: MessageHeader;
  flags: number;
  moreToCome: boolean;
  exhaustAllowed: boolean;
  checksumPresent: boolean;
  /** The kind-0 body with each kind-1 sequence merged in as an array field named by its identifier. */
  body: Document;
  /** The compressor id when it arrived inside OP_COMPRESSED, else null. */
  compressorId: number | null;
  /** The size of the (decompressed) message: no document in it can be larger. */
  frameBytes: number;
}

/** A decoded OP_QUERY (only the handshake and `$cmd` commands use it since MongoDB 6.0). */
export interface OpQueryRequest {
  kind: 'query';
  header: MessageHeader;
  flags: number;
  fullCollectionName: string;
  numberToSkip: number;
  numberToReturn: number;
  query: Document;
  returnFieldsSelector: Document | null;
  /** The compressor id when it arrived inside OP_COMPRESSED, else null. */
  compressorId: number | null;
}

/** Any request the server can act on. */
export type Request = OpMsgRequest | OpQueryRequest;

/**
 * Reads the standard header at the start of `frame` (which must hold at least 16 bytes), with
 * plain byte loads rather than a `DataView` built for every request.
 */
export function readHeader(frame: Uint8Array): MessageHeader {
  return {
    messageLength: getInt32LE(frame, 0),
    requestId: getInt32LE(frame, 4),
    responseTo: getInt32LE(frame, 8),
    opCode: getInt32LE(frame, 12),
  };
}

/** The little-endian signed 32-bit integer at `offset` (four bytes there are required). */
export function getInt32LE(source: Uint8Array, offset: number): number {
  return source[offset]! | (source[offset + 1]! << 8) | (source[offset + 2]! << 16) | (source[offset + 3]! << 24);
}

/** Writes a standard header into the first 16 bytes of `target`. */
export function writeHeader(
  target: Uint8Array,
  messageLength: number,
  requestId: number,
  responseTo: number,
  opCode: number,
): void {
  setInt32LE(target, 0, messageLength);
  setInt32LE(target, 4, requestId);
  setInt32LE(target, 8, responseTo);
  setInt32LE(target, 12, opCode);
}

/**
 * Writes `n` as a little-endian 32-bit integer at `offset` (modulo 2^32, so an int32 or a uint32),
 * with plain byte stores: cheaper than `Buffer#writeInt32LE`'s checks on a reply's path.
 */
export function setInt32LE(target: Uint8Array, offset: number, n: number): void {
  target[offset] = n;
  target[offset + 1] = n >>> 8;
  target[offset + 2] = n >>> 16;
  target[offset + 3] = n >>> 24;
}
