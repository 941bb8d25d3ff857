/**
 * The server's shape as the layers above storage see it: its settings, counters and services
 * (catalog, cursors, clock, parameters, TTL engine, log), and the state of one client connection.
 * `Server` (server.ts) and `Connection` (connection.ts) implement them; commands read them
 * through their `CommandContext` (src/commands/types.ts).
 */
import type { AuthManager } from '../auth/auth_manager.js';
import type { AuthorizationSession } from '../auth/authorization_session.js';
import type { Document } from '../bson/library.js';
import type { Logger } from '../logger.js';
import type { Catalog } from '../storage/catalog.js';
import type { CursorManager } from '../storage/cursors.js';
import type { Clock } from '../ttl/clock.js';
import type { TtlEngine } from '../ttl/engine.js';
import type { LogicalClock } from './logical_clock.js';
import type { ParameterTable } from './parameters.js';

/** Which TTL flavour a TTL index on a field other than `_ts` gets (TTL.md). */
export const CompatModes = ['cosmos', 'mongodb'] as const;
/** One of `CompatModes`. */
export type CompatMode = (typeof CompatModes)[number];

/** The server settings commands may read. */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  readonly compat: CompatMode;
  /** The replica set this server is the one member (and primary) of; null: a standalone. */
  readonly replSetName: string | null;
  /** The parsed command line, as `getCmdLineOpts` reports it. */
  readonly argv: readonly string[];
  readonly parsed: Document;
}

/** Counters reported by serverStatus. */
export interface ServerCounters {
  connectionsCurrent: number;
  connectionsTotal: number;
  /** Requests received from clients (they pace the TTL reaper). */
  requests: number;
  opcounters: { insert: number; query: number; update: number; delete: number; getmore: number; command: number };
  /** TLS connections accepted, by protocol version (serverStatus `transportSecurity`). */
  tlsVersions: { '1.0': number; '1.1': number; '1.2': number; '1.3': number; unknown: number };
}

/** Everything of the server a command may use. */
export interface ServerServices {
  readonly catalog: Catalog;
  readonly cursors: CursorManager;
  readonly clock: Clock;
  readonly parameters: ParameterTable;
  readonly logger: Logger;
  readonly settings: ServerSettings;
  readonly counters: ServerCounters;
  readonly startedAtMs: number;
  readonly ttl: TtlEngine;
  /** Cluster time: ticks on every commit (WRITE_PATH.md). */
  readonly logicalClock: LogicalClock;
  /** Recent log lines (for getLog 'global'), newest last. */
  readonly recentLog: readonly string[];
  /** Users, roles and whether access control is on (src/auth/). */
  readonly auth: AuthManager;
}

/** Per-connection state a command may read. */
export interface ConnectionState {
  readonly id: number;
  readonly remoteAddress: string;
  readonly localAddress: string;
  clientMetadata: Document | null;
  /** Compressors agreed in the handshake. */
  compressors: string[];
  /**
   * The RFC 2253 subject of the client's verified TLS certificate (the MONGODB-X509 user name);
   * null on a plain connection, or over TLS without a (valid) client certificate.
   */
  readonly tlsPeerSubject: string | null;
  /** The largest message the transport takes or sends (`maxMessageSizeBytes`). */
  readonly maxMessageBytes: number;
  /** The compressors of `requested` the transport supports, in the client's order. */
  negotiateCompressors(requested: readonly string[]): string[];
  /** Who is authenticated on this connection, and the SASL conversation under way (src/auth/). */
  readonly auth: AuthorizationSession;
  /** Calls `listener` once the connection closes (a waiting getMore stops); returns the unsubscribe. */
  onClose?(listener: () => void): () => void;
}
