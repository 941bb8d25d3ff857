/**
 * `$group` (mongo/src/mongo/db/pipeline/document_source_group.cpp, accumulation_statement.cpp):
 * documents are grouped by the value of the `_id` expression (missing groups as null; values
 * equal under BSON comparison, strings under the command's collation, share a group, the
 * first one seen is reported); each output
 * field is one accumulator. A blocking stage: groups are emitted in first-seen order once the
 * input is exhausted, `_id` first and the accumulators in specification order (missing → null).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Collator } from '../../values/collator.js';
import { collationKeyString } from '../../values/key_string.js';
import { ACCUMULATORS, SumState, UNSUPPORTED_ACCUMULATORS, type Accumulator } from '../accumulators.js';
import { parseOperand, type Evaluator, type ParseState } from '../expression_core.js';
import { MISSING, isDocument } from '../value.js';
import { evalContextOf, parseStateOf, type PipelineContext } from '../pipeline_context.js';
import type { Stage, StageParser } from './types.js';

interface AccumulatorSpec {
  readonly field: string;
  readonly create: (collator: Collator | null) => Accumulator;
  readonly arg: Evaluator;
}

function parseAccumulator(field: string, value: unknown, ps: ParseState): AccumulatorSpec {
  const keys = isDocument(value) ? Object.keys(value) : [];
  if (!isDocument(value) || keys.length === 0 || keys[0]!.charCodeAt(0) !== 36) {
    throw new CommandError(40234, `The field '${field}' must be an accumulator object`);
  }
  if (field.includes('.')) throw new CommandError(40235, `The field name '${field}' cannot contain '.'`);
  if (field.charCodeAt(0) === 36) throw new CommandError(40236, `The field name '${field}' cannot be an operator name`);
  if (keys.length !== 1) throw new CommandError(40238, `The field '${field}' must specify one accumulator`);
  const op = keys[0]!;
  const argSpec = value[op];
  if (op === '$count') {
    if (!isDocument(argSpec) || Object.keys(argSpec).length !== 0) {
      throw new CommandError('TypeMismatch', '$count takes no arguments, i.e. $count:{}');
    }
    return { field, create: () => new SumState(), arg: () => 1 };
  }
  if (Array.isArray(argSpec)) throw new CommandError(40237, `The ${op} accumulator is a unary operator`);
  const arg = parseOperand(argSpec, ps);
  const create = ACCUMULATORS[op];
  if (create === undefined) {
    if (UNSUPPORTED_ACCUMULATORS.has(op)) {
      throw new CommandError('NotImplemented', `The ${op} accumulator is not supported by Mayfly yet`);
    }
    throw new CommandError(15952, `unknown group operator '${op}'`);
  }
  return { field, create, arg };
}

/** Compiles a `$group` specification. */
export function compileGroup(spec: unknown, pctx: PipelineContext): Stage {
  if (!isDocument(spec)) throw new CommandError(15947, "a group's fields must be specified in an object");
  const ps = parseStateOf(pctx);
  let idExpr: Evaluator | undefined;
  const accs: AccumulatorSpec[] = [];
  for (const field of Object.keys(spec)) {
    if (field === '_id') idExpr = parseOperand(spec._id, ps);
    else accs.push(parseAccumulator(field, spec[field], ps));
  }
  if (idExpr === undefined) throw new CommandError(15955, 'a group specification must include an _id');
  const key = idExpr;
  const collator = pctx.collator ?? null;
  return function* group(input) {
    const groups = new Map<string, { id: unknown; states: Accumulator[] }>();
    for (const doc of input) {
      const ctx = evalContextOf(pctx, doc);
      let id = key(ctx);
      if (id === MISSING) id = null;
      const k = collationKeyString(id, collator);
      let g = groups.get(k);
      if (g === undefined) {
        g = { id, states: accs.map((a) => a.create(collator)) };
        groups.set(k, g);
      }
      for (let i = 0; i < accs.length; i++) g.states[i]!.process(accs[i]!.arg(ctx));
    }
    for (const g of groups.values()) {
      const out: Document = { _id: g.id };
      for (let i = 0; i < accs.length; i++) {
        const r = g.states[i]!.result();
        out[accs[i]!.field] = r === MISSING ? null : r;
      }
      yield out;
    }
  };
}

/** Parses `{$group: {_id: <expr>, field: {<accumulator>: <expr>}, ...}}`. */
export const parseGroup: StageParser = (spec, ctx) => compileGroup(spec, ctx);
