/**
 * The reply shared by `hello` and `isMaster`: a standalone mongod 8.0's (or a one-node set's
 * primary), with `topologyVersion`, the limits, `connectionId`, and the compressors agreed with
 * this client.
 */
import { type Document, MAX_BSON_OBJECT_BYTES } from '../../bson/library.js';
import { MAX_WRITE_BATCH_SIZE } from '../crud/write_batch.js';
import { CommandError } from '../../errors/command_error.js';
import { isDocument } from '../../storage/values/paths.js';
import { typeMismatch } from '../args.js';
import { mechanismsOf } from '../../auth/credentials.js';
import { saslMechanismsFor, speculativeSaslStart } from '../../auth/mechanisms.js';
import type { CommandContext } from '../types.js';
import { speculativeAuthenticate } from '../auth/authenticate.js';
import { election, lastWrite, memberHost, opTime, CONFIG_VERSION } from '../replication/repl_set.js';
import { LOGICAL_SESSION_TIMEOUT_MINUTES } from '../../sessions/session_catalog.js';
import { answerWhenChanged } from './awaitable_hello.js';

/** Wire version of MongoDB 8.0. */
export const MAX_WIRE_VERSION = 25;
/** Oldest wire version accepted, as mongod reports (pymongo 3.11 needs 0). */
export const MIN_WIRE_VERSION = 0;
/** Session timeout advertised to drivers (the session catalog's). */
export { LOGICAL_SESSION_TIMEOUT_MINUTES };

/**
 * The handshake reply; `primaryField` is `isWritablePrimary` (hello) or `ismaster` (isMaster).
 * An awaitable hello (`topologyVersion` + `maxAwaitTimeMS`) is answered when the topology changes
 * or the time is up.
 */
export function helloReply(ctx: CommandContext, cmd: Document, primaryField: 'isWritablePrimary' | 'ismaster'): Document | Promise<Document> {
  return answerWhenChanged(ctx, cmd, () => handshakeReply(ctx, cmd, primaryField));
}

function handshakeReply(ctx: CommandContext, cmd: Document, primaryField: 'isWritablePrimary' | 'ismaster'): Document {
  const conn = ctx.connection;
  if (cmd.client !== undefined && cmd.client !== null) {
    if (conn.clientMetadata !== null) {
      throw new CommandError('ClientMetadataCannotBeMutated', 'The client metadata document may only be sent in the first hello');
    }
    conn.clientMetadata = cmd.client as Document;
  }
  const setName = ctx.server.settings.replSetName;
  const reply: Document = setName === null ? { [primaryField]: true, topologyVersion: ctx.server.topology.toDocument() } : replSetFields(ctx, setName, primaryField);
  if (cmd.helloOk === true) reply.helloOk = true;
  reply.maxBsonObjectSize = MAX_BSON_OBJECT_BYTES;
  reply.maxMessageSizeBytes = conn.maxMessageBytes;
  reply.maxWriteBatchSize = MAX_WRITE_BATCH_SIZE;
  reply.localTime = new Date(ctx.now());
  reply.logicalSessionTimeoutMinutes = LOGICAL_SESSION_TIMEOUT_MINUTES;
  reply.connectionId = conn.id;
  reply.minWireVersion = MIN_WIRE_VERSION;
  // In cosmos mode, the wire version of the chosen Cosmos DB server version (src/cosmos/versions.ts).
  reply.maxWireVersion = ctx.server.settings.cosmos?.version.maxWireVersion ?? MAX_WIRE_VERSION;
  reply.readOnly = false;
  if (Array.isArray(cmd.compression)) {
    const agreed = conn.negotiateCompressors((cmd.compression as unknown[]).filter((c): c is string => typeof c === 'string'));
    conn.compressors = agreed;
    if (agreed.length > 0) reply.compression = agreed;
  }
  addAuthenticationFields(ctx, cmd, reply);
  return reply;
}

/**
 * The handshake's part in authentication: `saslSupportedMechs` ("<db>.<user>": the mechanisms
 * that user has credentials for; absent for an unknown user, as mongod) and
 * `speculativeAuthenticate` (a saslStart or authenticate run inside hello; absent when it failed).
 */
function addAuthenticationFields(ctx: CommandContext, cmd: Document, reply: Document): void {
  const session = ctx.connection.auth;
  if (cmd.saslSupportedMechs !== undefined) {
    const name = saslUserName(cmd.saslSupportedMechs);
    const doc = session.manager.findUser(name);
    if (doc) reply.saslSupportedMechs = saslMechanismsFor(name.db, mechanismsOf(doc));
  }
  const speculative = cmd.speculativeAuthenticate;
  if (isDocument(speculative)) {
    const answer = speculativeSaslStart(session, speculative) ?? speculativeAuthenticate(ctx, speculative);
    if (answer !== undefined) reply.speculativeAuthenticate = answer;
  }
}

/** hello's `saslSupportedMechs`: "<db>.<user>" or `{ user, db }`, checked as mongod's IDL does. */
function saslUserName(value: unknown): { user: string; db: string } {
  if (typeof value === 'string') {
    const dot = value.indexOf('.');
    if (dot < 0) throw new CommandError('BadValue', "UserName must contain a '.' separated database.user pair");
    return { db: value.slice(0, dot), user: value.slice(dot + 1) };
  }
  if (isDocument(value)) {
    if (typeof value.user !== 'string') throw new CommandError('BadValue', 'UserName must contain a string field named: user');
    if (typeof value.db !== 'string') throw new CommandError('BadValue', 'UserName must contain a string field named: db');
    return { user: value.user, db: value.db };
  }
  throw typeMismatch('hello.saslSupportedMechs', value, ['string', 'object']);
}

/** The primary's fields of a one-node replica set, in mongod's order. */
function replSetFields(ctx: CommandContext, setName: string, primaryField: 'isWritablePrimary' | 'ismaster'): Document {
  const me = memberHost(ctx);
  const last = lastWrite(ctx);
  const wall = new Date(last.wallMs);
  return {
    topologyVersion: ctx.server.topology.toDocument(),
    hosts: [me],
    setName,
    setVersion: CONFIG_VERSION,
    [primaryField]: true,
    secondary: false,
    primary: me,
    me,
    electionId: election(ctx).electionId,
    lastWrite: { opTime: opTime(last.ts), lastWriteDate: wall, majorityOpTime: opTime(last.ts), majorityWriteDate: wall },
  };
}
