/**
 * Turns one complete frame into a request: OP_MSG and OP_QUERY are decoded, OP_COMPRESSED is
 * unwrapped first, everything else is refused the way mongod 8 refuses it.
 */
import { ErrorCodes } from '../errors/codes.js';
import {
  HEADER_BYTES,
  LEGACY_OPCODE_REMOVAL_NOTE,
  MAX_MESSAGE_BYTES,
  OpCode,
  UNSUPPORTED_LEGACY_READ_CODE,
} from './constants.js';
import { checkMessageLength } from './frame_decoder.js';
import { readHeader, type MessageHeader, type Request } from './message.js';
import { decompressMessage } from './op_compressed.js';
import { decodeOpMsg } from './op_msg.js';
import { decodeOpQuery } from './op_query.js';
import { WireError } from './wire_error.js';

/** Legacy write/cursor opcodes removed in 6.0: mongod fails them and drops the connection. */
const REMOVED_FIRE_AND_FORGET: ReadonlyMap<number, [number, string]> = new Map([
  [OpCode.INSERT, [5745702, 'OP_INSERT is no longer supported']],
  [OpCode.UPDATE, [5745701, 'OP_UPDATE is no longer supported']],
  [OpCode.DELETE, [5745700, 'OP_DELETE is no longer supported']],
  [OpCode.KILL_CURSORS, [5745703, 'OP_KILL_CURSORS is no longer supported']],
]);

function decodeFrame(frame: Buffer, header: MessageHeader, compressorId: number | null): Request {
  const context = { requestId: header.requestId, opCode: header.opCode, compressorId };
  switch (header.opCode) {
    case OpCode.MSG:
      return decodeOpMsg(frame, header, compressorId);
    case OpCode.QUERY:
      return decodeOpQuery(frame, header, compressorId);
    case OpCode.COMPRESSED: {
      if (compressorId !== null) break; // compressed twice: not a request opcode
      const inner = decompressMessage(frame, header);
      return decodeFrame(inner.frame, readHeader(inner.frame), inner.compressorId);
    }
    case OpCode.GET_MORE:
      // mongod answers OP_GET_MORE with an OP_REPLY `$err` and keeps the connection.
      throw new WireError(
        UNSUPPORTED_LEGACY_READ_CODE,
        `OP_GET_MORE is no longer supported. ${LEGACY_OPCODE_REMOVAL_NOTE}`,
        false,
        context,
      );
    default: {
      const removed = REMOVED_FIRE_AND_FORGET.get(header.opCode);
      if (removed) throw new WireError(removed[0], removed[1], true, context);
    }
  }
  throw new WireError(ErrorCodes.IllegalOperation, `Message type ${header.opCode} is not supported.`, true, context);
}

/** Decodes one complete frame (as returned by FrameDecoder) into a request; unwraps OP_COMPRESSED. */
export function decodeMessage(frame: Buffer): Request {
  if (frame.length < HEADER_BYTES) {
    throw new WireError(
      ErrorCodes.ProtocolError,
      `recv(): message msgLen ${frame.length} is invalid. Min ${HEADER_BYTES} Max: ${MAX_MESSAGE_BYTES}`,
      true,
    );
  }
  const header = readHeader(frame);
  checkMessageLength(header.messageLength);
  if (header.messageLength !== frame.length) {
    throw new WireError(
      ErrorCodes.ProtocolError,
      `message length ${header.messageLength} does not match the ${frame.length} bytes received`,
      true,
      { requestId: header.requestId, opCode: header.opCode },
    );
  }
  return decodeFrame(frame, header, null);
}
