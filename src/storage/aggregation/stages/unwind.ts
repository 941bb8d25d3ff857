/**
 * `$unwind` (mongo/src/mongo/db/pipeline/document_source_unwind.cpp): one output document per
 * element of the array at `path` (a non-array value passes through as if a one-element array).
 * Null, missing and empty arrays drop the document unless `preserveNullAndEmptyArrays`
 * (an empty array is then removed, null kept). `includeArrayIndex` adds the Int64 index
 * (null for preserved or non-array values). The path does not descend into arrays.
 */
import { Long, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { parseFieldPath } from '../../expression/field_path.js';
import { isDocument } from '../../values/paths.js';
import { TRANSFORM, type StageDefinition } from '../stage.js';

const hasOwn = Object.prototype.hasOwnProperty;

function getNested(doc: Document, parts: readonly string[]): { found: boolean; value: unknown } {
  let cur: unknown = doc;
  for (const part of parts) {
    if (!isDocument(cur) || !hasOwn.call(cur, part)) return { found: false, value: undefined };
    cur = cur[part];
  }
  return { found: true, value: cur };
}

/** A copy of `doc` with `value` at `parts` (copies along the path; creates documents as needed). */
function setNested(doc: Document, parts: readonly string[], value: unknown, remove = false): Document {
  const out: Document = { ...doc };
  const name = parts[0]!;
  if (parts.length === 1) {
    if (remove) delete out[name];
    else setOwn(out, name, value);
    return out;
  }
  const child = out[name];
  setOwn(out, name, setNested(isDocument(child) ? child : {}, parts.slice(1), value, remove));
  return out;
}

/** Sets an own data property, so that a field named `__proto__` stays a field. */
function setOwn(doc: Document, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(doc, name, { value, writable: true, enumerable: true, configurable: true });
  else doc[name] = value;
}

/** mongod's maximum number of components in a field path (`BSONDepth::getMaxAllowableDepth()`). */
const MAX_PATH_PARTS = 200;

/** Compiles an `$unwind` specification into its transform. */
function compileUnwind(spec: unknown): (input: Iterable<Document>) => Iterable<Document> {
  let path = '';
  let preserve = false;
  let indexField: string | null = null;
  if (isDocument(spec)) {
    for (const [key, value] of Object.entries(spec)) {
      if (key === 'path') {
        if (typeof value !== 'string') {
          throw new CommandError(28808, `expected a string as the path for $unwind stage, got ${bsonTypeOf(value)}`);
        }
        path = value;
      } else if (key === 'preserveNullAndEmptyArrays') {
        if (typeof value !== 'boolean') {
          throw new CommandError(
            28809,
            `expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage, got ${bsonTypeOf(value)}`,
          );
        }
        preserve = value;
      } else if (key === 'includeArrayIndex') {
        if (typeof value !== 'string' || value.length === 0) {
          throw new CommandError(
            28810,
            `expected a non-empty string for the includeArrayIndex  option to $unwind stage, got ${bsonTypeOf(value)}`,
          );
        }
        if (value.charCodeAt(0) === 36) {
          throw new CommandError(
            28822,
            `includeArrayIndex option to $unwind stage should not be prefixed with a '$': ${value}`,
          );
        }
        indexField = value;
      } else {
        throw new CommandError(28811, `unrecognized option to $unwind stage: ${key}`);
      }
    }
  } else if (typeof spec === 'string') {
    path = spec;
  } else {
    throw new CommandError(
      15981,
      `expected either a string or an object as specification for $unwind stage, got ${bsonTypeOf(spec)}`,
    );
  }
  if (path.length === 0) throw new CommandError(28812, 'no path specified to $unwind stage');
  if (path.charCodeAt(0) !== 36) {
    throw new CommandError(28818, `path option to $unwind stage should be prefixed with a '$': ${path}`);
  }
  // The path is parsed as an expression field path: its null-byte check comes first (16419).
  if (path.includes('\0')) throw new CommandError(16419, 'field path must not contain embedded null characters');
  const parts = parseFieldPath(path.slice(1));
  if (parts.length > MAX_PATH_PARTS) throw new CommandError('Overflow', 'FieldPath is too long');
  const indexParts = indexField === null ? null : parseFieldPath(indexField);
  const withIndex = (doc: Document, index: unknown): Document =>
    indexParts === null ? doc : setNested(doc, indexParts, index);
  return function* unwind(input) {
    for (const doc of input) {
      const { found, value } = getNested(doc, parts);
      if (Array.isArray(value)) {
        if (value.length === 0) {
          if (preserve) yield withIndex(setNested(doc, parts, undefined, true), null);
          continue;
        }
        for (let i = 0; i < value.length; i++) {
          yield withIndex(setNested(doc, parts, value[i]), Long.fromNumber(i));
        }
      } else if (!found || value === null || value === undefined) {
        if (preserve) yield withIndex(doc, null);
      } else {
        yield withIndex(doc, null);
      }
    }
  };
}

/** `{$unwind: "$path"}` or `{$unwind: {path, includeArrayIndex, preserveNullAndEmptyArrays}}`. */
export const unwind: StageDefinition = {
  name: '$unwind',
  constraints: TRANSFORM,
  parse: (spec) => ({ run: compileUnwind(spec) }),
};
