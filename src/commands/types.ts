/**
 * The shapes every command file shares: its definition (name, aliases, arguments, `run`) and
 * the context it runs in. Handlers return the reply's fields; `dispatch` adds `ok` and turns
 * thrown `CommandError`s into error replies.
 */
import type { Document } from '../bson/library.js';
import type { ConnectionState, ServerServices } from '../server/services.js';
import { NUMBER_TYPE_NAMES } from './idl_errors.js';
import type { CommandConcerns } from './read_write_concern.js';

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
  /** The commands the server knows, by name and alias (listCommands, explain). */
  readonly commands: ReadonlyMap<string, CommandDefinition>;
}

/** Kinds of argument values, with mongod's IDL type names for error messages. */
export const ArgTypes = {
  string: ['string'],
  number: NUMBER_TYPE_NAMES,
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
  /**
   * What it supports of the generic `readConcern` and `writeConcern` (read_write_concern.ts);
   * absent: they are parsed, nothing more is checked.
   */
  readonly concerns?: CommandConcerns;
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
