/**
 * Planning over a wildcard index (mongod's planner_wildcard_helpers.cpp): the index is expanded,
 * for one query path it holds, into the compound index `{$_path: 1, <path>: 1}` (the regular
 * fields of a compound wildcard index kept in place), and scanned with
 *
 * - `$_path` bounds `["path", "path"]`, plus the subpaths `["path.", "path/")` when the value
 *   bounds hold documents (an object is indexed by its leaves, so `$exists: true` or a bracket
 *   over objects must read them; the value bounds are then every value and the FETCH filter
 *   decides);
 * - the value bounds of the path's predicates (one predicate on a multikey path).
 *
 * A predicate a wildcard index cannot answer is left to FETCH: one that matches a missing field
 * (`{a: null}`, `$exists: false`, `$nin`, `$ne` but `$ne: null`: the index holds no key for
 * a missing path), an equality or `$in` with a non-empty document or array (indexed by its
 * elements and leaves, never whole), and a path with a numeric component (array positions are
 * not in the indexed paths). Among the paths left, the one whose bounds hold the fewest keys is
 * taken. A hinted wildcard index with no usable path (and, when compound, no bounded regular
 * field) is refused with mongod's NoQueryExecutionPlans.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { sameCollation } from '../indexes/collation.js';
import type { Index } from '../indexes/index.js';
import { WILDCARD_PATH_FIELD } from '../indexes/wildcard_keys.js';
import type { SortKey } from '../query/sort.js';
import type { Collator } from '../values/collator.js';
import { isDocument } from '../values/paths.js';
import { ALL_VALUES, intersect, isAllValues, point, type IntervalList } from './intervals.js';
import { estimateKeys } from './index_scan.js';
import type { FilterAnalysis, PathPredicate } from './predicates.js';

/** A wildcard index expanded for one path, with its bounds. */
export interface WildcardCandidate {
  readonly index: Index;
  /** The query path the scan reads (null: a compound index scanned on its regular fields only). */
  readonly path: string | null;
  readonly bounds: IntervalList[];
  readonly exactlyUsed: Set<PathPredicate>;
  readonly sortDirection: 1 | -1 | 0;
  /** Estimated keys in the bounds. */
  readonly keys: number;
}

/** The best expansion of wildcard `index` for `analysis`, or null when it answers no predicate. */
export function wildcardCandidate(index: Index, analysis: FilterAnalysis, sortKeys: SortKey[]): WildcardCandidate | null {
  const scope = index.wildcard!.scope;
  const at = index.fields.indexOf(WILDCARD_PATH_FIELD);
  const collator = analysis.collator;
  const usable = analysis.predicates.filter((p) => p.bounds !== null && usableOn(p, index, collator));
  // The regular fields of a compound wildcard index (never multikey: 7246301).
  const regularBounds: IntervalList[] = index.fields.map(() => ALL_VALUES);
  const regularExact = new Set<PathPredicate>();
  index.fields.forEach((field, i) => {
    if (i === at || i === at + 1) return;
    let b: IntervalList = ALL_VALUES;
    for (const p of usable) {
      if (p.path !== field) continue;
      b = intersect(b, p.bounds!, index.compareValue);
      if (p.exact) regularExact.add(p);
    }
    regularBounds[i] = b;
  });
  const paths = [...new Set(usable.filter((p) => wildcardAnswers(p) && scope.holds(p.path) && !hasNumericComponent(p.path)).map((p) => p.path))];
  const regularBounded = regularBounds.some((b, i) => i !== at && i !== at + 1 && !isAllValues(b));
  const options: WildcardCandidate[] = [];
  for (const path of paths) {
    const bounds = regularBounds.slice();
    const exactlyUsed = new Set(regularExact);
    const preds = usable.filter((p) => p.path === path && wildcardAnswers(p));
    let value: IntervalList = ALL_VALUES;
    if (index.isMultikeyPath(path)) {
      const best = preds.find((p) => !isAllValues(p.bounds!)) ?? preds[0]!;
      value = best.bounds!;
      if (best.exact) exactlyUsed.add(best);
    } else {
      for (const p of preds) {
        value = intersect(value, p.bounds!, index.compareValue);
        if (p.exact) exactlyUsed.add(p);
      }
    }
    if (holdsDocuments(value, index)) {
      bounds[at] = [point(path), { start: `${path}.`, startInclusive: true, end: `${path}/`, endInclusive: false }];
      bounds[at + 1] = ALL_VALUES;
      for (const p of preds) exactlyUsed.delete(p);
    } else {
      bounds[at] = [point(path)];
      bounds[at + 1] = value;
    }
    options.push({ index, path, bounds, exactlyUsed, sortDirection: sortDirectionOf(index, path, bounds, sortKeys, at), keys: estimateKeys(index, bounds) });
  }
  if (options.length === 0) {
    if (!regularBounded) return null;
    return { index, path: null, bounds: regularBounds, exactlyUsed: regularExact, sortDirection: 0, keys: estimateKeys(index, regularBounds) };
  }
  options.sort((a, b) => a.keys - b.keys || Number(b.sortDirection !== 0) - Number(a.sortDirection !== 0));
  return options[0]!;
}

/** mongod's refusal when a hinted wildcard index answers no predicate of the query. */
export function noWildcardPlan(): CommandError {
  return new CommandError('NoQueryExecutionPlans', 'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index');
}

/** The key pattern explain shows for a scan of `index` expanded for `path`. */
export function expandedKeyPattern(index: Index, path: string | null): Document {
  const out: Document = {};
  for (const [field, direction] of Object.entries(index.keyPattern)) {
    if (field === '$**' || field.endsWith('.$**')) {
      out[WILDCARD_PATH_FIELD] = 1;
      out[path ?? field] = direction;
    } else {
      out[field] = direction;
    }
  }
  return out;
}

/** True when a wildcard index can answer `p` on its path (see the module comment). */
function wildcardAnswers(p: PathPredicate): boolean {
  if (p.matchesMissing) return false;
  if (p.op === '$eq' || p.op === '$in') {
    const values = p.op === '$in' && Array.isArray(p.value) ? p.value : [p.value];
    return values.every((v) => !(Array.isArray(v) && v.length > 0) && !(isDocument(v) && Object.keys(v).length > 0));
  }
  return true;
}

function hasNumericComponent(path: string): boolean {
  return path.split('.').some((part) => /^[0-9]+$/.test(part));
}

/** True when `value` bounds include some document (objects are indexed by their leaves). */
function holdsDocuments(value: IntervalList, index: Index): boolean {
  const objects: IntervalList = [{ start: {}, startInclusive: true, end: [], endInclusive: false }];
  return intersect(value, objects, index.compareValue).some((i) => !(isDocument(i.start) && Object.keys(i.start).length === 0 && isDocument(i.end) && i.startInclusive && i.endInclusive));
}

/** The direction providing `sortKeys` (a sort on the one scanned path, not multikey), or 0. */
function sortDirectionOf(index: Index, path: string, bounds: IntervalList[], sortKeys: SortKey[], at: number): 1 | -1 | 0 {
  if (sortKeys.length !== 1 || sortKeys[0]!.path !== path || bounds[at]!.length !== 1 || index.isMultikeyPath(path)) return 0;
  if (index.fields.some((_, i) => i < at && !(bounds[i]!.length === 1 && index.compareValue(bounds[i]![0]!.start, bounds[i]![0]!.end) === 0))) return 0;
  return (sortKeys[0]!.direction * index.directions[at + 1]!) as 1 | -1;
}

function usableOn(p: PathPredicate, index: Index, collator: Collator | null): boolean {
  if (p.binaryOnly && index.collation !== null) return false;
  return !p.collatable || sameCollation(index.collation, collator === null ? null : collator.spec);
}
