/**
 * Argument checking shared by every command: mongod's IDL errors for unknown, missing and
 * mistyped fields, and small typed accessors that handlers use.
 *
 * As mongod's generated parsers do, a command's fields are checked in the order they arrive
 * (the first bad one is reported), then missing required fields (in the table's order), then
 * the generic arguments every command shares (`maxTimeMS`, `readConcern`, `writeConcern`:
 * read_write_concern.ts). A plain `type` rule
 * reads null as absent (`checkAndAssertType`); the `IdlRules` below are mongod's custom IDL
 * types, whose deserializers see null too (`Expected field sortto be of type object` for find's
 * `sort: null`).
 */
import { Long, Double, Decimal128, type Document } from '../bson/library.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf } from '../storage/values/bson_type.js';
import { isNumber, safeNumberLong, toDouble } from '../storage/values/numeric.js';
import { isDocument } from '../storage/values/paths.js';
import { NUMBER_TYPE_NAMES, typeMismatch } from './idl_errors.js';
import { checkGenericConcerns } from './read_write_concern.js';
import { ArgTypes, type ArgRule, type ArgType, type CommandDefinition } from './types.js';

export { typeMismatch };

/** Fields every command accepts (mongod's generic arguments). */
export const GENERIC_ARGUMENTS: ReadonlySet<string> = new Set([
  '$db',
  'lsid',
  'txnNumber',
  'autocommit',
  'startTransaction',
  'stmtId',
  '$clusterTime',
  '$readPreference',
  '$audit',
  '$client',
  '$configServerState',
  '$queryOptions',
  'readConcern',
  'writeConcern',
  'maxTimeMS',
  'comment',
  'apiVersion',
  'apiStrict',
  'apiDeprecationErrors',
  'mayBypassWriteBlocking',
  'clientOperationKey',
  'databaseVersion',
  'shardVersion',
  'tracking_info',
  'help',
  'readPreference',
  'rawData',
]);

function matchesType(value: unknown, type: ArgType): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'number':
      return isNumber(value);
    case 'bool':
      return typeof value === 'boolean' || isNumber(value);
    case 'object':
      return bsonTypeOf(value) === 'object';
    case 'array':
      return Array.isArray(value);
  }
}

/** mongod's IDL type error for `field` of `command`. */
export function wrongTypeError(idl: string, field: string, value: unknown, types: readonly ArgType[]): CommandError {
  return typeMismatch(`${idl}.${field}`, value, types.flatMap((t) => ArgTypes[t]));
}

/** Checks `cmd` against the definition's argument table (unknown, missing, mistyped fields). */
export function validateArguments(def: CommandDefinition, cmd: Document, commandField: string, replSetName: string | null = null): void {
  const idl = def.idlName ?? def.name;
  if (def.target) checkRule(idl, commandField, cmd[commandField], def.target, true);
  if (def.args !== 'lenient') {
    const table = def.args;
    for (const key of Object.keys(cmd)) {
      if (key === commandField) continue;
      const rule = table[key];
      if (!rule) {
        if (GENERIC_ARGUMENTS.has(key)) continue;
        throw new CommandError('IDLUnknownField', `BSON field '${idl}.${key}' is an unknown field.`);
      }
      checkRule(idl, key, cmd[key], rule, false);
    }
    for (const key of requiredFields(table)) {
      if (cmd[key] === undefined) {
        throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${key}' is missing but a required field`);
      }
    }
  }
  // The generic arguments every invocation parses after its own fields (read_write_concern.ts).
  checkGenericConcerns(def.name, idl, cmd, def.concerns, replSetName);
}

/** Where an argument table keeps its required fields once computed (a symbol: not an argument). */
const REQUIRED = Symbol('requiredFields');
/** The required fields of an argument table, in table order (computed once per table). */
function requiredFields(table: Readonly<Record<string, ArgRule>>): readonly string[] {
  const memo = table as { [REQUIRED]?: readonly string[] };
  return (memo[REQUIRED] ??= Object.keys(table).filter((k) => table[k]!.required));
}

function checkRule(idl: string, key: string, value: unknown, rule: ArgRule, isTarget: boolean): void {
  if (value === undefined) return;
  if (rule.parse) {
    rule.parse(value, key, idl);
    return;
  }
  if (value === null && !rule.required && !isTarget) return;
  const type = rule.type;
  if (!Array.isArray(type)) {
    if (!matchesType(value, type as ArgType)) throw wrongTypeError(idl, key, value, [type as ArgType]);
    return;
  }
  if (!(type as readonly ArgType[]).some((t) => matchesType(value, t))) throw wrongTypeError(idl, key, value, type as readonly ArgType[]);
}

/** The 51024 error of an IDL validator: `BSON field 'skip' value must be >= 0, actual value '-1'`. */
export function comparisonError(field: string, op: string, limit: bigint | number, actual: bigint): CommandError {
  return new CommandError(51024, `BSON field '${field}' value must be ${op} ${limit}, actual value '${actual}'`);
}

const SAFE_BOOL_TYPE_NAMES = ['bool', ...ArgTypes.number] as const;

/** The bounds an IDL `validator` puts on a number. */
export interface NumberBounds {
  readonly gte?: number;
  readonly lte?: number;
  readonly lt?: number;
}

/** A rule checked by `parse` alone (`type` is then only informative). */
function parsed(parse: (value: unknown, field: string, idl: string) => void, required = false): ArgRule {
  return { type: 'any', required, parse };
}

/** A `safeInt64`: any number (null reads as absent), truncated, then the bounds (51024). */
function safeInt64(bounds: NumberBounds = {}, required = false): ArgRule {
  return parsed((value, field, idl) => {
    if (value === null && !required) return;
    checkSafeInt64(`${idl}.${field}`, field, value, bounds);
  }, required);
}

/** Checks one `safeInt64` value at `path` (whose last part is `field`); returns it. */
export function checkSafeInt64(path: string, field: string, value: unknown, bounds: NumberBounds = {}): bigint {
  if (!isNumber(value)) throw typeMismatch(path, value, NUMBER_TYPE_NAMES);
  const n = safeNumberLong(value)!;
  if (bounds.gte !== undefined && !(n >= BigInt(bounds.gte))) throw comparisonError(field, '>=', bounds.gte, n);
  if (bounds.lte !== undefined && !(n <= BigInt(bounds.lte))) throw comparisonError(field, '<=', bounds.lte, n);
  if (bounds.lt !== undefined && !(n < BigInt(bounds.lt))) throw comparisonError(field, '<', bounds.lt, n);
  return n;
}

/** An `array<T>` rule: see `IdlRules.arrayOf`. */
function arrayOf(check: (item: unknown, index: number, path: string) => void, required = false): ArgRule {
  return parsed((value, field, idl) => {
    if (value === null && !required) return;
    if (!Array.isArray(value)) throw typeMismatch(`${idl}.${field}`, value, ['array']);
    value.forEach((item, i) => check(item, i, `${idl}.${field}.${i}`));
  }, required);
}

/** A field of one BSON type (null reads as absent), as the IDL's plain types. */
function strictType(name: string, test: (value: unknown) => boolean): ArgRule {
  return parsed((value, field, idl) => {
    if (value === null || test(value)) return;
    throw typeMismatch(`${idl}.${field}`, value, [name]);
  });
}

/** An `optionalBool` (`OptionalBool::parseFromBSON`): only a boolean, null included in the errors. */
export function checkOptionalBool(name: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') {
    throw new CommandError('TypeMismatch', `Field '${name}' should be a boolean value, but found: ${bsonTypeOf(value)}`);
  }
  return value;
}

/** An `indexHint` (`IndexHint::parse`): a string or an object, null included in the errors (9). */
export function checkHintType(value: unknown): unknown {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' && !isDocument(value)) {
    throw new CommandError('FailedToParse', 'Hint must be a string or an object');
  }
  return value;
}

/**
 * SimpleCursorOptions (`{batchSize}`, strict) at `prefix` (e.g. `listIndexes.cursor`); a negative
 * batchSize is the IDL's 51024, or 2 BadValue where mongod 8.2 answers so (`negative`: aggregate).
 */
export function checkCursorOptions(prefix: string, cursor: Document, options: { negative?: 'BadValue' } = {}): void {
  for (const key of Object.keys(cursor)) {
    if (key !== 'batchSize') throw new CommandError('IDLUnknownField', `BSON field '${prefix}.${key}' is an unknown field.`);
    if (cursor.batchSize === null) continue;
    if (options.negative === undefined) checkSafeInt64(`${prefix}.batchSize`, 'batchSize', cursor.batchSize, { gte: 0 });
    else checkNonNegative(`${prefix}.batchSize`, 'batchSize', cursor.batchSize);
  }
}

/**
 * A `safeInt64` that must be >= 0, answered 2 BadValue (aggregate's batchSize, count's skip in
 * mongod 8.2): a number (14 otherwise) whose `safeNumberLong` is not negative. Returns it.
 */
export function checkNonNegative(path: string, field: string, value: unknown): bigint {
  if (!isNumber(value)) throw typeMismatch(path, value, NUMBER_TYPE_NAMES);
  const n = safeNumberLong(value)!;
  if (n < 0n) throw new CommandError('BadValue', `BSON field '${field}' value must be >= 0, actual value '${n}'`);
  return n;
}

/**
 * mongod's IDL types beyond the plain ones, as argument rules. Each checks the value as the
 * generated parser (or the type's deserializer) does, with mongod's exact errors.
 */
export const IdlRules = {
  /** `object_owned_nonempty_serialize` (find's filter, sort, projection, …): null is an error too. */
  ownedObject: parsed((value, field) => {
    if (!isDocument(value)) throw new CommandError('TypeMismatch', `Expected field ${field}to be of type object`);
  }),
  /** `bool`: only a boolean (null reads as absent). */
  bool: strictType('bool', (v) => typeof v === 'boolean'),
  /** `long`: only an Int64 (null reads as absent). */
  long: strictType('long', (v) => v instanceof Long || typeof v === 'bigint'),
  /** `safeBool`: a boolean or any number (null reads as absent). */
  safeBool: parsed((value, field, idl) => {
    if (value === null || typeof value === 'boolean' || isNumber(value)) return;
    throw typeMismatch(`${idl}.${field}`, value, SAFE_BOOL_TYPE_NAMES);
  }),
  /** `optionalBool`: only a boolean (`Field 'x' should be a boolean value, but found: int`). */
  optionalBool: parsed((value, field) => {
    checkOptionalBool(field, value);
  }),
  /** `indexHint`: a string or an object (9 FailedToParse otherwise). */
  indexHint: parsed((value) => {
    checkHintType(value);
  }),
  /** `safeInt64` with validator bounds. */
  safeInt64,
  /** A `safeInt64` that must be >= 0 (skip, limit, batchSize). */
  nonNegativeInt64: safeInt64({ gte: 0 }),
  /**
   * `array<T>`: an array (null reads as absent unless required) whose every element `check`
   * accepts (`path` is `<command>.<field>.<i>`).
   */
  arrayOf,
  /** `array<object>`: every element an object. */
  arrayOfObjects: (required = false): ArgRule =>
    parsed((value, field, idl) => {
      if (value === null && !required) return;
      if (!Array.isArray(value)) throw typeMismatch(`${idl}.${field}`, value, ['array']);
      // An insert's documents: the path of an item is spelled only when it is wrong.
      for (let i = 0; i < value.length; i++) {
        if (!isDocument(value[i])) throw typeMismatch(`${idl}.${field}.${i}`, value[i], ['object']);
      }
    }, required),
  /** A command's collection name (`namespacestring` target): a string (73 InvalidNamespace otherwise, null included). */
  collectionName: parsed((value) => {
    if (typeof value !== 'string') throw new CommandError('InvalidNamespace', `collection name has invalid type ${bsonTypeOf(value)}`);
  }),
  /** `SimpleCursorOptions` as a field (`{batchSize}`; null reads as absent). */
  cursorOptions: parsed((value, field, idl) => {
    if (value === null) return;
    if (!isDocument(value)) throw typeMismatch(`${idl}.${field}`, value, ['object']);
    checkCursorOptions(`${idl}.${field}`, value);
  }),
} as const;

/** A numeric argument as a JS integer (truncated), or `fallback` when absent/null. */
export function intArg(cmd: Document, field: string, fallback: number): number;
export function intArg(cmd: Document, field: string): number | undefined;
export function intArg(cmd: Document, field: string, fallback?: number): number | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number') return Math.trunc(value);
  if (value instanceof Long) return value.toNumber();
  if (value instanceof Double || value instanceof Decimal128) return Math.trunc(toDouble(value));
  if (typeof value === 'boolean') return value ? 1 : 0;
  return fallback;
}

/** A boolean argument (numbers count by truthiness, as mongod's safeBool), or `fallback`. */
export function boolArg(cmd: Document, field: string, fallback: boolean): boolean {
  const value = cmd[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (isNumber(value)) return toDouble(value) !== 0;
  return fallback;
}

/** A document argument, or `fallback` when absent/null. */
export function docArg(cmd: Document, field: string): Document | undefined {
  const value = cmd[field];
  return value === undefined || value === null ? undefined : (value as Document);
}

/** The collection name a command targets (its first field); 2 BadValue / 73 when it is not a string. */
export function collectionArg(cmd: Document, commandField: string, db: string): string {
  const value = cmd[commandField];
  if (typeof value !== 'string') {
    throw new CommandError(
      'InvalidNamespace',
      `collection name has invalid type ${bsonTypeOf(value)}`,
    );
  }
  if (value.length === 0) throw new CommandError('InvalidNamespace', `Invalid namespace specified '${db}.'`);
  return value;
}
