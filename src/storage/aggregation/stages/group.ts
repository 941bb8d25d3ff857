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
import { asSbeError } from '../../expression/engine_error.js';
import { MISSING } from '../../values/missing.js';
import { isNumber } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { documentFields, readRecordFields } from '../../record.js';
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

/** A group: its key as first seen, and its accumulated fields. */
interface Group {
  readonly id: unknown;
  readonly states: AccumulatedStates;
}

/**
 * How a `$group` whose `_id` and arguments are all plain top-level field paths or constants reads
 * a record: the distinct fields it reads (`names`), where the key is among them (-1: the constant
 * `keyConstant`), and where each accumulated field's argument is (-1: its constant of
 * `argConstants`). Such a group reads those fields from the stored bytes (`readRecordFields`)
 * and feeds the values as they are: no document, no expression evaluated.
 */
interface DirectRead {
  readonly names: readonly string[];
  readonly keySlot: number;
  readonly keyConstant: unknown;
  readonly argSlots: readonly number[];
  readonly argConstants: readonly unknown[];
}

/** A literal that evaluates to itself whatever the document (a number, a boolean, null). */
function isScalarLiteral(spec: unknown): boolean {
  return spec === null || typeof spec === 'number' || typeof spec === 'boolean';
}

/**
 * The `DirectRead` of a `$group` of specification `spec`, or null when an argument or the key is
 * an expression of another kind (the group then evaluates them against decoded documents).
 */
function directRead(spec: Document, keyField: string | undefined, key: Evaluator, accs: readonly AccumulatedField[], constantFrame: () => Frame): DirectRead | null {
  const names: string[] = [];
  const slot = (name: string): number => {
    const at = names.indexOf(name);
    return at >= 0 ? at : names.push(name) - 1;
  };
  let keySlot = -1;
  let keyConstant: unknown = null;
  if (keyField !== undefined) keySlot = slot(keyField);
  else if (isScalarLiteral(spec._id) || (typeof spec._id === 'string' && spec._id.charCodeAt(0) !== 36)) keyConstant = key(constantFrame());
  else return null;
  const argSlots: number[] = [];
  const argConstants: unknown[] = [];
  for (const acc of accs) {
    if (acc.n !== undefined || acc.compare !== undefined || acc.settings !== undefined) return null;
    const accSpec = spec[acc.field] as Document;
    const argSpec = accSpec[Object.keys(accSpec)[0]!];
    if (acc.argField !== undefined) {
      argSlots.push(slot(acc.argField));
      argConstants.push(undefined);
    } else if (acc.definition.argument === 'empty' || (acc.definition.argument === 'expression' && isScalarLiteral(argSpec))) {
      argSlots.push(-1);
      argConstants.push(acc.arg(constantFrame()));
    } else return null;
  }
  return { names, keySlot, keyConstant, argSlots, argConstants };
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
  const direct = directRead(spec, keyField, key, accs, () => expressions.frame(EMPTY));
  // mongod 8.2 (SBE) hands a `$group`'s MinKey/MaxKey results to a following stage as
  // `{"": MinKey}` (the recorded cases: `$min` over MinKey is MinKey when `$group` is last, and
  // `{"": MinKey}` under a `$project`); `groupOutput` says which accumulators do it.
  let followed = false;
  const newGroup = (table: GroupTable<Group>, id: unknown): Group => {
    // `n` is evaluated against the group key when it is a document, else an empty one.
    const g = { id, states: new AccumulatedStates(accs, expressions, isDocument(id) ? id : EMPTY) };
    table.add(id, g);
    return g;
  };
  // Feeds one document to its group (made when new); one frame for every document (evaluated at
  // once, never kept), a plain field path read directly.
  const grouper = (table: GroupTable<Group>): ((doc: Document) => void) => {
    const frame = expressions.frame(EMPTY) as { root: Document; current: unknown };
    return (doc) => {
      frame.root = doc;
      frame.current = doc;
      const plain = isDocument(doc);
      let id = plain && keyField !== undefined ? (hasOwn.call(doc, keyField) ? doc[keyField] : MISSING) : key(frame as Frame);
      if (id === MISSING) id = null;
      const g = table.get(id) ?? newGroup(table, id);
      if (plain) g.states.addDocument(doc, frame as Frame);
      else g.states.add(frame as Frame);
    };
  };
  return {
    followed() {
      followed = true;
    },
    *run(input) {
      const table = new GroupTable<Group>(collator);
      const add = grouper(table);
      for (const doc of input) add(doc);
      for (const g of table.groups()) yield g.states.writeTo({ _id: g.id }, followed);
    },
    // Over the query's records: the fields read from their bytes when `direct` applies, else the
    // documents decoded as far as the pipeline reads them. mongod 8.2 runs this `$group` (the
    // first stage over the collection) in SBE: its evaluation errors carry SBE's codes.
    *runRecords(forEach, fields) {
      const table = new GroupTable<Group>(collator);
      if (direct === null) {
        const add = grouper(table);
        try {
          forEach((rec) => add(documentFields(rec, fields)));
        } catch (err) {
          throw asSbeError(err);
        }
      } else {
        const { names, keySlot, keyConstant, argSlots, argConstants } = direct;
        const values: unknown[] = new Array<unknown>(names.length).fill(MISSING);
        const reads = names.length > 0;
        forEach((rec) => {
          if (reads) readRecordFields(rec, names, values, MISSING);
          let id = keySlot < 0 ? keyConstant : values[keySlot];
          if (id === MISSING) id = null;
          const g = table.get(id) ?? newGroup(table, id);
          g.states.addValues(values, argSlots, argConstants);
        });
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
