/**
 * Candidate records for a filter, for callers that apply the filter themselves (an aggregation's
 * leading `$match`, `$merge`'s lookups): the planner's choice (an `_id` or unique-index point
 * lookup, index bounds, or the whole collection — `src/storage/planner/`), run without the
 * filter. Every matching record is among the candidates; everything is lazy and visibility-checked.
 */
import type { Document } from '../../bson/library.js';
import type { Collection } from '../collection.js';
import type { StoredDocument } from '../record.js';
import type { Collator } from '../values/collator.js';
import { executePlan } from './execute.js';
import { planQuery } from './plan.js';
import { ALWAYS_TRUE } from '../query/compile_filter.js';

/**
 * Records that may match `filter` (a superset of the matches), in the plan's order; `hint` as
 * find's; `collator` the query's collation (which indexes may bound strings).
 */
export function* candidateRecords(coll: Collection, filter: Document, nowMs: () => number, hint?: unknown, collator?: Collator | null): Generator<StoredDocument> {
  const plan = planQuery(coll, { filter, hint, collator });
  yield* executePlan(plan, { coll, predicate: ALWAYS_TRUE, now: nowMs });
}
