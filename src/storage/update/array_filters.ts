/**
 * `arrayFilters` for `$[<identifier>]` (mongo/src/mongo/db/query/write_ops/
 * parsed_update_array_filters.cpp, matcher/expression_with_placeholder.cpp):
 *   - each filter is parsed as a query (special features such as `$expr` and `$where` banned),
 *     then its single top-level field name, the "placeholder", becomes the identifier; the
 *     placeholder must match `^[a-z][a-zA-Z0-9]*$`;
 *   - an array element matches when the filter matches `{<identifier>: element}`, strings
 *     compared under the update's collation.
 * Errors carry mongod's "Error parsing array filter :: caused by ::" context where mongod adds it.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compileFilter } from '../query/compile_filter.js';
import type { Collator } from '../values/collator.js';
import { isDocument } from '../values/paths.js';

/** One parsed array filter: does an array element match? */
export type ArrayElementTest = (element: unknown) => boolean;

/** Parsed array filters by identifier (insertion order = specification order). */
export type ArrayFilters = ReadonlyMap<string, ArrayElementTest>;

/** No array filters. */
export const NO_ARRAY_FILTERS: ArrayFilters = new Map();

const PLACEHOLDER = /^[a-z][a-zA-Z0-9]*$/;

function withContext(err: unknown): never {
  if (err instanceof CommandError) {
    throw new CommandError(err.code, `Error parsing array filter :: caused by :: ${err.message}`, err.extra);
  }
  throw err;
}

/** `parseTopLevelFieldName`: the single top-level field of a filter, through $and/$or/$nor. */
function placeholderOf(filter: Document): string | undefined {
  let placeholder: string | undefined;
  const take = (candidate: string | undefined): void => {
    if (candidate === undefined) return;
    if (placeholder === undefined) {
      placeholder = candidate;
      return;
    }
    if (candidate !== placeholder) {
      throw new CommandError(
        'FailedToParse',
        `Expected a single top-level field name, found '${placeholder}' and '${candidate}'`,
      );
    }
  };
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (Array.isArray(value)) for (const sub of value) if (isDocument(sub)) take(placeholderOf(sub));
      continue;
    }
    if (key.charCodeAt(0) === 36) continue;
    const dot = key.indexOf('.');
    take(dot < 0 ? key : key.slice(0, dot));
  }
  return placeholder;
}

/** Parses `arrayFilters` (already checked to be an array of documents) under `collator` (null: simple). */
export function parseArrayFilters(raw: readonly Document[] | undefined, collator: Collator | null = null): ArrayFilters {
  if (raw === undefined || raw.length === 0) return NO_ARRAY_FILTERS;
  const out = new Map<string, ArrayElementTest>();
  for (const filter of raw) {
    let predicate: (doc: Document) => boolean;
    let placeholder: string | undefined;
    try {
      predicate = compileFilter(filter, {
        whereAllowed: false,
        collator,
        compileExpr: () => {
          throw new CommandError('QueryFeatureNotAllowed', '$expr is not allowed in this context');
        },
      });
      placeholder = placeholderOf(filter);
      if (placeholder !== undefined && !PLACEHOLDER.test(placeholder)) {
        throw new CommandError(
          'BadValue',
          `The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${placeholder}'`,
        );
      }
    } catch (err) {
      withContext(err);
    }
    if (placeholder === undefined) {
      throw new CommandError('FailedToParse', 'Cannot use an expression without a top-level field name in arrayFilters');
    }
    if (out.has(placeholder)) {
      throw new CommandError('FailedToParse', `Found multiple array filters with the same top-level field name ${placeholder}`);
    }
    const name = placeholder;
    out.set(name, (element) => predicate({ [name]: element }));
  }
  return out;
}
