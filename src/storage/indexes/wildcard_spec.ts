/**
 * The checks of a wildcard index spec (mongod's index_key_validate.cpp and the wildcard
 * projection parser): `wildcardProjection` only on a `$**` key, a non-empty document of 0/1
 * values that neither mixes inclusion and exclusion nor names a path and one below it; one
 * wildcard field per key pattern; the regular fields of a compound wildcard index excluded from
 * its scope; no TTL, no v:1. Returns the error for a bad spec, or null.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { isDocument } from '../values/paths.js';
import { WildcardScope } from './wildcard_keys.js';

const isWildcardField = (f: string): boolean => f === '$**' || f.endsWith('.$**');

/**
 * The error of `spec` as a wildcard index spec, or of `wildcardProjection` on another kind
 * (`okError` makes mongod's CannotCreateIndex "Error in specification" errors).
 */
export function wildcardSpecError(spec: Document, isWildcard: boolean, okError: (why: string) => CommandError): CommandError | null {
  const projection = spec.wildcardProjection;
  if (projection !== undefined) {
    if (!isDocument(projection)) return new CommandError('TypeMismatch', `The field 'wildcardProjection' must be a non-empty object, but got ${bsonTypeOf(projection)}`);
    if (!isWildcard) return new CommandError('BadValue', "The field 'wildcardProjection' is only allowed in an '$**' index");
  }
  if (!isWildcard) return null;
  const fields = Object.keys(spec.key as Document);
  const wildcardFields = fields.filter(isWildcardField);
  if (wildcardFields.length > 1) return new CommandError(7246201, 'A compound wildcard index must have exactly one wildcard component');
  if ('expireAfterSeconds' in spec) return okError("Index type 'wildcard' does not support the 'expireAfterSeconds' option");
  if (isNumber(spec.v) && toDouble(spec.v) < 2) return okError(`Index type 'wildcard' requires index version v:2 or above, but the index has v:${toDouble(spec.v)}`);
  if (projection === undefined) {
    if (wildcardFields[0] === '$**' && fields.length > 1) return okError("The field 'wildcardProjection' is required when 'key' is a compound wildcard index with '$**' and must exclude the regular index fields");
    return null;
  }
  const doc = projection as Document;
  if (Object.keys(doc).length === 0) return new CommandError('FailedToParse', "The 'wildcardProjection' field can't be an empty object");
  if (wildcardFields[0] !== '$**') return new CommandError('FailedToParse', "The field 'wildcardProjection' is only allowed when 'key' is {\"$**\": ±1}");
  const paths: Array<[string, boolean]> = [];
  const flatten = (obj: Document, prefix: string): CommandError | null => {
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix === '' ? k : `${prefix}.${k}`;
      if (isDocument(v) && Object.keys(v).length > 0 && !Object.keys(v)[0]!.startsWith('$')) {
        const err = flatten(v, path);
        if (err) return err;
        continue;
      }
      if (!isNumber(v) && typeof v !== 'boolean') return new CommandError(51271, 'Bad projection specification, cannot use computed fields when parsing a spec in kBanComputedFields mode');
      paths.push([path, isNumber(v) ? toDouble(v) !== 0 : v === true]);
    }
    return null;
  };
  const err = flatten(doc, '');
  if (err) return err;
  let mode: boolean | null = null;
  for (const [path, include] of paths) {
    if (path === '_id') continue;
    if (mode === null) mode = include;
    else if (mode !== include) {
      const last = path.split('.').pop();
      return include ? new CommandError(31253, `Cannot do inclusion on field ${last} in exclusion projection`) : new CommandError(31254, `Cannot do exclusion on field ${last} in inclusion projection`);
    }
  }
  for (let i = 0; i < paths.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a] = paths[j]!;
      const [b] = paths[i]!;
      if (b.startsWith(a + '.')) return new CommandError(31249, `Path collision at ${b} remaining portion ${b.slice(a.length + 1)}`);
      if (a.startsWith(b + '.')) return new CommandError(31250, `Path collision at ${a}`);
    }
  }
  const scope = new WildcardScope('$**', doc);
  const overlapping = fields.filter((f) => !isWildcardField(f) && scope.mayHoldBelow(f));
  if (overlapping.length > 0) {
    return new CommandError(7246209, `The wildcardProjection must exclude the regular index fields of a compound wildcard index: ${overlapping.join(', ')}`);
  }
  return null;
}
