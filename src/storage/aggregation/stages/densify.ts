/**
 * `$densify` (mongo/src/mongo/db/pipeline/document_source_densify.cpp): documents are added
 * where a sequence of values of `field` (numbers, or dates with a `unit`) misses a step. mongod
 * desugars it into a `$sort` (by `partitionByFields`, unless the bounds are `full`, then
 * `field`) and a streaming generator; here the stage sorts and generates in one.
 *
 * - The grid starts at the lower bound (explicit bounds), the smallest value of all documents
 *   (`full`) or of the partition (`partition`), and goes up by `step` (a date by `step` units,
 *   in UTC); a grid value equal to a document's is not generated.
 * - Explicit bounds `[lo, hi]` generate grid values below `hi`; `full` and `partition` up to
 *   and including the largest value; documents outside the bounds pass through.
 * - A generated document holds the partition's fields and the field; documents whose field is
 *   null or missing pass through first, unchanged.
 * - At most 500,000 documents are generated (5897900), so a tiny step cannot exhaust memory.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { parseFieldPath } from '../../expression/field_path.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues } from '../../values/compare.js';
import { collationKeyString } from '../../values/key_string.js';
import { MISSING } from '../../values/missing.js';
import { addNumbers, isNumber, safeNumberLong } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { MS_PER_DAY, addMonthsClamped, civilFromDays } from '../../values/timezone.js';
import { BLOCKING, type StageDefinition } from '../stage.js';
import { valueAt, withValueAt } from './_internal/document_path.js';

/** `internalQueryMaxAllowedDensifyDocs`. */
const MAX_GENERATED = 500_000;

const UNITS = ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
type Unit = (typeof UNITS)[number];

const FIXED_MS: Partial<Record<Unit, number>> = { millisecond: 1, second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };
const MONTHS: Partial<Record<Unit, number>> = { month: 1, quarter: 3, year: 12 };

type Bounds = { kind: 'full' } | { kind: 'partition' } | { kind: 'explicit'; lo: unknown; hi: unknown };

interface DensifySpec {
  readonly field: string[];
  readonly partitions: string[][];
  readonly step: unknown;
  readonly unit: Unit | null;
  readonly bounds: Bounds;
}

function idlType(path: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

function idlMissing(path: string): CommandError {
  return new CommandError(40414, `BSON field '${path}' is missing but a required field`);
}

function idlUnknown(path: string): CommandError {
  return new CommandError(40415, `BSON field '${path}' is an unknown field.`);
}

/** `date + n * unit`, in UTC (months clamp the day to the month's end, as `$dateAdd`). */
function addUnits(date: Date, unit: Unit, n: number): Date {
  const fixed = FIXED_MS[unit];
  if (fixed !== undefined) return new Date(date.getTime() + n * fixed);
  const ms = date.getTime();
  const days = Math.floor(ms / MS_PER_DAY);
  const timeOfDay = ms - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  return new Date(addMonthsClamped(year, month, day, n * MONTHS[unit]!) * MS_PER_DAY + timeOfDay);
}

function parseRange(range: unknown): Pick<DensifySpec, 'step' | 'unit' | 'bounds'> {
  if (!isDocument(range)) throw idlType('$densify.range', range, 'object');
  let step: unknown = MISSING;
  let unitSpec: unknown = MISSING;
  let boundsSpec: unknown = MISSING;
  for (const [key, value] of Object.entries(range)) {
    if (key === 'step') step = value;
    else if (key === 'unit') unitSpec = value;
    else if (key === 'bounds') boundsSpec = value;
    else throw idlUnknown(`$densify.range.${key}`);
  }
  if (step === MISSING) throw idlMissing('$densify.range.step');
  if (boundsSpec === MISSING) throw idlMissing('$densify.range.bounds');
  if (unitSpec !== MISSING && typeof unitSpec !== 'string') throw idlType('$densify.range.unit', unitSpec, 'string');
  if (!isNumber(step) || compareValues(step, 0) <= 0) {
    throw new CommandError(5733401, 'The step parameter in a range statement must be a strictly positive numeric value');
  }
  let unit: Unit | null = null;
  if (typeof unitSpec === 'string') {
    const n = safeNumberLong(step);
    if (n === undefined || compareValues(step, Number(n)) !== 0) {
      throw new CommandError(6586400, 'The step parameter in a range statement must be a whole number when densifying a date range');
    }
    if (!(UNITS as readonly string[]).includes(unitSpec)) throw new CommandError('FailedToParse', `unknown time unit value: ${unitSpec}`);
    unit = unitSpec as Unit;
  }
  let bounds: Bounds;
  if (Array.isArray(boundsSpec)) {
    if (boundsSpec.length !== 2) throw new CommandError(5733403, 'A bounding array in a range statement must have exactly two elements');
    const [lo, hi] = boundsSpec as [unknown, unknown];
    if (compareValues(lo, hi) > 0) {
      throw new CommandError(5733402, 'A bounding array must be an ascending array of either two dates or two numbers');
    }
    if (isNumber(lo)) {
      if (unit !== null) throw new CommandError(5733409, 'Numeric bounds may not have unit parameter');
      if (!isNumber(hi)) throw new CommandError(5733406, 'A bounding array must contain either both dates or both numeric types');
      if (bsonTypeOf(lo) !== bsonTypeOf(hi) || bsonTypeOf(lo) !== bsonTypeOf(step)) {
        throw new CommandError(5876900, 'Upper bound, lower bound, and step must all have the same type');
      }
    } else if (lo instanceof Date) {
      if (!(hi instanceof Date)) throw new CommandError(5733405, 'A bounding array must contain either both dates or both numeric types');
      if (unit === null) throw new CommandError(5733410, 'A bounding array of dates must specify a unit');
    } else {
      throw new CommandError(5946800, 'Explicit bounds must be numeric or dates');
    }
    bounds = { kind: 'explicit', lo, hi };
  } else if (typeof boundsSpec === 'string') {
    if (boundsSpec === 'full') bounds = { kind: 'full' };
    else if (boundsSpec === 'partition') bounds = { kind: 'partition' };
    else throw new CommandError(5946802, "Bounds string must either be 'full' or 'partition'");
  } else {
    throw new CommandError(5733404, "The bounds in a range statement must be the string 'full', 'partition', or an ascending array of two numbers or two dates");
  }
  return { step, unit, bounds };
}

function parseDensify(spec: unknown): DensifySpec {
  if (!isDocument(spec)) throw new CommandError('FailedToParse', `The $densify stage specification must be an object, found ${bsonTypeOf(spec)}`);
  let fieldSpec: unknown = MISSING;
  let partitionSpec: unknown = MISSING;
  let rangeSpec: unknown = MISSING;
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'field') fieldSpec = value;
    else if (key === 'partitionByFields') partitionSpec = value;
    else if (key === 'range') rangeSpec = value;
    else throw idlUnknown(`$densify.${key}`);
  }
  if (fieldSpec === MISSING) throw idlMissing('$densify.field');
  if (typeof fieldSpec !== 'string') throw idlType('$densify.field', fieldSpec, 'string');
  const partitions: string[][] = [];
  if (partitionSpec !== MISSING) {
    if (!Array.isArray(partitionSpec)) throw idlType('$densify.partitionByFields', partitionSpec, 'array');
    partitionSpec.forEach((p, i) => {
      if (typeof p !== 'string') throw idlType(`$densify.partitionByFields.${i}`, p, 'string');
    });
  }
  if (rangeSpec === MISSING) throw idlMissing('$densify.range');
  const range = parseRange(rangeSpec);
  for (const p of (partitionSpec === MISSING ? [] : partitionSpec) as string[]) partitions.push(parseFieldPath(p));
  const field = parseFieldPath(fieldSpec);
  if (range.bounds.kind === 'partition' && partitions.length === 0) {
    throw new CommandError(
      5733408,
      "One cannot specify the bounds as 'partition' without specifying a non-empty array of partitionByFields. You may have meant to specify 'full' bounds.",
    );
  }
  return { field, partitions, ...range };
}

/** One partition's place on its grid. */
interface PartitionState {
  /** The partition's fields, the base of every document generated for it. */
  readonly base: Document;
  /** The next grid value to consider, or MISSING before the partition's first document (partition bounds). */
  next: unknown;
}

/** `{$densify: {field, partitionByFields?, range: {step, unit?, bounds}}}`. */
export const densify: StageDefinition = {
  name: '$densify',
  constraints: BLOCKING,
  parse(rawSpec, ctx) {
    const spec = parseDensify(rawSpec);
    const collator = ctx.expressions.runtime.collator;
    const { field, partitions, step, unit, bounds } = spec;
    const increment = (v: unknown): unknown => (v instanceof Date ? addUnits(v, unit!, Number(safeNumberLong(step))) : addNumbers(v, step));

    /** The field's value of `doc`: a number, a date, or MISSING for null and missing (checked against the unit). */
    function densifyValue(doc: Document): unknown {
      const v = valueAt(doc, field);
      if (v === MISSING || v === null || v === undefined) return MISSING;
      if (isNumber(v)) {
        if (unit !== null) throw new CommandError(6053600, 'Encountered non-date value in collection when step has a date unit.');
        return v;
      }
      if (v instanceof Date) {
        if (unit === null) throw new CommandError(5733501, 'Encountered date value in collection when step does not have a date unit.');
        return v;
      }
      throw new CommandError(5733201, 'Densify field type must be numeric or a date');
    }

    return {
      *run(input) {
        const passed: Document[] = [];
        const rows: Array<{ doc: Document; value: unknown; key: string; partition: unknown[] }> = [];
        for (const doc of input) {
          const value = densifyValue(doc);
          if (value === MISSING) {
            passed.push(doc);
            continue;
          }
          const partition = partitions.map((p) => valueAt(doc, p));
          rows.push({ doc, value, partition, key: collationKeyString(partition.map((v) => (v === MISSING ? { missing: true } : { v })), collator) });
        }
        const byPartition = bounds.kind !== 'full';
        rows.sort((a, b) => {
          if (byPartition) {
            for (let i = 0; i < a.partition.length; i++) {
              const c = compareValues(a.partition[i] === MISSING ? null : a.partition[i], b.partition[i] === MISSING ? null : b.partition[i], collator);
              if (c !== 0) return c;
            }
          }
          return compareValues(a.value, b.value);
        });
        yield* passed;
        if (rows.length === 0 && bounds.kind !== 'explicit') return;

        let generated = 0;
        const states = new Map<string, PartitionState>();
        const lower = bounds.kind === 'explicit' ? bounds.lo : bounds.kind === 'full' ? rows[0]!.value : MISSING;
        let globalMax: unknown = MISSING;
        for (const row of rows) if (globalMax === MISSING || compareValues(row.value, globalMax) > 0) globalMax = row.value;
        /** Generates grid values of `state` while `more(value)`. */
        function* fill(state: PartitionState, more: (v: unknown) => boolean): Generator<Document> {
          while (more(state.next)) {
            if (++generated > MAX_GENERATED) {
              throw new CommandError(
                5897900,
                `Generated ${MAX_GENERATED + 1} documents in $densify, which is over the limit of ${MAX_GENERATED}. Increase the 'internalQueryMaxAllowedDensifyDocs' parameter to allow more generated documents`,
              );
            }
            yield withValueAt(state.base, field, state.next);
            state.next = increment(state.next);
          }
        }
        const belowUpper = (v: unknown): boolean =>
          bounds.kind === 'explicit' ? compareValues(v, bounds.hi) < 0 : bounds.kind === 'full' ? compareValues(v, globalMax) <= 0 : false;
        function* finish(state: PartitionState): Generator<Document> {
          if (state.next !== MISSING) yield* fill(state, belowUpper);
        }

        let current: PartitionState | undefined;
        for (const row of rows) {
          let state = states.get(row.key);
          if (state === undefined) {
            if (byPartition && current !== undefined) yield* finish(current);
            let base: Document = {};
            partitions.forEach((p, i) => {
              if (row.partition[i] !== MISSING) base = withValueAt(base, p, row.partition[i]);
            });
            state = { base, next: lower === MISSING ? row.value : lower };
            states.set(row.key, state);
          }
          current = state;
          yield* fill(state, (v) => compareValues(v, row.value) < 0 && (bounds.kind !== 'explicit' || compareValues(v, bounds.hi) < 0));
          if (compareValues(state.next, row.value) === 0) state.next = increment(state.next);
          yield row.doc;
        }
        if (byPartition) {
          if (current !== undefined) yield* finish(current);
          else if (bounds.kind === 'explicit' && partitions.length === 0) yield* finish({ base: {}, next: bounds.lo });
        } else {
          for (const state of states.values()) yield* finish(state);
        }
      },
    };
  },
};
