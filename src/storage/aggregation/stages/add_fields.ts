/**
 * `$addFields` and its alias `$set` (mongo/src/mongo/db/pipeline/parsed_add_fields.cpp): every
 * field is an expression (a literal `1` is the number 1); a sub-object without a leading
 * `$`-field is a nested specification; existing fields are replaced in place, new ones
 * appended in specification order; an empty specification passes documents through, an empty
 * sub-object sets the value `{}`. Validation (40176/40181/40183) as mongod's
 * ProjectionSpecValidator; errors carry "Invalid $addFields :: caused by ::" (or `$set`).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { ExecNode, applyExpressions } from '../../projection/projection_executor.js';
import { Scope } from '../../expression/scope.js';
import type { Frame } from '../../expression/types.js';
import { parseFieldPath, withContext } from '../../expression/field_path.js';
import { formatValue } from '../../values/format.js';
import { isDocument } from '../../values/paths.js';
import { withMetadataOf } from '../../values/metadata.js';
import { TRANSFORM, type StageDefinition } from '../stage.js';

function isPathPrefixOf(prefix: string, path: string): boolean {
  return path.length > prefix.length && path.startsWith(prefix) && path[prefix.length] === '.';
}

/** mongod's ProjectionSpecValidator (neighbour checks over the sorted set of seen paths). */
function validateSpec(spec: Document): void {
  const seen: string[] = [];
  const ensureNoConflict = (path: string): void => {
    let lo = 0;
    let hi = seen.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seen[mid]! < path) lo = mid + 1;
      else hi = mid;
    }
    let conflict: string | undefined;
    if (seen[lo] === path) conflict = path;
    else {
      seen.splice(lo, 0, path);
      if (lo > 0 && isPathPrefixOf(seen[lo - 1]!, path)) conflict = seen[lo - 1];
      else if (lo + 1 < seen.length && isPathPrefixOf(path, seen[lo + 1]!)) conflict = seen[lo + 1];
    }
    if (conflict !== undefined) {
      throw new CommandError(
        40176,
        `specification contains two conflicting paths. Cannot specify both '${path}' and '${conflict}': ${formatValue(spec)}`,
      );
    }
  };
  const parseNested = (obj: Document, prefix: string): void => {
    const keys = Object.keys(obj);
    // mongod 8.2 takes an empty sub-object as the value `{}`, replacing what was there.
    if (keys.length === 0) {
      ensureNoConflict(prefix);
      return;
    }
    for (const key of keys) {
      if (key.charCodeAt(0) === 36) {
        if (keys.length !== 1) {
          throw new CommandError(
            40181,
            `an expression specification must contain exactly one field, the name of the expression. Found ${keys.length} fields in ${formatValue(obj)}, while parsing object ${formatValue(spec)}`,
          );
        }
        ensureNoConflict(prefix);
        continue;
      }
      if (key.includes('.')) {
        throw new CommandError(40183, `cannot use dotted field name '${key}' in a sub object: ${formatValue(spec)}`);
      }
      parseElement(obj[key], `${prefix}.${key}`);
    }
  };
  const parseElement = (value: unknown, path: string): void => {
    if (isDocument(value)) parseNested(value, path);
    else ensureNoConflict(path);
  };
  for (const key of Object.keys(spec)) {
    parseFieldPath(key);
    parseElement(spec[key], key);
  }
}

function addSubObject(root: ExecNode, obj: Document, prefix: string[], scope: Scope): void {
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    const parts = [...prefix, ...parseFieldPath(key)];
    if (isDocument(value)) {
      const first = Object.keys(value)[0];
      if (first === undefined || first.charCodeAt(0) === 36) root.addExpression(parts, scope.parse(value));
      else addSubObject(root, value, parts, scope);
    } else {
      root.addExpression(parts, scope.parse(value));
    }
  }
}

/**
 * Compiles an `$addFields`/`$set` specification into a per-document function; its expressions
 * are parsed in `scope` (which says which variables they may read).
 */
export function compileAddFields(spec: Document, name: string, scope: Scope = Scope.root()): (doc: Document, frame: Frame) => Document {
  return withContext(`Invalid ${name}`, () => {
    validateSpec(spec);
    const root = new ExecNode();
    addSubObject(root, spec, [], scope);
    return (doc: Document, frame: Frame) => {
      const out: Document = { ...doc };
      applyExpressions(root, frame, out, true);
      return out;
    };
  });
}

/** The stage `{<name>: spec}`: `$addFields`, or its alias `$set` (which its errors then name). */
export function addFieldsStage(name: '$addFields' | '$set'): StageDefinition {
  return {
    name,
    constraints: { ...TRANSFORM, allowedIn: { ...TRANSFORM.allowedIn, update: true } },
    parse(spec, ctx) {
      if (!isDocument(spec)) {
        throw new CommandError(40272, `${name} specification stage must be an object, got ${bsonTypeOf(spec)}`);
      }
      const apply = compileAddFields(spec, name, ctx.expressions.scope);
      const expressions = ctx.expressions;
      return {
        *run(input) {
          for (const doc of input) yield withMetadataOf(doc, apply(doc, expressions.frame(doc)));
        },
      };
    },
  };
}

/** `$addFields`. */
export const addFields = addFieldsStage('$addFields');
