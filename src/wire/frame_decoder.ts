/**
 * Splits a TCP byte stream into whole messages. Each message starts with its own int32 length
 * (header included), so the decoder only needs that prefix to know where the message ends.
 *
 * Cost: bytes are never copied while a message is incomplete; the pieces of a message are kept
 * as views of the chunks that carried them and joined once (one copy) when the last piece
 * arrives. A message wholly inside one chunk is returned as a view of that chunk (no copy).
 * Returned frames may therefore share memory with the pushed chunks: callers must not reuse a
 * chunk's memory after pushing it (Node's socket chunks are never reused).
 */
import { HEADER_BYTES, MAX_MESSAGE_BYTES } from './constants.js';
import { WireError } from './wire_error.js';
import { ErrorCodes } from '../errors/codes.js';

/** The text mongod logs and closes with for a bad length prefix (`size_t` rendering). */
function invalidLengthMessage(length: number): string {
  const shown = length < 0 ? BigInt.asUintN(64, BigInt(length)).toString() : String(length);
  return `recv(): message msgLen ${shown} is invalid. Min ${HEADER_BYTES} Max: ${MAX_MESSAGE_BYTES}`;
}

/** Validates a length prefix, throwing mongod's fatal ProtocolError when it is out of range. */
export function checkMessageLength(length: number): void {
  if (length < HEADER_BYTES || length > MAX_MESSAGE_BYTES) {
    throw new WireError(ErrorCodes.ProtocolError, invalidLengthMessage(length), true);
  }
}

/** Accumulates TCP chunks; returns every complete message (header included) they finish. Handles partial and coalesced reads. */
export class FrameDecoder {
  /** Pieces of the message being assembled, in order. */
  private pieces: Buffer[] = [];
  /** Total bytes in `pieces`. */
  private pieceBytes = 0;
  /** Length of the message being assembled, or -1 while its 4-byte prefix is incomplete. */
  private expected = -1;
  /** Set once a bad length was seen: the stream cannot be resynchronised. */
  private failure: WireError | null = null;

  /** Bytes received that do not yet form a complete message. */
  get bufferedBytes(): number {
    return this.pieceBytes;
  }

  /**
   * Feeds one chunk; returns the messages it completes, in order. Throws a WireError
   * (closeConnection: true) when a length prefix is < 16, negative or > MAX_MESSAGE_BYTES;
   * every later call throws it again.
   */
  push(chunk: Buffer): Buffer[] {
    if (this.failure) throw this.failure;
    const out: Buffer[] = [];
    const n = chunk.length;
    let off = 0;
    try {
      while (off < n) {
        if (this.expected < 0) {
          if (this.pieceBytes === 0 && n - off >= 4) {
            // Fast path: the prefix is whole in this chunk.
            const length = chunk.readInt32LE(off);
            checkMessageLength(length);
            if (n - off >= length) {
              out.push(chunk.subarray(off, off + length));
              off += length;
              continue;
            }
            this.expected = length;
          } else {
            // The prefix itself is split: gather up to 4 bytes of it.
            const take = Math.min(4 - this.pieceBytes, n - off);
            this.pieces.push(chunk.subarray(off, off + take));
            this.pieceBytes += take;
            off += take;
            if (this.pieceBytes < 4) continue;
            const length = this.readSplitPrefix();
            checkMessageLength(length);
            this.expected = length;
            continue;
          }
        }
        const take = Math.min(this.expected - this.pieceBytes, n - off);
        this.pieces.push(chunk.subarray(off, off + take));
        this.pieceBytes += take;
        off += take;
        if (this.pieceBytes === this.expected) {
          const frame =
            this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.pieceBytes);
          out.push(frame);
          this.pieces = [];
          this.pieceBytes = 0;
          this.expected = -1;
        }
      }
    } catch (err) {
      if (err instanceof WireError) this.failure = err;
      throw err;
    }
    return out;
  }

  /** The int32 prefix spread over the first pieces (exactly 4 bytes are buffered). */
  private readSplitPrefix(): number {
    const bytes = Buffer.allocUnsafe(4);
    let at = 0;
    for (const piece of this.pieces) {
      piece.copy(bytes, at);
      at += piece.length;
    }
    return bytes.readInt32LE(0);
  }
}
