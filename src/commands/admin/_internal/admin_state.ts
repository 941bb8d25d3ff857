/**
 * The server-global state of the administration commands that mongod keeps in memory: the fsync
 * lock count (fsync / fsyncUnlock), the autoCompact configuration, the cluster parameters
 * (setClusterParameter / getClusterParameter), the feature compatibility version, and each
 * database's profiling settings. One instance per server, found from its services (a WeakMap: it
 * lives and dies with the server and no shared file carries it).
 */
import type { Document } from '../../../bson/library.js';
import type { ServerServices } from '../../../server/services.js';

/** The autoCompact background task's configuration, while it is enabled. */
export interface AutoCompactConfig {
  readonly freeSpaceTargetMB: bigint | undefined;
  readonly runOnce: boolean;
}

/** One database's profiler settings (`profile`). */
export interface ProfileSettings {
  level: number;
  slowms: number;
  sampleRate: number;
  filter: Document | undefined;
}

/** The in-memory administration state of one server. */
export interface AdminState {
  /** fsync locks held (server-global, survive the connection that took them). */
  fsyncLockCount: number;
  /** autoCompact, when enabled. */
  autoCompact: AutoCompactConfig | undefined;
  /** setClusterParameter's values, by parameter name (with their `clusterParameterTime`). */
  readonly clusterParameters: Map<string, Document>;
  /** Profiler settings by database name (absent: the server defaults). */
  readonly profile: Map<string, ProfileSettings>;
  /** The server-wide default `slowms` and `sampleRate` (set by `profile` on any database). */
  slowms: number;
  sampleRate: number;
  /** The next operation id (`killOp`, `currentOp`). */
  nextOpId: number;
}

const STATES = new WeakMap<ServerServices, AdminState>();

/** The administration state of `server`, created on first use. */
export function adminState(server: ServerServices): AdminState {
  let state = STATES.get(server);
  if (state === undefined) {
    state = {
      fsyncLockCount: 0,
      autoCompact: undefined,
      clusterParameters: new Map(),
      profile: new Map(),
      slowms: 100,
      sampleRate: 1,
      nextOpId: 1,
    };
    STATES.set(server, state);
  }
  return state;
}
