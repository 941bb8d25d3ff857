/**
 * The reply mongod sends for a request that failed to decode but can still be answered
 * (`WireError.replyExpected`): an OP_MSG error for OP_MSG, an OP_REPLY command error for
 * OP_QUERY, an OP_REPLY `$err` with QueryFailure for OP_GET_MORE; compressed like the request.
 */
import { makeDouble } from '../bson/library.js';
import { OpCode, ReplyFlags } from './constants.js';
import { compressMessage } from './op_compressed.js';
import { encodeOpMsg } from './op_msg.js';
import { encodeOpReply } from './op_reply.js';
import type { WireError } from './wire_error.js';

/** The encoded error reply for `error` (with requestID `requestId`), or null when mongod sends none. */
export function encodeErrorReply(error: WireError, requestId: number): Buffer | null {
  if (!error.replyExpected || error.requestId === null) return null;
  const responseTo = error.requestId;
  let reply: Buffer;
  switch (error.opCode) {
    case OpCode.MSG:
      reply = encodeOpMsg(
        { ok: makeDouble(0), errmsg: error.message, code: error.code, codeName: error.codeName },
        responseTo,
        requestId,
      );
      break;
    case OpCode.QUERY:
      reply = encodeOpReply(
        [{ ok: makeDouble(0), errmsg: error.message, code: error.code, codeName: error.codeName }],
        responseTo,
        requestId,
      );
      break;
    case OpCode.GET_MORE:
      reply = encodeOpReply(
        [{ $err: error.message, code: error.code, ok: makeDouble(0) }],
        responseTo,
        requestId,
        ReplyFlags.queryFailure,
      );
      break;
    default:
      return null;
  }
  return error.compressorId === null ? reply : compressMessage(reply, error.compressorId);
}
