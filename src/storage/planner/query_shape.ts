/**
 * The query shape (mongod's canonical query encoding for the plan cache commands,
 * `canonical_query_encoder::encodeForPlanCacheCommand`): the normalised filter with its values
 * erased, the sort, the projection and the collation. Queries of one shape share explain's
 * `queryHash`/`planCacheKey` and an index filter (`index_filters.ts`).
 */
import type { Document } from '../../bson/library.js';

/** The parts of a query its shape is made of. */
export interface QueryShapeParts {
  /** The normalised filter (explain's `parsedQuery`). */
  readonly parsedQuery: Document;
  readonly sort?: Document | null;
  readonly projection?: Document | null;
  /** The collation spec (absent or null: the simple collation). */
  readonly collation?: Document | null;
}

/**
 * The filter with every value erased (operators and paths kept), as the plan cache encodes it:
 * `$expr` is one opaque predicate (its operators are not part of the key), `$jsonSchema` keeps
 * its keywords and fields, and `$type` is one literal (whatever types it asks for, in a list or
 * not).
 */
function erase(value: unknown, key?: string): unknown {
  if (key === '$expr') return '?expr';
  if (key === '$jsonSchema') return value;
  if (key === '$type') return '?type';
  if (Array.isArray(value)) return value.map((x) => erase(x));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Document = {};
    for (const [k, x] of Object.entries(value as Document)) out[k] = erase(x, k);
    return out;
  }
  return '?';
}

/** A projection's paths sorted (the plan cache does not tell `{a, b}` from `{b, a}`). */
function sortedKeys(doc: Document): Document {
  const out: Document = {};
  for (const k of Object.keys(doc).sort()) out[k] = doc[k];
  return out;
}

/** Non-empty documents only: `{}` and null are the same as no sort, projection or collation. */
function given(doc: Document | null | undefined): Document | undefined {
  return doc && Object.keys(doc).length > 0 ? doc : undefined;
}

/** The shape of a query as one comparable string. */
export function queryShapeKey(parts: QueryShapeParts): string {
  const projection = given(parts.projection);
  return JSON.stringify({ q: erase(parts.parsedQuery), s: given(parts.sort), p: projection && sortedKeys(projection), c: given(parts.collation) });
}

/** explain's shape text: the erased filter and what else the command adds (`extra`). */
export function explainShapeText(parsedQuery: Document, extra: Document): string {
  const shaped: Document = { ...extra };
  if (isPlainDocument(shaped.projection)) shaped.projection = sortedKeys(shaped.projection);
  return JSON.stringify({ q: erase(parsedQuery), ...shaped });
}

function isPlainDocument(value: unknown): value is Document {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
