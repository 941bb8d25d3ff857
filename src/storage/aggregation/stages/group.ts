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
import type { Evaluator, Frame } from '../../expression/types.js';
import { MISSING } from '../../values/missing.js';
import { isNumber } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type PipelineParseContext, type StageDefinition, type StageInstance } from '../stage.js';
import { AccumulatedStates, GroupTable, parseAccumulatedField, topLevelFieldPath, type AccumulatedField } from './_internal/accumulated_fields.js';

const EMPTY: Document = Object.freeze({}) as Document;
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * A compound `_id` (`{a: <expression>, ...}`, not an operator) whose top-level field is a number
 * or a boolean reads as a projection's inclusion, which `$group` refuses (17390; `$literal`
 * passes such a constant).
 */
function checkNoInclusionStyle(id: unknown): void {
  if (!isDocument(id)) return;
  const keys = Object.keys(id);
  if (keys.length === 0 || keys[0]!.startsWith('$')) return;
  for (const key of keys) {
    const v = id[key];
    if (typeof v === 'boolean' || isNumber(v)) throw new CommandError(17390, '$group does not support inclusion-style expressions');
  }
}

/** Compiles a `$group` specification. */
function compileGroup(spec: unknown, pctx: PipelineParseContext): StageInstance {
  if (!isDocument(spec)) throw new CommandError(15947, "a group's fields must be specified in an object");
  const expressions = pctx.expressions;
  const scope = expressions.scope;
  let idExpr: Evaluator | undefined;
  const accs: AccumulatedField[] = [];
  for (const field of Object.keys(spec)) {
    if (field === '_id') {
      checkNoInclusionStyle(spec._id);
      idExpr = scope.parse(spec._id);
    }
    else accs.push(parseAccumulatedField(field, spec[field], scope, expressions.runtime.collator));
  }
  if (idExpr === undefined) throw new CommandError(15955, 'a group specification must include an _id');
  const key = idExpr;
  const keyField = topLevelFieldPath(spec._id, scope);
  const collator = expressions.runtime.collator;
  // mongod 8.2 (SBE) hands a `$group`'s MinKey/MaxKey results to a following stage as
  // `{"": MinKey}` (the recorded cases: `$min` over MinKey is MinKey when `$group` is last, and
  // `{"": MinKey}` under a `$project`); `groupOutput` says which accumulators do it.
  let followed = false;
  return {
    followed() {
      followed = true;
    },
    *run(input) {
      const table = new GroupTable<{ id: unknown; states: AccumulatedStates }>(collator);
      // One frame for every document (evaluated at once, never kept); a plain field path read directly.
      const frame = expressions.frame(EMPTY) as { root: Document; current: unknown };
      for (const doc of input) {
        frame.root = doc;
        frame.current = doc;
        const plain = isDocument(doc);
        let id = plain && keyField !== undefined ? (hasOwn.call(doc, keyField) ? doc[keyField] : MISSING) : key(frame as Frame);
        if (id === MISSING) id = null;
        let g = table.get(id);
        if (g === undefined) {
          // `n` is evaluated against the group key when it is a document, else an empty one.
          g = { id, states: new AccumulatedStates(accs, expressions, isDocument(id) ? id : EMPTY) };
          table.add(id, g);
        }
        if (plain) g.states.addDocument(doc, frame as Frame);
        else g.states.add(frame as Frame);
      }
      for (const g of table.groups()) yield g.states.writeTo({ _id: g.id }, followed);
    },
  };
}

/** `{$group: {_id: <expression>, <field>: {<accumulator>: <expression>}, ...}}`. */
export const group: StageDefinition = {
  name: '$group',
  constraints: BLOCKING,
  parse: (spec, ctx) => compileGroup(spec, ctx),
};
