/**
 * Reads one BSON document out of a message with mongod's bounds checks and texts
 * (`validateBSON` in mongo/bson/bson_validate.cpp): the declared length must be at least 5,
 * must fit in the bytes left, and the last byte it covers must be the EOO terminator.
 * Anything deeper is left to `deserialize` (its own message, same code: InvalidBSON 22, or
 * Overflow 15 for nesting past mongod's depth limit).
 */
import { deserialize, BSONDecodeError } from '../bson/decode.js';
import type { Document } from '../bson/library.js';
import { ErrorCodes } from '../errors/codes.js';
import { getInt32LE } from './message.js';
import { WireError } from './wire_error.js';

/** The context mongod's precise validator appends when no element was read yet. */
const NO_ELEMENT_CONTEXT = "in element with field name '?' in object with unknown _id";

/** A document read from a buffer and the bytes it occupied. */
export interface ReadDocument {
  doc: Document;
  size: number;
}

/**
 * Parses the document at `offset`, which may use at most `limit` bytes. Throws the reason as a
 * WireError(InvalidBSON, prefix + reason, false).
 */
export function readBsonDocument(buf: Uint8Array, offset: number, limit: number, prefix = ''): ReadDocument {
  const fail = (reason: string, code: number = ErrorCodes.InvalidBSON): never => {
    throw new WireError(code, prefix + reason, false);
  };
  if (limit < 5) fail(`BSON data has to be at least 5 bytes ${NO_ELEMENT_CONTEXT}`);
  const size = getInt32LE(buf, offset);
  if (size < 5) fail(`BSON data has to be at least 5 bytes ${NO_ELEMENT_CONTEXT}`);
  if (size > limit) fail(`Incorrect BSON length ${NO_ELEMENT_CONTEXT}`);
  if (buf[offset + size - 1] !== 0) fail(`BSON object not terminated with EOO ${NO_ELEMENT_CONTEXT}`);
  let doc: Document;
  try {
    doc = deserialize(buf.subarray(offset, offset + size));
  } catch (err) {
    if (err instanceof BSONDecodeError) return fail(err.message, err.code);
    return fail(err instanceof Error ? err.message : String(err));
  }
  return { doc, size };
}
