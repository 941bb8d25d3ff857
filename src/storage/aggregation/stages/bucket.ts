/**
 * `$bucket` (mongo/src/mongo/db/pipeline/document_source_bucket.cpp): mongod desugars it into a
 * `$group` whose `_id` is a `$switch` over the half-open intervals `[boundaries[i],
 * boundaries[i+1])` (the default bucket its `default`), followed by `{$sort: {_id: 1}}`. Mayfly
 * assigns each document to its interval by a binary search over the boundaries (the intervals are
 * disjoint and ascending, so it is the branch the `$switch` would take), accumulates the `output`
 * fields (`count: {$sum: 1}` when `output` is absent) with `$group`'s states, and emits the
 * non-empty buckets ordered by `_id`.
 *
 * The specification is checked in its own field order, as mongod does: an object (40201);
 * `groupBy` a `$`-path or an expression object (40202); `boundaries` an array (40200) of
 * constants (40191), at least two (40192), of one canonical type (40193), strictly ascending
 * (40194); `default` a constant (40195); `output` an object (40196); nothing else (40197); then
 * `groupBy` and `boundaries` are required (40198) and a `default` of the boundaries' type must
 * lie outside them (40199); the output fields are then `$group`'s (40234..., 15948 for `_id`).
 * A document in no interval without a default is `$switch`'s 40066.
 */
import { Code, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { ExpressionContext } from '../../expression/context.js';
import type { Evaluator } from '../../expression/types.js';
import { CONSTANT_FRAME } from '../../expression/value.js';
import { keyBoundAsDocument } from '../../accumulators/_internal.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues, typeRank } from '../../values/compare.js';
import { isFoldableOperand } from '../../values/constant_operand.js';
import { docValueToString, formatValue } from '../../values/format.js';
import { MISSING } from '../../values/missing.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type StageDefinition, type StageInstance } from '../stage.js';
import { AccumulatedStates, parseAccumulatedField, type AccumulatedField } from './_internal/accumulated_fields.js';

const EMPTY: Document = Object.freeze({}) as Document;

/**
 * The value of `raw` when mongod's optimizer folds it into a constant (`getExpressionConstant`),
 * else MISSING.
 */
export function foldedConstant(raw: unknown, expressions: ExpressionContext): unknown {
  if (!isFoldableOperand(raw)) return MISSING;
  return expressions.parse(raw)(CONSTANT_FRAME);
}

/** True for a `groupBy` mongod accepts: a `$`-prefixed string or an object whose first field is an operator. */
export function isGroupByExpression(groupBy: unknown): boolean {
  if (typeof groupBy === 'string') return groupBy.charCodeAt(0) === 36;
  if (!isDocument(groupBy)) return false;
  const first = Object.keys(groupBy)[0];
  return first !== undefined && first.charCodeAt(0) === 36;
}

function checkBoundaries(raw: unknown, expressions: ExpressionContext): unknown[] {
  if (!Array.isArray(raw)) {
    throw new CommandError(40200, `The $bucket 'boundaries' field must be an array, but found type: ${bsonTypeOf(raw)}.`);
  }
  const values = raw.map((element) => {
    const v = foldedConstant(element, expressions);
    if (v === MISSING) {
      throw new CommandError(40191, `The $bucket 'boundaries' field must be an array of constant values, but found value: ${formatValue(element)}.`);
    }
    return v;
  });
  if (values.length < 2) {
    throw new CommandError(40192, `The $bucket 'boundaries' field must have at least 2 values, but found ${values.length} value(s).`);
  }
  const collator = expressions.runtime.collator;
  for (let i = 1; i < values.length; i++) {
    const lower = values[i - 1];
    const upper = values[i];
    if (typeRank(lower) !== typeRank(upper)) {
      throw new CommandError(
        40193,
        `All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types ${bsonTypeOf(lower)} and ${bsonTypeOf(upper)}.`,
      );
    }
    if (compareValues(lower, upper, collator) >= 0) {
      throw new CommandError(
        40194,
        `The 'boundaries' option to $bucket must be sorted, but elements ${i - 1} and ${i} are not in ascending order (${docValueToString(lower)} is not less than ${docValueToString(upper)}).`,
      );
    }
  }
  return values;
}

/** The default bucket's `_id`: the constant as it is, a Code without scope as its string (mongod 8.2's result). */
function defaultId(value: unknown): unknown {
  if (value instanceof Code && (value.scope === undefined || value.scope === null)) return value.code;
  return value;
}

function compileBucket(spec: unknown, expressions: ExpressionContext): StageInstance {
  if (!isDocument(spec)) {
    throw new CommandError(40201, `Argument to $bucket stage must be an object, but found type: ${bsonTypeOf(spec)}.`);
  }
  let groupBy: unknown = MISSING;
  let boundaries: unknown[] | undefined;
  let defaultValue: unknown = MISSING;
  let output: Document | undefined;
  for (const name of Object.keys(spec)) {
    const value = spec[name];
    if (name === 'groupBy') {
      if (!isGroupByExpression(value)) {
        throw new CommandError(40202, `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: ${formatValue(value)}.`);
      }
      groupBy = value;
    } else if (name === 'boundaries') {
      boundaries = checkBoundaries(value, expressions);
    } else if (name === 'default') {
      const v = foldedConstant(value, expressions);
      if (v === MISSING) throw new CommandError(40195, `The $bucket 'default' field must be a constant expression, but found: ${formatValue(value)}.`);
      defaultValue = v;
    } else if (name === 'output') {
      if (!isDocument(value)) throw new CommandError(40196, `The $bucket 'output' field must be an object, but found type: ${bsonTypeOf(value)}.`);
      output = value;
    } else {
      throw new CommandError(40197, `Unrecognized option to $bucket: ${name}.`);
    }
  }
  if (groupBy === MISSING || boundaries === undefined || boundaries.length === 0) {
    throw new CommandError(40198, "$bucket requires 'groupBy' and 'boundaries' to be specified.");
  }
  const collator = expressions.runtime.collator;
  const bounds = boundaries;
  if (defaultValue !== MISSING && typeRank(defaultValue) === typeRank(bounds[0])) {
    const below = compareValues(defaultValue, bounds[0], collator) < 0;
    const above = compareValues(defaultValue, bounds[bounds.length - 1], collator) >= 0;
    if (!below && !above) {
      throw new CommandError(40199, "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.");
    }
  }
  // The `$group` mongod builds: the output fields first, then `_id`, which the output may not name.
  const fields: AccumulatedField[] = [];
  if (output === undefined) {
    fields.push(parseAccumulatedField('count', { $sum: 1 }, expressions.scope, collator));
  } else {
    for (const field of Object.keys(output)) {
      if (field === '_id') {
        expressions.parse(output._id);
        throw new CommandError(15948, "a group's _id may only be specified once");
      }
      fields.push(parseAccumulatedField(field, output[field], expressions.scope, collator));
    }
  }
  const key: Evaluator = expressions.parse(groupBy);
  const hasDefault = defaultValue !== MISSING;
  const defaultKey = defaultId(defaultValue);
  /** The interval of `v`: `i` for `[bounds[i], bounds[i+1])`, -1 for none. */
  const intervalOf = (v: unknown): number => {
    if (compareValues(v, bounds[0], collator) < 0) return -1;
    let lo = 0;
    let hi = bounds.length - 1;
    if (compareValues(v, bounds[hi], collator) >= 0) return -1;
    // bounds[lo] <= v < bounds[hi]
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (compareValues(v, bounds[mid], collator) >= 0) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  return {
    *run(input) {
      const buckets = new Map<number, { id: unknown; states: AccumulatedStates }>();
      for (const doc of input) {
        const frame = expressions.frame(doc);
        const i = intervalOf(key(frame));
        if (i < 0 && !hasDefault) {
          throw new CommandError(40066, '$switch could not find a matching branch for an input, and no default was specified.');
        }
        let b = buckets.get(i);
        if (b === undefined) {
          const id = i < 0 ? defaultKey : bounds[i];
          b = { id, states: new AccumulatedStates(fields, expressions, isDocument(id) ? id : EMPTY) };
          buckets.set(i, b);
        }
        b.states.add(frame);
      }
      const sorted = [...buckets.values()].sort((a, b) => compareValues(a.id, b.id, collator));
      // The desugared `$group` is always followed by its `$sort`: its values are rendered so.
      for (const b of sorted) yield b.states.writeTo({ _id: keyBoundAsDocument(b.id) }, true);
    },
  };
}

/** `{$bucket: {groupBy, boundaries: [...], default?, output?}}`. */
export const bucket: StageDefinition = {
  name: '$bucket',
  constraints: BLOCKING,
  parse: (spec, ctx) => compileBucket(spec, ctx.expressions),
};
