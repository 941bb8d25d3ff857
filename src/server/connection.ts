/**
 * One client connection: frames bytes into messages, runs them one at a time in arrival order,
 * and writes the replies. A malformed frame closes this connection only.
 */
import type net from 'node:net';
import { makeDouble, type Document } from '../bson/library.js';
import { AuthorizationSession } from '../auth/authorization_session.js';
import { dispatch, type DispatchResult } from '../commands/dispatch.js';
import type { ConnectionState, ServerServices } from './services.js';
import { CLOSE_CONNECTION } from './fail_points.js';
import { CommandError } from '../errors/command_error.js';
import { FrameDecoder } from '../wire/frame_decoder.js';
import { decodeMessage } from '../wire/decode.js';
import { encodeOpMsg } from '../wire/op_msg.js';
import { encodeOpReply } from '../wire/op_reply.js';
import { compressMessage, negotiateCompressors } from '../wire/op_compressed.js';
import { LEGACY_OPCODE_REMOVAL_NOTE, MAX_MESSAGE_BYTES, ReplyFlags, UNSUPPORTED_LEGACY_READ_CODE } from '../wire/constants.js';
import { WireError } from '../wire/wire_error.js';
import { encodeErrorReply } from '../wire/error_reply.js';
import type { OpMsgRequest, OpQueryRequest, Request } from '../wire/message.js';

/** Commands a legacy OP_QUERY may still carry (the handshake). */
const OP_QUERY_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);


/** A client connection. */
export class Connection implements ConnectionState {
  readonly id: number;
  readonly remoteAddress: string;
  readonly localAddress: string;
  clientMetadata: Document | null = null;
  compressors: string[] = [];
  readonly tlsPeerSubject: string | null;
  readonly maxMessageBytes = MAX_MESSAGE_BYTES;
  readonly auth: AuthorizationSession;
  private readonly server: ServerServices;
  private readonly socket: net.Socket;
  private readonly decoder = new FrameDecoder();
  private readonly queue: Buffer[] = [];
  private processing = false;
  private closed = false;
  private nextRequestId = 1;
  private readonly onEnded: () => void;
  private readonly closeListeners = new Set<() => void>();

  /**
   * Takes over `socket` (a `tls.TLSSocket` after a TLS handshake); `tlsPeerSubject` is the
   * subject of its verified client certificate.
   */
  constructor(server: ServerServices, socket: net.Socket, id: number, onClose: () => void, tlsPeerSubject: string | null = null) {
    this.server = server;
    this.socket = socket;
    this.id = id;
    this.onEnded = onClose;
    this.tlsPeerSubject = tlsPeerSubject;
    this.auth = new AuthorizationSession(server.auth);
    this.remoteAddress = `${socket.remoteAddress}:${socket.remotePort}`;
    this.localAddress = `${socket.localAddress}:${socket.localPort}`;
    socket.setNoDelay(true);
    server.logger.info({ connectionId: id, remote: this.remoteAddress }, 'connection accepted');
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => server.logger.debug({ connectionId: id, err: err.message }, 'socket error'));
    socket.on('close', () => {
      this.closed = true;
      this.queue.length = 0;
      for (const listener of [...this.closeListeners]) listener();
      this.closeListeners.clear();
      server.logger.info({ connectionId: id, remote: this.remoteAddress }, 'connection ended');
      this.onEnded();
    });
    // A socket whose first bytes were read to tell TLS from plain was paused there.
    socket.resume();
  }

  /** Calls `listener` once the connection closes; returns the unsubscribe. */
  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** The compressors of `requested` this server supports, in the client's order. */
  negotiateCompressors(requested: readonly string[]): string[] {
    return negotiateCompressors(requested);
  }

  /** Closes the socket at once. */
  destroy(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    let frames: Buffer[];
    try {
      frames = this.decoder.push(chunk);
    } catch (err) {
      this.fail(err);
      return;
    }
    if (frames.length === 0) return;
    for (const f of frames) this.queue.push(f);
    if (!this.processing) this.drain();
  }

  /**
   * Answers queued frames in order. A request answered synchronously (most are) keeps the loop
   * going; one that waits (an async command, a blocking fail point) resumes it when done.
   */
  private drain(): void {
    this.processing = true;
    try {
      while (this.queue.length > 0 && !this.closed) {
        const frame = this.queue.shift()!;
        const pending = this.handleFrame(frame);
        if (pending) {
          void pending.then(() => this.drain(), (err: unknown) => this.fail(err));
          return;
        }
      }
    } catch (err) {
      // Not expected (handleFrame answers every failure); this connection alone is dropped.
      this.fail(err);
    }
    this.processing = false;
  }

  private handleFrame(frame: Buffer): Promise<void> | undefined {
    this.server.counters.requests++;
    let request: Request;
    try {
      request = decodeMessage(frame);
    } catch (err) {
      if (err instanceof WireError && !err.closeConnection) {
        // The request could be read far enough to answer it with an error, as mongod does.
        this.server.logger.debug({ connectionId: this.id, code: err.code, err: err.message }, 'malformed request answered with an error');
        const reply = encodeErrorReply(err, this.nextRequestId++);
        if (reply) this.write(reply);
        return undefined;
      }
      this.fail(err);
      return undefined;
    }
    try {
      const pending = request.kind === 'query' ? this.handleQuery(request) : this.handleMsg(request);
      return pending?.catch((err: unknown) => this.replyFailed(request, err));
    } catch (err) {
      this.replyFailed(request, err);
      return undefined;
    }
  }

  /** dispatch never throws: this is an encoding failure (e.g. a reply over the size limit). */
  private replyFailed(request: Request, err: unknown): void {
    this.server.logger.error({ connectionId: this.id, err }, 'failed to answer a request');
    if (request.kind === 'msg' && !request.moreToCome) {
      const reply = new CommandError('InternalError', err instanceof Error ? err.message : String(err)).toReply();
      this.write(encodeOpMsg(reply, request.header.requestId, this.nextRequestId++));
    }
  }

  private handleMsg(request: OpMsgRequest): Promise<void> | undefined {
    const reply = dispatch(this.server, this, request.body, request.frameBytes);
    if (reply instanceof Promise) return reply.then((r) => this.sendMsgReply(request, r));
    this.sendMsgReply(request, reply);
    return undefined;
  }

  private sendMsgReply(request: OpMsgRequest, reply: DispatchResult): void {
    if (reply === CLOSE_CONNECTION) return this.closeUnanswered();
    if (request.moreToCome || this.closed) return;
    let message = encodeOpMsg(reply, request.header.requestId, this.nextRequestId++);
    if (request.compressorId !== null) message = compressMessage(message, request.compressorId);
    this.write(message);
  }

  private handleQuery(request: OpQueryRequest): Promise<void> | undefined {
    const dot = request.fullCollectionName.indexOf('.');
    const db = dot < 0 ? request.fullCollectionName : request.fullCollectionName.slice(0, dot);
    const coll = dot < 0 ? '' : request.fullCollectionName.slice(dot + 1);
    if (coll === '$cmd') {
      // Drivers may wrap the command as { $query: {...}, $readPreference: ... }.
      const query = (request.query.$query as Document | undefined) ?? request.query;
      const name = Object.keys(query)[0] ?? '';
      if (OP_QUERY_COMMANDS.has(name)) {
        const answer = dispatch(this.server, this, { ...query, $db: db });
        if (answer instanceof Promise) return answer.then((r) => this.sendQueryReply(request, r, ReplyFlags.awaitCapable));
        this.sendQueryReply(request, answer, ReplyFlags.awaitCapable);
        return undefined;
      }
      const refused = new CommandError('UnsupportedOpQueryCommand', `Unsupported OP_QUERY command: ${name}. ${LEGACY_OPCODE_REMOVAL_NOTE}`).toReply();
      this.sendQueryReply(request, refused, ReplyFlags.awaitCapable);
      return undefined;
    }
    const legacy = { $err: `OP_QUERY is no longer supported. ${LEGACY_OPCODE_REMOVAL_NOTE}`, code: UNSUPPORTED_LEGACY_READ_CODE, ok: makeDouble(0) };
    this.sendQueryReply(request, legacy, ReplyFlags.awaitCapable | ReplyFlags.queryFailure);
    return undefined;
  }

  private sendQueryReply(request: OpQueryRequest, reply: DispatchResult, flags: number): void {
    if (reply === CLOSE_CONNECTION) return this.closeUnanswered();
    let message = encodeOpReply([reply], request.header.requestId, this.nextRequestId++, flags);
    if (request.compressorId !== null) message = compressMessage(message, request.compressorId);
    this.write(message);
  }

  /** The failCommand fail point's `closeConnection`: the request gets no reply. */
  private closeUnanswered(): void {
    this.server.logger.info({ connectionId: this.id, remote: this.remoteAddress }, "closing connection via 'failCommand' failpoint");
    this.destroy();
  }

  private write(message: Buffer): void {
    if (!this.closed) this.socket.write(message);
  }

  private fail(err: unknown): void {
    this.server.logger.warn(
      { connectionId: this.id, remote: this.remoteAddress, err: err instanceof Error ? err.message : String(err) },
      'closing connection after a malformed message',
    );
    this.destroy();
  }
}
