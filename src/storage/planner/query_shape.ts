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

/** The filter with every value erased (operators and paths kept). */
function erase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(erase);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Document = {};
    for (const [k, x] of Object.entries(value as Document)) out[k] = erase(x);
    return out;
  }
  return '?';
}

/** Non-empty documents only: `{}` and null are the same as no sort, projection or collation. */
function given(doc: Document | null | undefined): Document | undefined {
  return doc && Object.keys(doc).length > 0 ? doc : undefined;
}

/** The shape of a query as one comparable string. */
export function queryShapeKey(parts: QueryShapeParts): string {
  return JSON.stringify({ q: erase(parts.parsedQuery), s: given(parts.sort), p: given(parts.projection), c: given(parts.collation) });
}

/** explain's shape text: the erased filter and what else the command adds (`extra`). */
export function explainShapeText(parsedQuery: Document, extra: Document): string {
  return JSON.stringify({ q: erase(parsedQuery), ...extra });
}
