/**
 * OP_QUERY (opcode 2004), decoded fully. Since MongoDB 6.0 only commands on `<db>.$cmd`
 * (the legacy handshake) are served; the server decides what to do with other namespaces.
 *
 *   header(16) | flags int32 | cstring fullCollectionName | numberToSkip int32 |
 *   numberToReturn int32 | query BSON | [returnFieldsSelector BSON]
 *
 * Checks, codes and texts follow mongod's `DbMessage` (mongo/db/dbmessage.cpp): a message too
 * short for its flags or namespace fails while mongod sets up the request and closes the
 * connection; the rest fail while the command is parsed and are answered.
 */
import type { Document } from '../bson/library.js';
import { HEADER_BYTES, OpCode } from './constants.js';
import type { MessageHeader, OpQueryRequest } from './message.js';
import { readBsonDocument } from './read_bson.js';
import { WireError, type WireErrorContext } from './wire_error.js';
import { ErrorCodes } from '../errors/codes.js';

/** mongod's code when the namespace has no terminating NUL. */
const BAD_NAMESPACE = 18633;
/** mongod's code when an int32 field is cut off. */
const NOT_ENOUGH_DATA = 18634;

function readObject(frame: Buffer, pos: number, context: WireErrorContext): { doc: Document; size: number } {
  const left = frame.length - pos;
  if (left < 5) {
    throw new WireError(ErrorCodes.InvalidBSON, 'Client Error: Remaining data too small for BSON object', false, context);
  }
  try {
    return readBsonDocument(frame, pos, left, 'Client Error: bad object in message: ');
  } catch (err) {
    if (err instanceof WireError) throw err.withContext(context);
    throw err;
  }
}

/** Decodes a complete OP_QUERY frame whose header was already read. Throws WireError. */
export function decodeOpQuery(frame: Buffer, header: MessageHeader, compressorId: number | null): OpQueryRequest {
  const context: WireErrorContext = { requestId: header.requestId, opCode: OpCode.QUERY, compressorId };
  const end = frame.length;
  let pos = HEADER_BYTES;
  if (end - pos < 4) throw new WireError(NOT_ENOUGH_DATA, 'Not enough data to read', true, context);
  const flags = frame.readInt32LE(pos);
  pos += 4;
  const nameLength = frame.subarray(pos, end).indexOf(0);
  if (nameLength < 0) throw new WireError(BAD_NAMESPACE, 'Failed to parse ns string', true, context);
  const fullCollectionName = frame.toString('utf8', pos, pos + nameLength);
  pos += nameLength + 1;
  if (end - pos < 4) throw new WireError(NOT_ENOUGH_DATA, 'Not enough data to read', false, context);
  const numberToSkip = frame.readInt32LE(pos);
  pos += 4;
  if (end - pos < 4) throw new WireError(NOT_ENOUGH_DATA, 'Not enough data to read', false, context);
  const numberToReturn = frame.readInt32LE(pos);
  pos += 4;
  const query = readObject(frame, pos, context);
  pos += query.size;
  // Bytes after the selector are ignored, as mongod does.
  const returnFieldsSelector = pos < end ? readObject(frame, pos, context).doc : null;
  return {
    kind: 'query',
    header,
    flags,
    fullCollectionName,
    numberToSkip,
    numberToReturn,
    query: query.doc,
    returnFieldsSelector,
    compressorId,
  };
}
