/**
 * Wire-protocol constants: opcodes, size limits, OP_MSG flag bits and compressor ids.
 * Spec: https://github.com/mongodb/specifications/blob/master/source/message/OP_MSG.md and
 * https://github.com/mongodb/specifications/blob/master/source/compression/OP_COMPRESSED.md
 */

/** Message opcodes (the `opCode` field of the standard header). */
export const OpCode = {
  REPLY: 1,
  UPDATE: 2001,
  INSERT: 2002,
  QUERY: 2004,
  GET_MORE: 2005,
  DELETE: 2006,
  KILL_CURSORS: 2007,
  COMPRESSED: 2012,
  MSG: 2013,
} as const;

/** Size of the standard message header (messageLength, requestID, responseTo, opCode). */
export const HEADER_BYTES = 16;

/** Largest message mongod accepts or sends (`maxMessageSizeBytes` in hello). */
export const MAX_MESSAGE_BYTES = 48_000_000;

/** OP_MSG `flagBits`. Bits 0-15 are required (unknown ones are an error), 16-31 optional. */
export const OpMsgFlags = { checksumPresent: 1, moreToCome: 2, exhaustAllowed: 1 << 16 } as const;

/** The OP_MSG flag bits a peer must understand: the low 16 bits. */
export const OP_MSG_REQUIRED_FLAGS_MASK = 0xffff;

/** OP_REPLY `responseFlags` bits. */
export const ReplyFlags = { cursorNotFound: 1, queryFailure: 2, shardConfigStale: 4, awaitCapable: 8 } as const;

/** OP_COMPRESSED compressor ids. */
export const Compressor = { noop: 0, snappy: 1, zlib: 2, zstd: 3 } as const;

/** Compressor names this server agrees to in the handshake (noop needs no negotiation). */
export const SUPPORTED_COMPRESSORS = ['zlib'] as const;

/** A name in `SUPPORTED_COMPRESSORS`. */
export type SupportedCompressorName = (typeof SUPPORTED_COMPRESSORS)[number];

/** The dochub link mongod appends to its errors about removed legacy opcodes. */
export const LEGACY_OPCODE_REMOVAL_NOTE =
  'The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal';

/** The `code` mongod puts in `$err` replies to removed legacy read opcodes. */
export const UNSUPPORTED_LEGACY_READ_CODE = 5739101;
