/**
 * The generic `readConcern`, `writeConcern` and `maxTimeMS` arguments, for every command, in one
 * place: how mongod 8.2 parses them (`ReadConcernIdl` of repl/read_concern.idl and
 * `ReadConcernArgs::parse`; `WriteConcernIdl` of write_concern.idl with `deserializeWriteConcernW`
 * and `parseWTimeoutFromBSON`; the `maxTimeMS` generic argument), and what it checks before a
 * command runs (service_entry_point_common.cpp): whether the command supports the read concern's
 * level, and — a function of `ServerSettings.replSetName` — what a standalone refuses
 * (read_concern_mongod.cpp's `waitForReadConcernImpl`, write_concern.cpp's `validateWriteConcern`).
 */
import { Timestamp, type Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';
import { INT32_MAX, isNaNNumber, isNumber, parseIntegerToLong, safeNumberLong } from '../storage/values/numeric.js';
import { isDocument } from '../storage/values/paths.js';
import { NUMBER_TYPE_NAMES, typeMismatch } from './idl_errors.js';

/** The read concern levels (`ReadConcernLevel`), spelled exactly. */
export const READ_CONCERN_LEVELS = ['local', 'majority', 'linearizable', 'available', 'snapshot'] as const;
/** One read concern level. */
export type ReadConcernLevel = (typeof READ_CONCERN_LEVELS)[number];

/** `ReadWriteConcernProvenanceSource`. */
const PROVENANCE_SOURCES = ['clientSupplied', 'implicitDefault', 'customDefault', 'getLastErrorDefaults', 'internalWriteDefault'] as const;

/** A parsed read concern. */
export interface ReadConcern {
  readonly level?: ReadConcernLevel;
  readonly afterClusterTime?: Timestamp;
  readonly atClusterTime?: Timestamp;
  readonly afterOpTime?: Document;
  readonly provenance?: string;
}

/**
 * Which read concern levels a command supports (mongod's `supportsReadConcern`): every level, or
 * every level but `snapshot` (count), or only `local` (the diagnostic stages). A command that
 * declares none is only parsed.
 */
export type ReadConcernSupport = 'all' | 'notSnapshot' | 'localOnly';

/** What a command does with the generic concerns (`CommandDefinition.concerns`). */
export interface CommandConcerns {
  /**
   * The read concern levels it supports, or a function naming why the command `cmd` refuses
   * `rc` (undefined: accepted), for a command whose support depends on its arguments (aggregate's
   * stages).
   */
  readonly readConcern?: ReadConcernSupport | ((cmd: Document, rc: ReadConcern) => string | undefined);
  /** True when it takes a writeConcern; false when it refuses one (72, as mongod's reads). */
  readonly writeConcern?: boolean;
}

const NUMBER_TYPES = NUMBER_TYPE_NAMES;

function timestampField(field: string, value: unknown): Timestamp {
  if (!(value instanceof Timestamp)) throw typeMismatch(`readConcern.${field}`, value, ['timestamp']);
  return value;
}

function enumField<T extends string>(field: string, value: unknown, values: readonly T[]): T | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'string') throw typeMismatch(`readConcern.${field}`, value, ['string']);
  if (!(values as readonly string[]).includes(value)) {
    throw new CommandError('BadValue', `Enumeration value '${value}' for field 'readConcern.${field}' is not a valid value.`);
  }
  return value as T;
}

/**
 * The `readConcern` of `cmd` (undefined when absent or null), parsed as mongod 8.2's
 * `ReadConcernIdl` (strict; 14 for a wrong type, 2 for an unknown level, 40415 for an unknown
 * field), then `ReadConcernArgs::parse`'s cross-field rules (72).
 */
export function parseReadConcern(idl: string, value: unknown): ReadConcern | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isDocument(value)) throw typeMismatch(`${idl}.readConcern`, value, ['object']);
  const rc: { -readonly [K in keyof ReadConcern]: ReadConcern[K] } = {};
  for (const [field, v] of Object.entries(value)) {
    switch (field) {
      case 'level':
        rc.level = enumField('level', v, READ_CONCERN_LEVELS);
        break;
      case 'afterClusterTime':
        rc.afterClusterTime = timestampField(field, v);
        break;
      case 'atClusterTime':
        rc.atClusterTime = timestampField(field, v);
        break;
      case 'afterOpTime':
        if (!isDocument(v)) throw typeMismatch('readConcern.afterOpTime', v, ['object']);
        rc.afterOpTime = v;
        break;
      case 'provenance':
        rc.provenance = enumField('provenance', v, PROVENANCE_SOURCES);
        break;
      case '$_allowTransactionTableSnapshot':
      case '$_waitLastStableRecoveryTimestamp':
        if (typeof v !== 'boolean' && v !== null) throw typeMismatch(`readConcern.${field}`, v, ['bool']);
        break;
      default:
        throw new CommandError('IDLUnknownField', `BSON field 'readConcern.${field}' is an unknown field.`);
    }
  }
  const level = rc.level ?? 'local';
  if (rc.afterClusterTime && rc.afterOpTime) {
    throw new CommandError('InvalidOptions', 'Can not specify both afterClusterTime and afterOpTime');
  }
  if (rc.afterClusterTime && rc.atClusterTime) {
    throw new CommandError(
      'InvalidOptions',
      'Specifying a timestamp for readConcern snapshot in a causally consistent session is not allowed. See https://docs.mongodb.com/manual/core/read-isolation-consistency-recency/#causal-consistency',
    );
  }
  if (rc.afterClusterTime && level !== 'majority' && level !== 'local' && level !== 'snapshot') {
    throw new CommandError('InvalidOptions', 'afterClusterTime field can be set only if level is equal to majority, local, or snapshot');
  }
  if (rc.afterOpTime && level === 'snapshot') throw new CommandError('InvalidOptions', 'afterOpTime field cannot be set if level is equal to snapshot');
  if (rc.atClusterTime && level !== 'snapshot') throw new CommandError('InvalidOptions', 'atClusterTime field can be set only if level is equal to snapshot');
  if (rc.atClusterTime && rc.atClusterTime.t === 0) throw new CommandError('InvalidOptions', 'atClusterTime cannot be a null timestamp');
  if (rc.afterClusterTime && rc.afterClusterTime.t === 0 && rc.afterClusterTime.i === 0) {
    throw new CommandError('InvalidOptions', 'afterClusterTime cannot be a null timestamp');
  }
  return rc;
}

/** The read concern as mongod prints it in its errors (`{ readConcern: { level: "majority" } }`). */
export function describeReadConcern(rc: ReadConcern): string {
  const parts: string[] = [];
  if (rc.level !== undefined) parts.push(`level: "${rc.level}"`);
  if (rc.afterClusterTime) parts.push(`afterClusterTime: Timestamp(${rc.afterClusterTime.t}, ${rc.afterClusterTime.i})`);
  if (rc.atClusterTime) parts.push(`atClusterTime: Timestamp(${rc.atClusterTime.t}, ${rc.atClusterTime.i})`);
  parts.push(`provenance: "${rc.provenance ?? 'clientSupplied'}"`);
  return `{ readConcern: { ${parts.join(', ')} } }`;
}

/** Why `support` refuses `level`, or undefined when it accepts it. */
function refusal(support: ReadConcernSupport, level: ReadConcernLevel): string | undefined {
  if (support === 'notSnapshot' && level === 'snapshot') return 'read concern snapshot not supported';
  if (support === 'localOnly' && level !== 'local') return `read concern ${level} not supported`;
  return undefined;
}

/** 72 InvalidOptions when command `name` does not support the level of `rc` (`caused by` why). */
export function readConcernNotSupported(name: string, rc: ReadConcern, reason: string): CommandError {
  return new CommandError('InvalidOptions', `Command ${name} does not support ${describeReadConcern(rc)} :: caused by :: ${reason}`);
}

/**
 * The checks of a parsed read concern before the command runs: the command's support for its
 * level (72), then what a standalone (`replSetName` null) refuses: `linearizable` and `snapshot`
 * (123 NotAReplicaSet), a cluster time to read after or at (20 IllegalOperation).
 */
export function checkReadConcern(
  name: string,
  cmd: Document,
  rc: ReadConcern | undefined,
  support: NonNullable<CommandConcerns['readConcern']>,
  replSetName: string | null,
): void {
  if (rc === undefined) return;
  const level = rc.level ?? 'local';
  const why = typeof support === 'function' ? support(cmd, rc) : refusal(support, level);
  if (why !== undefined) throw readConcernNotSupported(name, rc, why);
  checkReadConcernTopology(rc, replSetName);
}

/** What a standalone refuses of a read concern (`waitForReadConcernImpl`). */
export function checkReadConcernTopology(rc: ReadConcern, replSetName: string | null): void {
  if (replSetName !== null) return;
  if (rc.level === 'linearizable') throw new CommandError('NotAReplicaSet', 'node needs to be a replica set member to use read concern');
  if (rc.level === 'snapshot') throw new CommandError('NotAReplicaSet', 'node needs to be a replica set member to use readConcern: snapshot');
  const target = rc.afterClusterTime ? 'afterClusterTime' : rc.atClusterTime ? 'atClusterTime' : undefined;
  if (target !== undefined) throw new CommandError('IllegalOperation', `Cannot specify ${target} readConcern without replication enabled`);
}

/** A parsed write concern. */
export interface WriteConcern {
  /** A number of nodes, a mode (`'majority'`, a tag set name; `''` for a null `w`), or tag counts. */
  readonly w?: number | string | Document;
  readonly j?: boolean;
  readonly wtimeoutMs?: number;
}

/** A `safeBool` sub-field of writeConcern: a boolean or a number; null reads as absent. */
function safeBoolField(field: string, value: unknown): boolean | undefined {
  if (value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (isNumber(value)) return Number(safeNumberLong(value)) !== 0 || isNaNNumber(value);
  throw typeMismatch(`writeConcern.${field}`, value, ['bool', ...NUMBER_TYPES]);
}

/** `deserializeWriteConcernW`. */
function parseW(value: unknown): number | string | Document {
  if (isNumber(value)) {
    if (isNaNNumber(value)) throw new CommandError('FailedToParse', 'w cannot be NaN');
    const n = safeNumberLong(value)!;
    if (n < 0n || n > 50n) throw new CommandError('FailedToParse', `w has to be a non-negative number and not greater than 50; found: ${n}`);
    return Number(n);
  }
  if (typeof value === 'string') {
    if (value.includes('\0')) throw new CommandError('FailedToParse', `w has illegal embedded NUL byte, w: ${value}`);
    return value;
  }
  if (isDocument(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) throw new CommandError('FailedToParse', 'tagged write concern requires tags');
    for (const [tag, count] of entries) {
      if (!isNumber(count)) {
        throw new CommandError('FailedToParse', `tags must be a single level document with only number values; found: ${tag}: ${describeValue(count)}`);
      }
    }
    return value;
  }
  if (value === null || value === undefined) return '';
  throw new CommandError('FailedToParse', `w has to be a number, string, or object; found: ${bsonTypeOf(value)}`);
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') return `"${v}"`;
  if (isDocument(v)) return `{ ${Object.entries(v).map(([k, x]) => `${k}: ${describeValue(x)}`).join(', ')} }`;
  return String(v);
}

/** `parseWTimeoutFromBSON`: any type (a non-number reads as 0); more than int32 is 9. */
function parseWTimeout(value: unknown): number {
  const n = isNumber(value) ? safeNumberLong(value)! : 0n;
  if (n > BigInt(INT32_MAX)) throw new CommandError('FailedToParse', 'wtimeout must be a 32-bit integer');
  return Number(n);
}

/**
 * The `writeConcern` of a command (undefined when absent or null), parsed as mongod 8.2's
 * `WriteConcernIdl`: an object (14), strict (40415), `w`, `j`, `fsync`, `wtimeout` checked as
 * mongod checks them.
 */
export function parseWriteConcern(idl: string, value: unknown): WriteConcern | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isDocument(value)) throw typeMismatch(`${idl}.writeConcern`, value, ['object']);
  const wc: { -readonly [K in keyof WriteConcern]: WriteConcern[K] } = {};
  let fsync: boolean | undefined;
  for (const [field, v] of Object.entries(value)) {
    switch (field) {
      case 'w':
        wc.w = parseW(v);
        break;
      case 'j':
        wc.j = safeBoolField('j', v);
        break;
      case 'fsync':
        fsync = safeBoolField('fsync', v);
        break;
      case 'wtimeout':
        wc.wtimeoutMs = parseWTimeout(v);
        break;
      case 'provenance':
        if (v !== null && typeof v !== 'string') throw typeMismatch('writeConcern.provenance', v, ['string']);
        if (typeof v === 'string' && !(PROVENANCE_SOURCES as readonly string[]).includes(v)) {
          throw new CommandError('BadValue', `Enumeration value '${v}' for field 'writeConcern.provenance' is not a valid value.`);
        }
        break;
      case 'getLastError':
      case 'getlasterror':
      case 'wOpTime':
      case 'wElectionId':
        break;
      default:
        throw new CommandError('IDLUnknownField', `BSON field 'writeConcern.${field}' is an unknown field.`);
    }
  }
  if (fsync === true && wc.j === true) throw new CommandError('FailedToParse', 'fsync and j options cannot be used together');
  return wc;
}

/**
 * `validateWriteConcern` for a command that takes a write concern: on a standalone, `w` above 1
 * and modes other than `majority` are refused (2 BadValue).
 */
export function checkWriteConcernTopology(wc: WriteConcern, replSetName: string | null): void {
  if (replSetName !== null) return;
  if (typeof wc.w === 'number' && wc.w > 1) throw new CommandError('BadValue', "cannot use 'w' > 1 when a host is not replicated");
  if (typeof wc.w === 'string' && wc.w !== 'majority') {
    throw new CommandError('BadValue', `cannot use non-majority 'w' mode "${wc.w}" when a host is not a member of a replica set`);
  }
}

/** The largest `maxTimeMS` (int32). */
export const MAX_TIME_MS_LIMIT = INT32_MAX;

/**
 * The `maxTimeMS` generic argument (mongod 8.2): absent or null is no limit (0); a number that
 * is an integer (9 FailedToParse for a fraction, NaN, an infinity or a value beyond Int64, 14
 * TypeMismatch for a non-number) within [0, 2^31 - 1] (2 BadValue otherwise).
 */
export function parseMaxTimeMS(value: unknown, idl: string): number {
  if (value === undefined || value === null) return 0;
  if (!isNumber(value)) throw typeMismatch(`${idl}.maxTimeMS`, value, NUMBER_TYPES);
  const parsed = parseIntegerToLong('maxTimeMS', value);
  if (!parsed.ok) throw new CommandError('FailedToParse', parsed.reason);
  const n = parsed.value;
  if (n < 0n || n > BigInt(MAX_TIME_MS_LIMIT)) {
    throw new CommandError('BadValue', `${n} value for maxTimeMS is out of range [0, ${MAX_TIME_MS_LIMIT}]`);
  }
  return Number(n);
}

/**
 * Every generic concern of `cmd` for the command `name` (`idl` its IDL name), checked in mongod's
 * order once its own arguments are: `maxTimeMS`, `readConcern` and `writeConcern` parsed; then,
 * when the command declares what it supports, the read concern's level and topology and the
 * write concern's presence (72 "Command does not support writeConcern") or topology.
 */
export function checkGenericConcerns(name: string, idl: string, cmd: Document, concerns: CommandConcerns | undefined, replSetName: string | null): void {
  parseMaxTimeMS(cmd.maxTimeMS, idl);
  const rc = parseReadConcern(idl, cmd.readConcern);
  const wc = parseWriteConcern(idl, cmd.writeConcern);
  if (concerns === undefined) return;
  if (concerns.readConcern !== undefined) checkReadConcern(name, cmd, rc, concerns.readConcern, replSetName);
  if (concerns.writeConcern === false && cmd.writeConcern !== undefined && cmd.writeConcern !== null) {
    throw new CommandError('InvalidOptions', 'Command does not support writeConcern');
  }
  if (concerns.writeConcern === true && wc !== undefined) checkWriteConcernTopology(wc, replSetName);
}
