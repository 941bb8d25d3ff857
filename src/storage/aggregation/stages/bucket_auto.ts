/**
 * `$bucketAuto` (mongo/src/mongo/db/pipeline/document_source_bucket_auto.cpp): the documents are
 * sorted by their `groupBy` value (missing as null; values equal under BSON comparison, strings
 * under the collation, keep their input order) and cut into at most `buckets` buckets of
 * `round(n / buckets)` documents each (at least 1; the last bucket takes what remains). A bucket
 * also takes every following document whose value equals its last one, so equal values never
 * straddle two buckets; a bucket's `max` is the next bucket's `min` (exclusive), the last one's
 * its largest value (inclusive). With a `granularity`, the values must be non-negative numbers
 * (40258, 40259, 40260), a bucket's `max` is its largest value rounded up in the series (taking in
 * the documents below it), its `min` the previous bucket's `max` (the first: its smallest value
 * rounded down). Each bucket is `{_id: {min, max}, <output fields>}`, `count: {$sum: 1}` when
 * `output` names none. `$first`, `$last`, `$firstN` and `$lastN` see a bucket's documents in
 * input order (mongod's `accumulator_for_bucket_auto.cpp`), the others in sorted order.
 *
 * The specification, in its own order: an object (40240); `groupBy` a `$`-path or an expression
 * object (40239); `buckets` a number (40241) that is a 32-bit integer (40242); `output` an object
 * (40244) of `$group`'s fields; `granularity` a string (40261) naming a series (40257); nothing
 * else (40245); then both `groupBy` and `buckets` (40246), and `buckets` positive (40243).
 * Its sorted input may hold 100 MiB; past that mongod spills to disk, or, under `allowDiskUse:
 * false`, fails with QueryExceededMemoryLimitNoDiskUseAllowed (292): Mayfly, in memory, goes on
 * in the first case and fails in the second.
 */
import { bsonSize } from '../../../bson/encode.js';
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { ExpressionContext } from '../../expression/context.js';
import type { Evaluator, Frame } from '../../expression/types.js';
import { typeName } from '../../expression/value.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues } from '../../values/compare.js';
import { docValueToString, formatValue } from '../../values/format.js';
import { MISSING } from '../../values/missing.js';
import { exactInt32, isNumber, toDouble } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type StageDefinition, type StageInstance } from '../stage.js';
import { AccumulatedStates, parseAccumulatedField, type AccumulatedField } from './_internal/accumulated_fields.js';
import { granularityRounder, type GranularityRounder } from './_internal/granularity_rounder.js';

const EMPTY: Document = Object.freeze({}) as Document;

/** The accumulators that see a bucket's documents in input order. */
const POSITIONAL = new Set(['$first', '$last', '$firstN', '$lastN']);

/** One input document: its key, its frame, its place in the input. */
interface Entry {
  readonly key: unknown;
  readonly frame: Frame;
  readonly position: number;
}

function parseGroupBy(value: unknown, expressions: ExpressionContext): Evaluator {
  const isPath = typeof value === 'string' && value.length > 1 && value.charCodeAt(0) === 36;
  const first = isDocument(value) ? Object.keys(value)[0] : undefined;
  const isExpression = first !== undefined && first.charCodeAt(0) === 36;
  if (!isPath && !isExpression) {
    throw new CommandError(40239, `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: ${formatValue(value)}`);
  }
  return expressions.parse(value);
}

function parseBuckets(value: unknown): number {
  if (!isNumber(value)) throw new CommandError(40241, `The $bucketAuto 'buckets' field must be a numeric value, but found type: ${bsonTypeOf(value)}`);
  const n = exactInt32(value);
  if (n === undefined) {
    throw new CommandError(40242, `The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found ${docValueToString(toDouble(value))}`);
  }
  return n;
}

/** The memory `$bucketAuto` may hold before it spills (`internalDocumentSourceBucketAutoMaxMemoryBytes`). */
export const BUCKET_AUTO_MAX_MEMORY_BYTES = 100 * 1024 * 1024;

function compileBucketAuto(spec: unknown, expressions: ExpressionContext, allowDiskUse: boolean): StageInstance {
  if (!isDocument(spec)) throw new CommandError(40240, `The argument to $bucketAuto must be an object, but found type: ${bsonTypeOf(spec)}`);
  const collator = expressions.runtime.collator;
  let groupBy: Evaluator | undefined;
  let nBuckets: number | undefined;
  let rounder: GranularityRounder | undefined;
  const fields: AccumulatedField[] = [];
  for (const name of Object.keys(spec)) {
    const value = spec[name];
    if (name === 'groupBy') groupBy = parseGroupBy(value, expressions);
    else if (name === 'buckets') nBuckets = parseBuckets(value);
    else if (name === 'output') {
      if (!isDocument(value)) throw new CommandError(40244, `The $bucketAuto 'output' field must be an object, but found type: ${bsonTypeOf(value)}`);
      for (const field of Object.keys(value)) fields.push(parseAccumulatedField(field, value[field], expressions.scope, collator));
    } else if (name === 'granularity') {
      if (typeof value !== 'string') throw new CommandError(40261, `The $bucketAuto 'granularity' field must be a string, but found type: ${bsonTypeOf(value)}`);
      rounder = granularityRounder(value, expressions);
    } else {
      throw new CommandError(40245, `Unrecognized option to $bucketAuto: ${name}`);
    }
  }
  if (groupBy === undefined || nBuckets === undefined) throw new CommandError(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified");
  if (nBuckets <= 0) throw new CommandError(40243, `The $bucketAuto 'buckets' field must be greater than 0, but found: ${nBuckets}`);
  if (fields.length === 0) fields.push(parseAccumulatedField('count', { $sum: 1 }, expressions.scope, collator));
  const key = groupBy;
  const buckets = nBuckets;
  const positional = fields.map((f) => POSITIONAL.has(f.definition.name));
  const anyPositional = positional.includes(true);

  const extractKey = (frame: Frame): unknown => {
    const v = key(frame);
    if (rounder !== undefined) {
      if (!isNumber(v)) {
        throw new CommandError(40258, `$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a value with type: ${typeName(v)}`);
      }
      const d = toDouble(v);
      if (Number.isNaN(d)) throw new CommandError(40259, "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a NaN");
      if (d < 0) throw new CommandError(40260, "$bucketAuto can specify a 'granularity' with non-negative numbers only, but found a negative number");
    }
    return v === MISSING ? null : v;
  };
  const cmp = (a: unknown, b: unknown): number => compareValues(a, b, collator);

  /** One bucket's output document. */
  const render = (min: unknown, max: unknown, members: Entry[]): Document => {
    const states = new AccumulatedStates(fields, expressions, EMPTY);
    for (let f = 0; f < fields.length; f++) {
      if (positional[f]) continue;
      for (const m of members) states.addTo(f, m.frame);
    }
    if (anyPositional) {
      const inInputOrder = [...members].sort((a, b) => a.position - b.position);
      for (let f = 0; f < fields.length; f++) {
        if (!positional[f]) continue;
        for (const m of inInputOrder) states.addTo(f, m.frame);
      }
    }
    return states.writeTo({ _id: { min, max } }, false);
  };

  return {
    *run(input) {
      const entries: Entry[] = [];
      let position = 0;
      // What the sorted input holds, counted only when it may not spill (allowDiskUse: false).
      let bytes = 0;
      for (const doc of input) {
        const frame = expressions.frame(doc);
        entries.push({ key: extractKey(frame), frame, position: position++ });
        if (!allowDiskUse) {
          bytes += bsonSize(doc);
          if (bytes > BUCKET_AUTO_MAX_MEMORY_BYTES) {
            throw new CommandError('QueryExceededMemoryLimitNoDiskUseAllowed', "Exceeded memory limit for $bucketAuto, but didn't allow external spilling; pass allowDiskUse:true to opt in.");
          }
        }
      }
      if (entries.length === 0) return;
      // Array.prototype.sort is stable: equal keys keep their input order.
      entries.sort((a, b) => cmp(a.key, b.key));
      const n = entries.length;
      const approxBucketSize = Math.max(1, Math.round(n / buckets));
      let next = 0;
      let carried: Entry | undefined;
      let previousMax: unknown = MISSING;
      for (let bucketNum = 1; bucketNum <= buckets; bucketNum++) {
        if (carried === undefined && next >= n) return;
        const first: Entry = carried ?? entries[next++]!;
        const members: Entry[] = [first];
        let max = first.key;
        let min = first.key;
        if (rounder !== undefined) min = previousMax !== MISSING ? previousMax : rounder.roundDown(first.key);
        const isLast = bucketNum === buckets;
        for (let i = 1; next < n && (i < approxBucketSize || isLast); i++) {
          const e = entries[next++]!;
          members.push(e);
          max = e.key;
        }
        let following: Entry | undefined = next < n ? entries[next++] : undefined;
        if (rounder !== undefined) {
          const boundary = rounder.roundUp(max);
          while (following !== undefined && (cmp(boundary, following.key) > 0 || cmp(max, following.key) === 0)) {
            members.push(following);
            max = following.key;
            following = next < n ? entries[next++] : undefined;
          }
          // A largest value of zero rounds up to zero: the bucket ends where the next one's min rounds down to.
          max = toDouble(boundary) === 0 && following !== undefined ? rounder.roundDown(following.key) : boundary;
        } else {
          while (following !== undefined && cmp(max, following.key) === 0) {
            members.push(following);
            following = next < n ? entries[next++] : undefined;
          }
          if (following !== undefined) max = following.key;
        }
        carried = following;
        previousMax = max;
        yield render(min, max, members);
      }
    },
  };
}

/** `{$bucketAuto: {groupBy, buckets, output?, granularity?}}`. */
export const bucketAuto: StageDefinition = {
  name: '$bucketAuto',
  constraints: BLOCKING,
  parse: (spec, ctx) => compileBucketAuto(spec, ctx.expressions, ctx.runtime.allowDiskUse !== false),
};
