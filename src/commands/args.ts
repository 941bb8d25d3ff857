/**
 * Argument checking shared by every command: mongod's IDL errors for unknown, missing and
 * mistyped fields, and small typed accessors that handlers use.
 */
import { Long, Double, Decimal128, type Document } from '../bson.js';
import { CommandError } from '../errors/command_error.js';
import { bsonTypeOf, isNumber, toDouble } from '../storage/values/bson_type.js';
import { ArgTypes, type ArgRule, type ArgType, type CommandDefinition } from './types.js';

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
  const names = types.flatMap((t) => ArgTypes[t]);
  const expected =
    names.length === 1 ? `expected type '${names[0]}'` : `expected types '[${names.join(', ')}']`;
  return new CommandError('TypeMismatch', `BSON field '${idl}.${field}' is the wrong type '${bsonTypeOf(value)}', ${expected}`);
}

/** Checks `cmd` against the definition's argument table (unknown, missing, mistyped fields). */
export function validateArguments(def: CommandDefinition, cmd: Document, commandField: string): void {
  const idl = def.idlName ?? def.name;
  if (def.target) checkRule(idl, commandField, cmd[commandField], def.target, true);
  if (def.args === 'lenient') return;
  const table = def.args;
  for (const key of Object.keys(cmd)) {
    if (key === commandField || GENERIC_ARGUMENTS.has(key)) continue;
    const rule = table[key];
    if (!rule) throw new CommandError('IDLUnknownField', `BSON field '${idl}.${key}' is an unknown field.`);
    checkRule(idl, key, cmd[key], rule, false);
  }
  for (const [key, rule] of Object.entries(table)) {
    if (rule.required && (cmd[key] === undefined)) {
      throw new CommandError('IDLFailedToParse', `BSON field '${idl}.${key}' is missing but a required field`);
    }
  }
}

function checkRule(idl: string, key: string, value: unknown, rule: ArgRule, isTarget: boolean): void {
  if (value === undefined) return;
  if (value === null && !rule.required && !isTarget) return;
  const types = (Array.isArray(rule.type) ? rule.type : [rule.type]) as readonly ArgType[];
  if (!types.some((t) => matchesType(value, t))) throw wrongTypeError(idl, key, value, types);
}

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
