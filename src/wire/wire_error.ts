/**
 * The one error type of the wire layer. It carries mongod's code and message, whether mongod
 * would drop the connection, and (when the request header was readable) what the connection
 * needs to answer it: the request id, the opcode, moreToCome and the compressor used.
 */
import { codeNameOf } from '../errors/codes.js';

/** What a decoder knew about the request when it failed. */
export interface WireErrorContext {
  /** `requestID` of the failing request: the reply's `responseTo`. */
  readonly requestId: number;
  /** The request's opcode (the inner one when it arrived inside OP_COMPRESSED). */
  readonly opCode: number;
  /** True when the request was an OP_MSG with moreToCome: mongod sends no reply then. */
  readonly moreToCome?: boolean;
  /** The compressor the request arrived with, or null: mongod compresses its reply alike. */
  readonly compressorId?: number | null;
}

/** A protocol error: a malformed frame or message, answered or fatal as mongod does. */
export class WireError extends Error {
  readonly code: number;
  readonly codeName: string;
  /** True when mongod closes the connection instead of replying. */
  readonly closeConnection: boolean;
  /** `requestID` of the failing request, or null when the header itself was unusable. */
  readonly requestId: number | null;
  /** Opcode of the failing request, or null when unknown. */
  readonly opCode: number | null;
  /** The request asked for no reply (OP_MSG moreToCome). */
  readonly moreToCome: boolean;
  /** The compressor of the request (null when it was not compressed or is unknown). */
  readonly compressorId: number | null;

  constructor(code: number, message: string, closeConnection: boolean, context?: WireErrorContext) {
    super(message);
    this.name = 'WireError';
    this.code = code;
    this.codeName = codeNameOf(code);
    this.closeConnection = closeConnection;
    this.requestId = context?.requestId ?? null;
    this.opCode = context?.opCode ?? null;
    this.moreToCome = context?.moreToCome ?? false;
    this.compressorId = context?.compressorId ?? null;
  }

  /** True when the connection should send an error reply (see `encodeErrorReply`). */
  get replyExpected(): boolean {
    return !this.closeConnection && !this.moreToCome && this.requestId !== null;
  }

  /** This error with the request's context attached (keeps code, message and fatality). */
  withContext(context: WireErrorContext): WireError {
    return new WireError(this.code, this.message, this.closeConnection, context);
  }
}
