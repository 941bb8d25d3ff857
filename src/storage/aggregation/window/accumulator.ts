/**
 * The accumulators of `../../accumulators/` as window functions (window_function_expression.h's
 * ExpressionRemovable, ExpressionN, ExpressionQuantile, ExpressionFirstLast; `$count` as
 * `$sum: 1`): `{<accumulator>: <argument>, window?: {...}}`. The state is made once per
 * partition: over the whole partition it is fed once and its result given to every document;
 * a frame whose lower end moves is run with a removable state (`create(collator, true)`), what
 * leaves the frame removed (bounds.ts `slide`); a frame that only grows keeps adding.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Accumulator, AccumulatorDefinition, StateOptions } from '../../accumulators/types.js';
import type { Evaluator } from '../../expression/types.js';
import { CONSTANT_FRAME } from '../../expression/value.js';
import { compileSort } from '../../query/sort.js';
import { MISSING } from '../../values/missing.js';
import { isDocument } from '../../values/paths.js';
import { frames, isWholePartition, parseWindowBounds, slide, WHOLE_PARTITION, type WindowBounds } from './bounds.js';
import { WindowStdDevState } from './states.js';
import type { Partition, WindowFunction, WindowParseContext } from './types.js';

const ONE: Evaluator = () => 1;

/**
 * The accumulators whose removable window state mongod implements apart from the accumulator
 * (REGISTER_STABLE_REMOVABLE_WINDOW_FUNCTION with a WindowFunction class of other semantics).
 */
const REMOVABLE_STATES: Readonly<Record<string, () => Accumulator>> = {
  $stdDevPop: () => new WindowStdDevState(false),
  $stdDevSamp: () => new WindowStdDevState(true),
};

/** Parses `{<name>: arg, window?}` for the accumulator `def` (its name is a key of `spec`). */
export function parseAccumulatorWindow(def: AccumulatorDefinition, spec: Document, ctx: WindowParseContext): WindowFunction {
  const name = def.name;
  // mongod's parsers of the accumulators with an object argument ($topN, $percentile...) and of
  // $first/$last name themselves in the error; the others share one message.
  const ownParser = def.argument === 'object' || name === '$first' || name === '$last';
  let bounds: WindowBounds = WHOLE_PARTITION;
  let seen = false;
  for (const field of Object.keys(spec)) {
    if (field === 'window') bounds = parseWindowBounds(spec.window, ctx);
    else if (field === name && !seen) seen = true;
    else if (ownParser) throw new CommandError('FailedToParse', `${name} got unexpected argument: ${field}`);
    else if (ctx.isFunction(field)) {
      // parseCountWindowFunction words it apart.
      throw new CommandError('FailedToParse', `Cannot specify ${def.argument === 'empty' ? 'multiple' : 'two'} functions in window function spec`);
    }
    else throw new CommandError('FailedToParse', `Window function found an unknown argument: ${field}`);
  }
  const argSpec = spec[name];
  const expressions = ctx.expressions;
  const collator = expressions.runtime.collator;
  let arg: Evaluator;
  let nExpr: Evaluator | undefined;
  let compare: ((a: unknown, b: unknown) => number) | undefined;
  let settings: unknown;
  if (def.argument === 'empty') {
    if (!isDocument(argSpec) || Object.keys(argSpec).length !== 0) {
      throw new CommandError('FailedToParse', `${name} only accepts an empty object as input`);
    }
    arg = ONE;
  } else if (def.parseArguments !== undefined) {
    const parts = def.parseArguments(argSpec);
    const input = expressions.parse(parts.input);
    nExpr = parts.n === undefined ? undefined : expressions.parse(parts.n);
    settings = parts.settings;
    if (parts.sortBy !== undefined) {
      compare = compileSort(parts.sortBy as Document, collator) as (a: unknown, b: unknown) => number;
      arg = (frame) => [frame.current, input(frame)];
    } else arg = input;
  } else arg = expressions.parse(argSpec);
  const windowState = REMOVABLE_STATES[name];
  const create = (removable: boolean): Accumulator => {
    if (removable && windowState !== undefined) return windowState();
    if (nExpr === undefined && compare === undefined && settings === undefined) return def.create(collator, removable);
    // mongod evaluates `n` once, against no document.
    const options: StateOptions = { n: nExpr === undefined ? undefined : nExpr(CONSTANT_FRAME), compare, settings };
    return def.create(collator, removable, options);
  };
  // mongod's $first/$last window functions evaluate the input of the frame's end document: a
  // missing value leaves the output field unset. The accumulators' missing results are null.
  return overFrames(bounds, arg, create, name === '$first' || name === '$last' ? 'absent' : 'null');
}

const nullForMissing = (st: Accumulator): unknown => {
  const r = st.result();
  return r === MISSING ? null : r;
};

/** The result as it is, MISSING included (the field unset), but null for an empty frame. */
const asItIs = (st: Accumulator, empty: boolean): unknown => (empty ? null : st.result());

/**
 * The window function that runs a state over each document's frame of `bounds`: `arg` is the
 * value each document feeds, `create(removable)` a state (removable when the frame's lower end
 * moves); over the whole partition the state is fed once. A MISSING result is null, or with
 * `missing: 'absent'` leaves the field unset; an empty frame's result is the state's own (null).
 */
export function overFrames(
  bounds: WindowBounds,
  arg: Evaluator,
  create: (removable: boolean) => Accumulator,
  missing: 'null' | 'absent' = 'null',
): WindowFunction {
  const removable = bounds.lower !== 'unbounded';
  const output = missing === 'null' ? nullForMissing : asItIs;
  return {
    compute(p: Partition, out: unknown[]): void {
      const n = p.docs.length;
      const state = create(removable);
      if (isWholePartition(bounds)) {
        for (let i = 0; i < n; i++) state.add(arg(p.frame(i)));
        const r = output(state, n === 0);
        for (let i = 0; i < n; i++) out[i] = r;
        return;
      }
      const f = frames(bounds, p);
      const values = new Array<unknown>(n);
      for (let i = 0; i < n; i++) values[i] = arg(p.frame(i));
      slide(f, values, state, removable, out, output);
    },
  };
}
