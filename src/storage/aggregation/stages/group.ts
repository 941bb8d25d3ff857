/**
 * `$group` (mongo/src/mongo/db/pipeline/document_source_group.cpp, accumulation_statement.cpp):
 * documents are grouped by the value of the `_id` expression (missing groups as null; values
 * equal under BSON comparison, strings under the command's collation, share a group, the
 * first one seen is reported); each output field is one accumulator (`{$topN: {n, sortBy,
 * output}}` and the like: their `n` evaluated once per group against the group key, their
 * `sortBy` compiled here). A blocking stage: groups are emitted in first-seen order once the
 * input is exhausted, `_id` first and the accumulators in specification order (missing → null).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { accumulatorNamed, UNSUPPORTED_ACCUMULATORS } from '../../accumulators/registry.js';
import type { Accumulator, AccumulatorDefinition } from '../../accumulators/types.js';
import type { Scope } from '../../expression/scope.js';
import type { Evaluator } from '../../expression/types.js';
import { compileSort } from '../../query/sort.js';
import type { Collator } from '../../values/collator.js';
import { MISSING } from '../../values/missing.js';
import { isDocument } from '../../values/paths.js';
import { collationKeyString } from '../../values/key_string.js';
import { BLOCKING, type PipelineParseContext, type StageDefinition, type StageInstance } from '../stage.js';

interface AccumulatorSpec {
  readonly field: string;
  readonly definition: AccumulatorDefinition;
  readonly arg: Evaluator;
  /** `n` of an accumulator that has one, evaluated once per group against the group key. */
  readonly n?: Evaluator;
  /** The order of `sortBy` ($top...), over the documents fed with each value. */
  readonly compare?: (a: unknown, b: unknown) => number;
  readonly settings?: unknown;
}

const ONE: Evaluator = () => 1;

function parseAccumulator(field: string, value: unknown, scope: Scope, collator: Collator | null): AccumulatorSpec {
  const keys = isDocument(value) ? Object.keys(value) : [];
  if (!isDocument(value) || keys.length === 0 || keys[0]!.charCodeAt(0) !== 36) {
    throw new CommandError(40234, `The field '${field}' must be an accumulator object`);
  }
  if (field.includes('.')) throw new CommandError(40235, `The field name '${field}' cannot contain '.'`);
  if (field.charCodeAt(0) === 36) throw new CommandError(40236, `The field name '${field}' cannot be an operator name`);
  if (keys.length !== 1) throw new CommandError(40238, `The field '${field}' must specify one accumulator`);
  const op = keys[0]!;
  const argSpec = value[op];
  const definition = accumulatorNamed(op);
  if (definition?.argument === 'empty') {
    if (!isDocument(argSpec) || Object.keys(argSpec).length !== 0) {
      throw new CommandError('TypeMismatch', `${op} takes no arguments, i.e. ${op}:{}`);
    }
    return { field, definition, arg: ONE };
  }
  if (definition?.parseArguments !== undefined) {
    const parts = definition.parseArguments(argSpec);
    const input = scope.parse(parts.input);
    const n = parts.n === undefined ? undefined : scope.parse(parts.n);
    if (parts.sortBy === undefined) return { field, definition, arg: input, n, settings: parts.settings };
    const sort = compileSort(parts.sortBy as Document, collator);
    const arg: Evaluator = (frame) => [frame.current, input(frame)];
    return { field, definition, arg, n, compare: sort as (a: unknown, b: unknown) => number, settings: parts.settings };
  }
  if (Array.isArray(argSpec)) throw new CommandError(40237, `The ${op} accumulator is a unary operator`);
  const arg = scope.parse(argSpec);
  if (definition === undefined) {
    if (UNSUPPORTED_ACCUMULATORS.has(op)) {
      throw new CommandError('NotImplemented', `The ${op} accumulator is not supported by Mayfly yet`);
    }
    throw new CommandError(15952, `unknown group operator '${op}'`);
  }
  return { field, definition, arg };
}

/** Compiles a `$group` specification. */
function compileGroup(spec: unknown, pctx: PipelineParseContext): StageInstance {
  if (!isDocument(spec)) throw new CommandError(15947, "a group's fields must be specified in an object");
  const expressions = pctx.expressions;
  const scope = expressions.scope;
  let idExpr: Evaluator | undefined;
  const accs: AccumulatorSpec[] = [];
  for (const field of Object.keys(spec)) {
    if (field === '_id') idExpr = scope.parse(spec._id);
    else accs.push(parseAccumulator(field, spec[field], scope, expressions.runtime.collator));
  }
  if (idExpr === undefined) throw new CommandError(15955, 'a group specification must include an _id');
  const key = idExpr;
  const collator = expressions.runtime.collator;
  const createState = (a: AccumulatorSpec, id: unknown): Accumulator => {
    if (a.n === undefined && a.compare === undefined && a.settings === undefined) return a.definition.create(collator);
    // mongod evaluates `n` against the group key when it is a document, else an empty one.
    const n = a.n === undefined ? undefined : a.n(expressions.frame(isDocument(id) ? id : {}));
    return a.definition.create(collator, false, { n, compare: a.compare, settings: a.settings });
  };
  // mongod 8.2 (SBE) hands a `$group`'s MinKey/MaxKey results to a following stage as
  // `{"": MinKey}` (the recorded cases: `$min` over MinKey is MinKey when `$group` is last, and
  // `{"": MinKey}` under a `$project`); `groupOutput` says which accumulators do it.
  let followed = false;
  return {
    followed() {
      followed = true;
    },
    *run(input) {
      const groups = new Map<string, { id: unknown; states: Accumulator[] }>();
      for (const doc of input) {
        const frame = expressions.frame(doc);
        let id = key(frame);
        if (id === MISSING) id = null;
        const k = collationKeyString(id, collator);
        let g = groups.get(k);
        if (g === undefined) {
          const groupKey = id;
          g = { id, states: accs.map((a) => createState(a, groupKey)) };
          groups.set(k, g);
        }
        for (let i = 0; i < accs.length; i++) g.states[i]!.add(accs[i]!.arg(frame));
      }
      for (const g of groups.values()) {
        const out: Document = { _id: g.id };
        for (let i = 0; i < accs.length; i++) {
          const r = g.states[i]!.result();
          const output = followed ? accs[i]!.definition.groupOutput : undefined;
          out[accs[i]!.field] = r === MISSING ? null : output === undefined ? r : output(r);
        }
        yield out;
      }
    },
  };
}

/** `{$group: {_id: <expression>, <field>: {<accumulator>: <expression>}, ...}}`. */
export const group: StageDefinition = {
  name: '$group',
  constraints: BLOCKING,
  parse: (spec, ctx) => compileGroup(spec, ctx),
};
