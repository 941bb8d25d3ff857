/**
 * The shapes every command file shares: its definition (name, aliases, arguments, `run`) and
 * the context it runs in. Handlers return the reply's fields; `dispatch` adds `ok` and turns
 * thrown `CommandError`s into error replies.
 */
import type { Document } from '../bson/library.js';
import type { Logger } from '../logger.js';
import type { Catalog } from '../storage/catalog.js';
import type { CursorManager } from '../storage/cursors.js';
import type { Clock } from '../ttl/clock.js';
import type { ParameterTable } from '../server/parameters.js';
import type { TtlEngine } from '../ttl/engine.js';

/** Which TTL flavour a TTL index on a field other than `_ts` gets (TTL.md). */
export const CompatModes = ['cosmos', 'mongodb'] as const;
/** One of `CompatModes`. */
export type CompatMode = (typeof CompatModes)[number];

/** The server settings commands may read. */
export interface ServerSettings {
  readonly host: string;
  readonly port: number;
  readonly compat: CompatMode;
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
  /** Recent log lines (for getLog 'global'), newest last. */
  readonly recentLog: readonly string[];
  /** The commands known to the server (for listCommands). */
  readonly registry: ReadonlyMap<string, CommandDefinition>;
}

/** Per-connection state a command may read. */
export interface ConnectionState {
  readonly id: number;
  readonly remoteAddress: string;
  readonly localAddress: string;
  clientMetadata: Document | null;
  /** Compressors agreed in the handshake. */
  compressors: string[];
}

/** What a command handler receives besides its command document. */
export interface CommandContext {
  readonly server: ServerServices;
  readonly connection: ConnectionState;
  /** The `$db` of the request. */
  readonly db: string;
  /** Now, from the server clock (ms). */
  now(): number;
  /**
   * The size of the request message (Infinity when unknown): a bound on every document that
   * arrived in it, so a write can skip measuring documents that cannot exceed 16 MiB.
   */
  readonly requestBytes: number;
}

/** Kinds of argument values, with mongod's IDL type names for error messages. */
export const ArgTypes = {
  string: ['string'],
  number: ['long', 'int', 'decimal', 'double'],
  bool: ['bool'],
  object: ['object'],
  array: ['array'],
  any: [],
} as const;
/** One of `ArgTypes`. */
export type ArgType = keyof typeof ArgTypes;

/** How a command treats one of its fields. */
export interface ArgRule {
  /** Accepted types (any of). */
  readonly type: ArgType | readonly ArgType[];
  readonly required?: boolean;
  /**
   * mongod's IDL deserializer and validators for the field (see `Idl` in args.ts): called with
   * every present value, null included, in field order, instead of the `type` check; throws
   * mongod's error.
   */
  readonly parse?: (value: unknown, field: string, idl: string) => void;
}

/** A command: one file in `src/commands/<group>/`, one entry in the registry. */
export interface CommandDefinition {
  /** Name as on the wire (`'findAndModify'`). */
  readonly name: string;
  /** Other names it answers to (`'findandmodify'`). */
  readonly aliases?: readonly string[];
  /** The IDL name used in argument error messages (default: `name`). */
  readonly idlName?: string;
  /** Only allowed on the `admin` database. */
  readonly adminOnly?: boolean;
  /** Type rule of the command's own first field (the value of `name`); default any. */
  readonly target?: ArgRule;
  /**
   * The fields besides the command name and the generic arguments: a table (unknown fields are
   * rejected with 40415, as mongod's IDL does) or `'lenient'` (anything accepted, as mongod's
   * non-IDL commands do).
   */
  readonly args: Readonly<Record<string, ArgRule>> | 'lenient';
  /** One line for listCommands' `help`. */
  readonly help: string;
  /** Runs the command; returns the reply fields (without `ok`). */
  run(ctx: CommandContext, cmd: Document): Document | Promise<Document>;
  /**
   * The command's express path, if it has one: the reply fields for a request of the one shape
   * it knows, answered without the argument table (the path checks that shape itself), or
   * undefined, having changed nothing, for `run` to answer after the usual checks.
   */
  readonly express?: (ctx: CommandContext, cmd: Document) => Document | undefined;
}
