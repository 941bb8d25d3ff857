/**
 * The single-node replica set this server presents with `--replSet <name>` (WRITE_PATH.md step
 * 2): one member, primary from the start, term 1, config version 1. What `hello`,
 * `replSetGetStatus` and `replSetGetConfig` report comes from here: the member's address, the
 * election id, the replica set id, and the optime of the last write (the logical clock's time).
 *
 * The last write's optime is the cluster time of the write path's last commit, which an observer
 * of the write path (`storage/write/observers.ts`) records.
 */
import { Long, ObjectId, Timestamp, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { CommitTime, OpObserver } from '../../storage/write/observers.js';
import type { CommandContext } from '../types.js';

/** The term of the one election this member ever wins. */
export const TERM = 1;
/** The config version of the one-node config. */
export const CONFIG_VERSION = 1;

/** What a replica-set member remembers about itself. */
interface ReplSetState {
  readonly electionId: ObjectId;
  readonly replicaSetId: ObjectId;
  readonly electionTime: Timestamp;
  readonly electionDateMs: number;
  /** The optime and wall time of the last write (the election's no-op at first). */
  lastWriteTs: Timestamp;
  lastWriteWallMs: number;
}

const states = new WeakMap<object, ReplSetState>();

/** The replica-set state of `ctx.server` (created on first use: the member's election). */
function stateOf(ctx: CommandContext): ReplSetState {
  let state = states.get(ctx.server);
  if (!state) {
    const nowMs = ctx.server.startedAtMs;
    const ts = ctx.server.logicalClock.now();
    state = {
      // mongod's election id: 0x7fffffff then the term.
      electionId: new ObjectId(`7fffffff${TERM.toString(16).padStart(16, '0')}`),
      replicaSetId: ObjectId.createFromTime(Math.floor(nowMs / 1000)),
      electionTime: ts,
      electionDateMs: nowMs,
      lastWriteTs: ts,
      lastWriteWallMs: nowMs,
    };
    states.set(ctx.server, state);
    ctx.server.catalog.writes.observers.add(lastWriteObserver(state));
  }
  return state;
}

/** An observer that keeps `state`'s last write at the time of every commit. */
function lastWriteObserver(state: ReplSetState): OpObserver {
  const note = (e: CommitTime) => {
    state.lastWriteTs = e.clusterTime;
    state.lastWriteWallMs = e.wallTimeMs;
  };
  return {
    onInserts: (events) => {
      const last = events[events.length - 1];
      if (last !== undefined) note(last);
    },
    onUpdate: note,
    onDelete: note,
    onCreateCollection: note,
    onDropCollection: note,
    onRenameCollection: note,
    onCreateIndexes: note,
    onDropIndexes: note,
    onCollMod: note,
    onDropDatabase: note,
  };
}

/** The set's name; throws 76 NoReplicationEnabled on a standalone (as mongod does). */
export function requireReplSet(ctx: CommandContext): string {
  const name = ctx.server.settings.replSetName;
  if (name === null) throw new CommandError('NoReplicationEnabled', 'not running with --replSet');
  return name;
}

/** `host:port` of this member: the listening host and the port the client reached. */
export function memberHost(ctx: CommandContext): string {
  const host = ctx.server.settings.host;
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const local = ctx.connection.localAddress;
  const port = local.slice(local.lastIndexOf(':') + 1);
  return `${shown}:${port}`;
}

/** An optime `{ts, t}`. */
export function opTime(ts: Timestamp): Document {
  return { ts, t: Long.fromNumber(TERM) };
}

/** The last write's optime and wall time. */
export function lastWrite(ctx: CommandContext): { ts: Timestamp; wallMs: number } {
  const state = stateOf(ctx);
  return { ts: state.lastWriteTs, wallMs: state.lastWriteWallMs };
}

/** The election's facts (id, time, replica set id). */
export function election(ctx: CommandContext): { electionId: ObjectId; replicaSetId: ObjectId; electionTime: Timestamp; electionDateMs: number } {
  return stateOf(ctx);
}

/** The one-node config (`replSetGetConfig`'s `config`). */
export function replSetConfig(ctx: CommandContext, name: string): Document {
  return {
    _id: name,
    version: CONFIG_VERSION,
    term: TERM,
    members: [
      {
        _id: 0,
        host: memberHost(ctx),
        arbiterOnly: false,
        buildIndexes: true,
        hidden: false,
        priority: 1,
        tags: {},
        secondaryDelaySecs: Long.ZERO,
        votes: 1,
      },
    ],
    protocolVersion: Long.fromNumber(1),
    writeConcernMajorityJournalDefault: true,
    settings: {
      chainingAllowed: true,
      heartbeatIntervalMillis: 2000,
      heartbeatTimeoutSecs: 10,
      electionTimeoutMillis: 10000,
      catchUpTimeoutMillis: -1,
      catchUpTakeoverDelayMillis: 30000,
      getLastErrorModes: {},
      getLastErrorDefaults: { w: 1, wtimeout: 0 },
      replicaSetId: stateOf(ctx).replicaSetId,
    },
  };
}
