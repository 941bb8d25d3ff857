/**
 * The reply shared by `hello` and `isMaster`: a standalone mongod 8.0's, with the limits,
 * `connectionId`, and the compressors agreed with this client.
 */
import { type Document, MAX_BSON_OBJECT_BYTES } from '../../bson/library.js';
import { MAX_WRITE_BATCH_SIZE } from '../crud/write_batch.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommandContext } from '../types.js';
import { speculativeAuthenticate } from '../auth/authenticate.js';
import { election, lastWrite, memberHost, opTime, CONFIG_VERSION } from '../replication/repl_set.js';
import { LOGICAL_SESSION_TIMEOUT_MINUTES } from '../../sessions/session_catalog.js';

/** Wire version of MongoDB 8.0. */
export const MAX_WIRE_VERSION = 25;
/** Oldest wire version accepted, as mongod reports (pymongo 3.11 needs 0). */
export const MIN_WIRE_VERSION = 0;
/** Session timeout advertised to drivers (the session catalog's). */
export { LOGICAL_SESSION_TIMEOUT_MINUTES };

/** The handshake reply; `primaryField` is `isWritablePrimary` (hello) or `ismaster` (isMaster). */
export function helloReply(ctx: CommandContext, cmd: Document, primaryField: 'isWritablePrimary' | 'ismaster'): Document {
  const conn = ctx.connection;
  if (cmd.client !== undefined && cmd.client !== null) {
    if (conn.clientMetadata !== null) {
      throw new CommandError('ClientMetadataCannotBeMutated', 'The client metadata document may only be sent in the first hello');
    }
    conn.clientMetadata = cmd.client as Document;
  }
  const setName = ctx.server.settings.replSetName;
  const reply: Document = setName === null ? { [primaryField]: true } : replSetFields(ctx, setName, primaryField);
  if (cmd.helloOk === true) reply.helloOk = true;
  reply.maxBsonObjectSize = MAX_BSON_OBJECT_BYTES;
  reply.maxMessageSizeBytes = conn.maxMessageBytes;
  reply.maxWriteBatchSize = MAX_WRITE_BATCH_SIZE;
  reply.localTime = new Date(ctx.now());
  reply.logicalSessionTimeoutMinutes = LOGICAL_SESSION_TIMEOUT_MINUTES;
  reply.connectionId = conn.id;
  reply.minWireVersion = MIN_WIRE_VERSION;
  reply.maxWireVersion = MAX_WIRE_VERSION;
  reply.readOnly = false;
  if (Array.isArray(cmd.compression)) {
    const agreed = conn.negotiateCompressors((cmd.compression as unknown[]).filter((c): c is string => typeof c === 'string'));
    conn.compressors = agreed;
    if (agreed.length > 0) reply.compression = agreed;
  }
  if (typeof cmd.saslSupportedMechs === 'string') reply.saslSupportedMechs = [];
  const speculative = cmd.speculativeAuthenticate;
  if (speculative !== null && typeof speculative === 'object' && !Array.isArray(speculative)) {
    const answer = speculativeAuthenticate(ctx, speculative as Document);
    if (answer !== undefined) reply.speculativeAuthenticate = answer;
  }
  return reply;
}

/** The primary's fields of a one-node replica set, in mongod's order. */
function replSetFields(ctx: CommandContext, setName: string, primaryField: 'isWritablePrimary' | 'ismaster'): Document {
  const me = memberHost(ctx);
  const last = lastWrite(ctx);
  const wall = new Date(last.wallMs);
  return {
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
