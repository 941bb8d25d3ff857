/**
 * `$changeStream` (document_source_change_stream.cpp, its IDL `DocumentSourceChangeStreamSpec`):
 * the specification is parsed and checked here with mongod's errors; the stream itself (reading
 * the change log, shaping events, resuming) is src/storage/change_stream.ts, which the aggregate
 * command opens instead of running the pipeline over a collection. Only the stages of
 * `CHANGE_STREAM_FOLLOWERS` may follow it.
 */
import { Timestamp, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `fullDocument`'s values. */
export const FULL_DOCUMENT_MODES = ['default', 'updateLookup', 'whenAvailable', 'required'] as const;
/** `fullDocumentBeforeChange`'s values. */
export const FULL_DOCUMENT_BEFORE_CHANGE_MODES = ['off', 'whenAvailable', 'required'] as const;

/** A parsed `$changeStream` specification. */
export interface ChangeStreamSpec {
  readonly resumeAfter?: Document;
  readonly startAfter?: Document;
  readonly startAtOperationTime?: Timestamp;
  readonly fullDocument: (typeof FULL_DOCUMENT_MODES)[number];
  readonly fullDocumentBeforeChange: (typeof FULL_DOCUMENT_BEFORE_CHANGE_MODES)[number];
  readonly allChangesForCluster: boolean;
  readonly showExpandedEvents: boolean;
  readonly showSystemEvents: boolean;
  readonly showMigrationEvents: boolean;
  readonly showRawUpdateDescription: boolean;
  readonly allowToRunOnConfigDB: boolean;
  readonly allowToRunOnSystemNS: boolean;
}

/** The stages allowed after `$changeStream` (`isAllowedInChangeStream`). */
export const CHANGE_STREAM_FOLLOWERS: ReadonlySet<string> = new Set([
  '$addFields',
  '$changeStreamSplitLargeEvent',
  '$match',
  '$project',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$set',
  '$unset',
]);

const BOOL_FIELDS = [
  'allChangesForCluster',
  'showMigrationEvents',
  'showSystemEvents',
  'allowToRunOnConfigDB',
  'allowToRunOnSystemNS',
  'showExpandedEvents',
  'showRawUpdateDescription',
  'matchCollectionUUIDForUpdateLookup',
] as const;

function wrongType(field: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '$changeStream.${field}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

function enumValue<T extends string>(field: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw wrongType(field, value, 'string');
  if (!(allowed as readonly string[]).includes(value)) throw new CommandError('BadValue', `Enumeration value '${value}' for field '$changeStream.${field}' is not a valid value.`);
  return value as T;
}

/** Parses `{$changeStream: spec}`'s spec (50808 for a non-object, IDL errors for its fields). */
export function parseChangeStreamSpec(spec: unknown): ChangeStreamSpec {
  if (!isDocument(spec) || Array.isArray(spec)) throw new CommandError(50808, '$changeStream stage expects a document as argument');
  const known = new Set<string>(['resumeAfter', 'startAfter', 'startAtOperationTime', 'fullDocument', 'fullDocumentBeforeChange', ...BOOL_FIELDS]);
  for (const key of Object.keys(spec)) {
    if (!known.has(key) && !key.startsWith('$_')) throw new CommandError('IDLUnknownField', `BSON field '$changeStream.${key}' is an unknown field.`);
  }
  for (const field of ['resumeAfter', 'startAfter'] as const) {
    const v = spec[field];
    if (v !== undefined && (!isDocument(v) || Array.isArray(v))) throw wrongType(field, v, 'object');
  }
  const start = spec.startAtOperationTime;
  if (start !== undefined && !(start instanceof Timestamp)) throw wrongType('startAtOperationTime', start, 'timestamp');
  const bools: Record<string, boolean> = {};
  for (const field of BOOL_FIELDS) {
    const v = spec[field];
    if (v !== undefined && typeof v !== 'boolean') throw wrongType(field, v, 'bool');
    bools[field] = v === true;
  }
  return {
    ...(spec.resumeAfter !== undefined ? { resumeAfter: spec.resumeAfter as Document } : {}),
    ...(spec.startAfter !== undefined ? { startAfter: spec.startAfter as Document } : {}),
    ...(start !== undefined ? { startAtOperationTime: start } : {}),
    fullDocument: enumValue('fullDocument', spec.fullDocument, FULL_DOCUMENT_MODES, 'default'),
    fullDocumentBeforeChange: enumValue('fullDocumentBeforeChange', spec.fullDocumentBeforeChange, FULL_DOCUMENT_BEFORE_CHANGE_MODES, 'off'),
    allChangesForCluster: bools.allChangesForCluster!,
    showExpandedEvents: bools.showExpandedEvents!,
    showSystemEvents: bools.showSystemEvents!,
    showMigrationEvents: bools.showMigrationEvents!,
    showRawUpdateDescription: bools.showRawUpdateDescription!,
    allowToRunOnConfigDB: bools.allowToRunOnConfigDB!,
    allowToRunOnSystemNS: bools.allowToRunOnSystemNS!,
  };
}

/** `{$changeStream: spec}`: parsed here; a stream (never a pass over a collection) runs it. */
export const changeStream: StageDefinition = {
  name: '$changeStream',
  constraints: Object.freeze({
    stream: 'streaming',
    position: 'first',
    input: 'none',
    target: 'either',
    allowedIn: Object.freeze({}),
  }),
  parse(spec) {
    parseChangeStreamSpec(spec);
    return {
      // The aggregate command opens a change stream cursor for a pipeline starting here.
      *run() {},
    };
  },
};
