/**
 * The window frames of `$setWindowFields` (mongo/src/mongo/db/pipeline/window_function/
 * window_bounds.cpp, partition_iterator.cpp): `window: {documents: [lo, hi]}` (offsets from the
 * current document), `window: {range: [lo, hi], unit?}` (offsets from the current document's
 * `sortBy` value, numbers or, with a unit, dates), `"unbounded"` and `"current"` at either end;
 * no window is the whole partition. `frames` turns a frame into each document's [start, end) in
 * its sorted partition; both ends only move forward, which is what lets `slide` feed a removable
 * accumulator what enters the window and take back what leaves it (O(1) a document for `$sum`).
 */
import { CommandError } from '../../../errors/command_error.js';
import type { Accumulator } from '../../accumulators/types.js';
import { dateAdd, type TimeUnit } from '../../expression/operators/date/_internal/arithmetic.js';
import type { Evaluator } from '../../expression/types.js';
import { CONSTANT_FRAME } from '../../expression/value.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues } from '../../values/compare.js';
import { isFoldableOperand } from '../../values/constant_operand.js';
import { docValueToString, formatElement } from '../../values/format.js';
import { MISSING } from '../../values/missing.js';
import { integerOf, isNumber, toDouble } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { UTC } from '../../values/timezone.js';
import type { Partition, WindowParseContext } from './types.js';

/** One end of a frame: `"unbounded"`, `"current"`, or an offset (a number; a Date offset is an integer count of units). */
export type Bound = 'unbounded' | 'current' | { readonly offset: unknown };

/** A parsed frame. */
export type WindowBounds =
  | { readonly kind: 'documents'; readonly lower: Bound; readonly upper: Bound }
  | {
      readonly kind: 'range';
      readonly lower: Bound;
      readonly upper: Bound;
      readonly unit: TimeUnit | null;
      /** The `sortBy` field, evaluated per document (the range is over its values). */
      readonly sortValue: Evaluator;
    };

/** No window: every document of the partition. */
export const WHOLE_PARTITION: WindowBounds = Object.freeze({ kind: 'documents', lower: 'unbounded', upper: 'unbounded' });

/** `[unbounded, current]` in documents: what `$rank`, `$shift`'s family and `$expMovingAvg` see. */
export const UP_TO_CURRENT: WindowBounds = Object.freeze({ kind: 'documents', lower: 'unbounded', upper: 'current' });

const TIME_UNITS: readonly TimeUnit[] = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond'];

const parseError = (message: string): CommandError => new CommandError('FailedToParse', message);

/** True when the frame is the whole partition. */
export function isWholePartition(b: WindowBounds): boolean {
  return b.lower === 'unbounded' && b.upper === 'unbounded';
}

function parseBound(v: unknown, ctx: WindowParseContext, check: (value: unknown) => unknown): Bound {
  if (typeof v === 'string') {
    if (v === 'unbounded' || v === 'current') return v;
    // A field path is an expression, not a constant.
    if (v.charCodeAt(0) !== 36) throw parseError("Window bounds must be 'unbounded', 'current', or a number.");
  }
  const ev = ctx.expressions.parse(v);
  if (!isFoldableOperand(v)) throw parseError('Window bounds expression must be a constant.');
  return { offset: check(ev(CONSTANT_FRAME)) };
}

/** Lower ≤ upper, `current` counting as 0 (5339900). */
function checkForward(lower: Bound, upper: Bound): void {
  const num = (b: Bound): unknown => (b === 'current' ? 0 : b === 'unbounded' ? MISSING : b.offset);
  const lo = num(lower);
  const hi = num(upper);
  if (lo === MISSING || hi === MISSING) return;
  if (compareValues(lo, hi) > 0) {
    throw new CommandError(5339900, `Lower bound must not exceed upper bound: [${docValueToString(lo)}, ${docValueToString(hi)}]`);
  }
}

function unpack(name: string, v: unknown): [unknown, unknown] {
  if (!Array.isArray(v) || v.length !== 2) throw parseError(`Window bounds must be a 2-element array: ${formatElement(name, v)}`);
  return [v[0], v[1]];
}

/** `WindowBounds::parse`: the value of a `window` field, with mongod's codes and messages. */
export function parseWindowBounds(arg: unknown, ctx: WindowParseContext): WindowBounds {
  if (!isDocument(arg)) throw parseError("'window' field must be an object");
  const has = (f: string): boolean => Object.prototype.hasOwnProperty.call(arg, f);
  const fields = Object.keys(arg).length;
  const documents = has('documents');
  const range = has('range');
  const unit = has('unit');
  if (documents && range) throw parseError("Window bounds can specify either 'documents' or 'unit', not both.");
  if (!range && unit) throw parseError("Window bounds can only specify 'unit' with range-based bounds.");
  if (!range && !documents) {
    if (fields !== 0) {
      throw parseError("'window' field can only contain 'documents' as the only argument or 'range' with an optional 'unit' field");
    }
    return WHOLE_PARTITION;
  }
  const sortBy = ctx.sortBy;
  if (documents) {
    if (fields !== 1) throw parseError("'window' field that specifies documents cannot have other fields");
    const [lo, hi] = unpack('documents', arg.documents);
    const integer = (v: unknown): unknown => {
      const n = isNumber(v) ? integerOf(v, 'exact') : undefined;
      if (n === undefined || n === null) throw parseError('Numeric document-based bounds must be an integer');
      return Number(n);
    };
    const lower = parseBound(lo, ctx, integer);
    const upper = parseBound(hi, ctx, integer);
    checkForward(lower, upper);
    const bounds: WindowBounds = { kind: 'documents', lower, upper };
    if (!isWholePartition(bounds) && sortBy === null) throw new CommandError(5339901, 'Document-based bounds require a sortBy');
    return bounds;
  }
  const [lo, hi] = unpack('range', arg.range);
  let timeUnit: TimeUnit | null = null;
  let lower: Bound;
  let upper: Bound;
  if (unit) {
    if (fields !== 2) throw parseError("'window' field that specifies unit cannot have other fields besides 'range'");
    if (typeof arg.unit !== 'string') throw parseError("'unit' must be a string");
    const integer = (v: unknown): unknown => {
      const n = isNumber(v) ? integerOf(v, 'exact') : undefined;
      if (n === undefined || n === null) throw parseError("With 'unit', range-based bounds must be an integer");
      return v;
    };
    lower = parseBound(lo, ctx, integer);
    upper = parseBound(hi, ctx, integer);
    checkForward(lower, upper);
    if (!(TIME_UNITS as readonly string[]).includes(arg.unit)) throw parseError(`unknown time unit value: ${arg.unit}`);
    timeUnit = arg.unit as TimeUnit;
  } else {
    if (fields !== 1) throw parseError("'window' field that specifies range cannot have other fields besides 'unit'");
    const number = (v: unknown): unknown => {
      if (!isNumber(v)) throw parseError('Range-based bounds expression must be a number');
      return v;
    };
    lower = parseBound(lo, ctx, number);
    upper = parseBound(hi, ctx, number);
    checkForward(lower, upper);
  }
  if (sortBy === null || sortBy.keys.length !== 1) throw new CommandError(5339902, 'Range-based bounds require sortBy a single field');
  const key = sortBy.keys[0]!;
  if (key.direction !== 1) throw new CommandError(8947401, 'Range-based bounds require an ascending sortBy');
  return { kind: 'range', lower, upper, unit: timeUnit, sortValue: ctx.expressions.parse(`$${key.path}`) };
}

/** Each document's frame in a partition of `n`: documents [starts[i], ends[i]), both non-decreasing. */
export interface Frames {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** The frames of `bounds` over the partition `p` (range frames check the `sortBy` values: 5429414, 5429513). */
export function frames(bounds: WindowBounds, p: Partition): Frames {
  const n = p.docs.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  if (bounds.kind === 'documents') {
    const lo = bounds.lower === 'unbounded' ? null : bounds.lower === 'current' ? 0 : (bounds.lower.offset as number);
    const hi = bounds.upper === 'unbounded' ? null : bounds.upper === 'current' ? 0 : (bounds.upper.offset as number);
    for (let i = 0; i < n; i++) {
      const s = lo === null ? 0 : Math.min(n, Math.max(0, i + lo));
      const e = hi === null ? n : Math.min(n, Math.max(0, i + hi + 1));
      starts[i] = s;
      ends[i] = Math.max(s, e);
    }
    return { starts, ends };
  }
  if (isWholePartition(bounds)) {
    ends.fill(n);
    return { starts, ends };
  }
  const keys = rangeKeys(bounds, p);
  const shifted = (k: number, b: Bound, current: number): number => {
    if (b === 'current') return current;
    const offset = (b as { offset: unknown }).offset;
    if (bounds.unit === null) return k + toDouble(offset);
    return dateAdd(k, bounds.unit, integerOf(offset, 'exact') as bigint, UTC);
  };
  let s = 0;
  let e = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    if (bounds.lower === 'unbounded') s = 0;
    else {
      const lowerValue = shifted(k, bounds.lower, k);
      while (s < n && keys[s]! < lowerValue) s++;
    }
    if (bounds.upper === 'unbounded') e = n;
    else {
      const upperValue = shifted(k, bounds.upper, k);
      if (e < s) e = s;
      while (e < n && keys[e]! <= upperValue) e++;
    }
    starts[i] = s;
    ends[i] = Math.max(s, e);
  }
  return { starts, ends };
}

/** The `sortBy` values of a range frame's partition as numbers (dates as milliseconds). */
function rangeKeys(bounds: Extract<WindowBounds, { kind: 'range' }>, p: Partition): Float64Array {
  const n = p.docs.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = bounds.sortValue(p.frame(i));
    if (bounds.unit === null) {
      if (!isNumber(v)) {
        throw new CommandError(5429414, `Invalid range: Expected the sortBy field to be a number, but it was ${typeNameOf(v)}`);
      }
      keys[i] = toDouble(v);
    } else {
      if (!(v instanceof Date)) {
        throw new CommandError(5429513, `Invalid range: Expected the sortBy field to be a Date, but it was ${typeNameOf(v)}`);
      }
      keys[i] = v.getTime();
    }
  }
  return keys;
}

function typeNameOf(v: unknown): string {
  return v === MISSING ? 'missing' : bsonTypeOf(v);
}

/**
 * Runs `state` over each document's frame and writes `result()` to `out`: what enters a frame is
 * added; what leaves it is removed when the state is `removable` (added order is removal order),
 * else the state is reset and refed the new frame. `values[j]` is document j's input; `result`
 * is told whether the frame is empty.
 */
export function slide(
  f: Frames,
  values: readonly unknown[],
  state: Accumulator,
  removable: boolean,
  out: unknown[],
  result: (state: Accumulator, empty: boolean) => unknown = (st) => st.result(),
): void {
  const { starts, ends } = f;
  const n = starts.length;
  let s = 0;
  let e = 0;
  for (let i = 0; i < n; i++) {
    const ns = starts[i]!;
    const ne = ends[i]!;
    if (ns >= e || (!removable && ns > s)) {
      if (s !== e) state.reset();
      s = e = ns;
    }
    while (e < ne) state.add(values[e++]);
    while (s < ns) state.remove(values[s++]);
    out[i] = result(state, ns === ne);
  }
}
