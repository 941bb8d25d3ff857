/**
 * `$graphLookup` (mongo/src/mongo/db/pipeline/document_source_graph_lookup.cpp, and its
 * execution's breadth-first search): from the values of `startWith` (an array: each element),
 * repeatedly finds the documents of `from` (a collection, or a view: its pipeline runs first)
 * whose `connectToField` matches one of the values (`{$in: [...]}`, with
 * `restrictSearchWithMatch` when given), the next values being their `connectFromField` values
 * (an array: each element); every document is reported once (by `_id`: cycles end), with its
 * depth (Int64, 0 for the first round) at `depthField` when asked, down to `maxDepth` rounds
 * after the first. The documents found go, in the order found, to the array at `as`.
 * Errors as mongod's: the lite parse's `from` (FailedToParse, InvalidNamespace), then each
 * argument in order (40100-40104, 40185, the field paths), then the required ones (40105).
 */
import { Long, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { withContext } from '../../expression/field_path.js';
import type { Evaluator } from '../../expression/types.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { formatValue } from '../../values/format.js';
import { collationKeyString } from '../../values/key_string.js';
import { MISSING } from '../../values/missing.js';
import { isNumber, toDouble } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { TRANSFORM, type PipelineParseContext, type StageDefinition, type StageInstance } from '../stage.js';
import { compileMatchFilter } from './match.js';
import { joinFieldPath, parseSubPipeline, runSubStages, setPath, subPipelineContext, validCollectionName } from './_internal/sub_pipeline.js';

const STRING_FIELDS = new Set(['from', 'as', 'connectFromField', 'connectToField', 'depthField']);

/** `Document::getNestedField`: the value at `parts`, not looking into arrays. */
function nestedField(doc: Document, parts: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const part of parts) {
    if (!isDocument(cur) || !Object.prototype.hasOwnProperty.call(cur, part)) return MISSING;
    cur = cur[part];
  }
  return cur;
}

function compileGraphLookup(spec: unknown, ctx: PipelineParseContext): StageInstance {
  if (!isDocument(spec)) throw new CommandError('FailedToParse', `the $graphLookup stage specification must be an object, but found ${bsonTypeOf(spec)}`);
  const db = ctx.runtime.db;
  if (spec.from === undefined) throw new CommandError('FailedToParse', `missing 'from' option to $graphLookup stage specification: ${formatValue(spec)}`);
  if (typeof spec.from !== 'string') throw new CommandError('FailedToParse', `$graphLookup 'from' field must be a string, but found ${bsonTypeOf(spec.from)}`);
  if (!validCollectionName(spec.from)) throw new CommandError('InvalidNamespace', `invalid $graphLookup namespace: ${db}.${spec.from}`);
  let startWith: Evaluator | undefined;
  let maxDepth: number | undefined;
  let restrict: Document | undefined;
  let from = '';
  let as: string[] | undefined;
  let connectFrom: string[] | undefined;
  let connectTo: string | undefined;
  let depthField: string[] | undefined;
  for (const [name, value] of Object.entries(spec)) {
    if (name === 'startWith') {
      startWith = ctx.expressions.scope.parse(value);
      continue;
    }
    if (name === 'maxDepth') {
      if (!isNumber(value)) throw new CommandError(40100, `maxDepth must be numeric, found type: ${bsonTypeOf(value)}`);
      const d = toDouble(value);
      const truncated = Number.isFinite(d) ? Math.trunc(d) : 0;
      if (truncated < 0) throw new CommandError(40101, `maxDepth requires a nonnegative argument, found: ${truncated}`);
      if (truncated !== d) throw new CommandError(40102, `maxDepth could not be represented as a long long: ${truncated}`);
      maxDepth = truncated;
      continue;
    }
    if (name === 'restrictSearchWithMatch') {
      if (!isDocument(value)) throw new CommandError(40185, `restrictSearchWithMatch must be an object, found ${bsonTypeOf(value)}`);
      restrict = value;
      continue;
    }
    if (STRING_FIELDS.has(name) && typeof value !== 'string') {
      throw new CommandError(40103, `expected string as argument for ${name}, found: ${bsonTypeOf(value)}`);
    }
    const text = value as string;
    if (name === 'from') from = text;
    else if (name === 'as') as = text === '' ? undefined : joinFieldPath(text);
    else if (name === 'connectFromField') connectFrom = text === '' ? undefined : joinFieldPath(text);
    else if (name === 'connectToField') connectTo = text === '' ? undefined : (joinFieldPath(text), text);
    else if (name === 'depthField') depthField = joinFieldPath(text);
    else throw new CommandError(40104, `Unknown argument to $graphLookup: ${name}`);
  }
  if (from === '' || as === undefined || startWith === undefined || connectFrom === undefined || connectTo === undefined) {
    throw new CommandError(40105, "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and 'connectToField' to be specified.");
  }
  const collections = ctx.runtime.collections;
  const view = collections.resolveView(from);
  const source = view ? view.source : from;
  const sub = subPipelineContext(ctx, source).ctx;
  const viewStages = view ? parseSubPipeline([...view.pipeline], sub, 'lookup').stages : [];
  // The search filter parses now (its errors before any document is read).
  const restriction = restrict;
  if (restriction !== undefined) {
    withContext("Failed to parse 'restrictSearchWithMatch' option to $graphLookup", () => compileMatchFilter(restriction, sub.expressions));
  }
  const collator = ctx.expressions.runtime.collator;
  const start = startWith;
  const asPath = as;
  const fromPath = connectFrom;
  const toField = connectTo;
  const useIndex = view === undefined && collections.indexedOn(source, toField);

  const matching = (values: unknown[]): Document[] => {
    const eq: Document = { [toField]: { $in: values } };
    const filter = restriction === undefined ? eq : { $and: [eq, restriction] };
    const predicate = compileMatchFilter(filter, sub.expressions);
    if (useIndex) return [...collections.query(source, { filter, predicate, collator })];
    const base = collections.query(source, { filter: {}, predicate: null, collator });
    const docs = viewStages.length === 0 ? base : runSubStages(viewStages, base);
    const out: Document[] = [];
    for (const doc of docs) if (predicate(doc)) out.push(doc);
    return out;
  };

  return {
    *run(input) {
      for (const doc of input) {
        const visited = new Map<string, Document>();
        const queued = new Set<string>();
        let frontier: unknown[] = [];
        const enqueue = (v: unknown): void => {
          if (v === MISSING) return;
          const key = collationKeyString(v, collator);
          if (queued.has(key)) return;
          queued.add(key);
          frontier.push(v);
        };
        const first = start(ctx.expressions.frame(doc));
        if (Array.isArray(first)) for (const v of first) enqueue(v);
        else enqueue(first); // a missing value queries nothing
        for (let depth = 0; frontier.length > 0 && (maxDepth === undefined || depth <= maxDepth); depth++) {
          const values = frontier;
          frontier = [];
          for (const found of matching(values)) {
            const id = collationKeyString(found._id, collator);
            if (visited.has(id)) continue;
            visited.set(id, depthField === undefined ? found : setPath(found, depthField, Long.fromNumber(depth)));
            const next = nestedField(found, fromPath);
            if (Array.isArray(next)) for (const v of next) enqueue(v);
            else enqueue(next);
          }
        }
        yield setPath(doc, asPath, [...visited.values()]);
      }
    },
  };
}

/** `{$graphLookup: {from, startWith, connectFromField, connectToField, as, maxDepth, depthField, restrictSearchWithMatch}}`. */
export const graphLookup: StageDefinition = {
  name: '$graphLookup',
  constraints: TRANSFORM,
  parse: (spec, ctx) => compileGraphLookup(spec, ctx),
};
