/**
 * OP_COMPRESSED (opcode 2012): wrapping and unwrapping another message.
 * Spec: https://github.com/mongodb/specifications/blob/master/source/compression/OP_COMPRESSED.md
 *
 *   header(16, opCode 2012) | originalOpcode int32 | uncompressedSize int32 (original message
 *   minus its header) | compressorId uint8 | compressed bytes of the original body
 *
 * Supported: noop (0) and zlib (2, deflate stream as zlib's `compress`). snappy (1) and zstd (3)
 * are refused like an unknown id. Errors and texts follow mongod's
 * `MessageCompressorManager::decompressMessage` (mongo/transport/message_compressor_manager.cpp);
 * mongod ends the session on any of them.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import { ErrorCodes } from '../errors/codes.js';
import { Compressor, HEADER_BYTES, MAX_MESSAGE_BYTES, OpCode, SUPPORTED_COMPRESSORS } from './constants.js';
import { writeHeader, type MessageHeader } from './message.js';
import { WireError } from './wire_error.js';

/** Bytes of the OP_COMPRESSED fields between the header and the compressed bytes. */
export const COMPRESSION_HEADER_BYTES = 9;

const NOT_AVAILABLE = 'Compression algorithm specified in message is not available';
const CORRUPTED = 'Compressed message was invalid or corrupted';

/** True for the compressor ids this server implements. */
export function isSupportedCompressorId(id: number): boolean {
  return id === Compressor.noop || id === Compressor.zlib;
}

/** The compressor id for a handshake name (`'zlib'`, `'noop'`, ...), or null if unknown. */
export function compressorIdOf(name: string): number | null {
  return Object.prototype.hasOwnProperty.call(Compressor, name) ? Compressor[name as keyof typeof Compressor] : null;
}

/**
 * The handshake's answer to a client's `compression` list: the names this server supports, in
 * the client's order (the first is what replies use), as mongod's `serverNegotiate` does.
 */
export function negotiateCompressors(requested: readonly string[]): string[] {
  const supported: readonly string[] = SUPPORTED_COMPRESSORS;
  return requested.filter((name) => supported.includes(name));
}

/**
 * Wraps an encoded message in OP_COMPRESSED (noop or zlib), keeping its requestID and
 * responseTo. Like mongod, returns the message unchanged when the result would exceed
 * MAX_MESSAGE_BYTES.
 */
export function compressMessage(message: Buffer, compressorId: number): Buffer {
  const body = message.subarray(HEADER_BYTES);
  let compressed: Uint8Array;
  if (compressorId === Compressor.noop) compressed = body;
  else if (compressorId === Compressor.zlib) compressed = deflateSync(body);
  else throw new WireError(ErrorCodes.InternalError, NOT_AVAILABLE, true);
  const length = HEADER_BYTES + COMPRESSION_HEADER_BYTES + compressed.length;
  if (length > MAX_MESSAGE_BYTES) return message;
  const out = Buffer.allocUnsafe(length);
  writeHeader(out, length, message.readInt32LE(4), message.readInt32LE(8), OpCode.COMPRESSED);
  out.writeInt32LE(message.readInt32LE(12), 16);
  out.writeInt32LE(body.length, 20);
  out[24] = compressorId;
  out.set(compressed, HEADER_BYTES + COMPRESSION_HEADER_BYTES);
  return out;
}

/** An unwrapped OP_COMPRESSED: the original message (with a rebuilt header) and the compressor. */
export interface DecompressedMessage {
  frame: Buffer;
  compressorId: number;
}

/** Unwraps a complete OP_COMPRESSED frame. Throws WireError (always closeConnection: true). */
export function decompressMessage(frame: Buffer, header: MessageHeader): DecompressedMessage {
  const fail = (code: number, message: string): never => {
    throw new WireError(code, message, true, { requestId: header.requestId, opCode: OpCode.COMPRESSED });
  };
  if (frame.length - HEADER_BYTES < COMPRESSION_HEADER_BYTES) fail(ErrorCodes.BadValue, 'Invalid compressed message header');
  const originalOpCode = frame.readInt32LE(16);
  const uncompressedSize = frame.readInt32LE(20);
  const compressorId = frame[24]!;
  if (!isSupportedCompressorId(compressorId)) fail(ErrorCodes.InternalError, NOT_AVAILABLE);
  if (uncompressedSize < 0) fail(ErrorCodes.BadValue, 'Decompressed message would be negative in size');
  if (uncompressedSize + HEADER_BYTES > MAX_MESSAGE_BYTES) {
    fail(ErrorCodes.BadValue, 'Decompressed message would be larger than maximum message size');
  }
  const input = frame.subarray(HEADER_BYTES + COMPRESSION_HEADER_BYTES);
  let body: Uint8Array;
  if (compressorId === Compressor.noop) {
    body = input;
  } else {
    try {
      body = inflateSync(input, { maxOutputLength: Math.max(1, uncompressedSize) });
    } catch {
      return fail(ErrorCodes.BadValue, CORRUPTED);
    }
    if (body.length > uncompressedSize) fail(ErrorCodes.BadValue, CORRUPTED);
  }
  if (body.length !== uncompressedSize) {
    fail(ErrorCodes.BadValue, 'Decompressing message returned less data than expected');
  }
  const out = Buffer.allocUnsafe(HEADER_BYTES + uncompressedSize);
  writeHeader(out, out.length, header.requestId, header.responseTo, originalOpCode);
  out.set(body, HEADER_BYTES);
  return { frame: out, compressorId };
}
