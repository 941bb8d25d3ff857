/**
 * The accumulated fields of the grouping stages (`$group`, `$bucket`, `$bucketAuto`): mongod's
 * `AccumulationStatement::parseAccumulationStatement` (accumulation_statement.cpp) for one
 * `<field>: {<accumulator>: <argument>}` of a specification, and the per-group states those
 * fields are accumulated in. The stages differ in how documents are assigned to groups; what a
 * group holds and how it is rendered is here.
 */
import { bsonTag, type Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { accumulatorNamed, UNSUPPORTED_ACCUMULATORS } from '../../../accumulators/registry.js';
import type { Accumulator, AccumulatorDefinition } from '../../../accumulators/types.js';
import type { ExpressionContext } from '../../../expression/context.js';
import type { Scope } from '../../../expression/scope.js';
import type { Evaluator, Frame } from '../../../expression/types.js';
import { compileSort } from '../../../query/sort.js';
import type { Collator } from '../../../values/collator.js';
import { compareValues } from '../../../values/compare.js';
import { collationKeyString } from '../../../values/key_string.js';
import { MISSING } from '../../../values/missing.js';
import { isNumber, toDouble } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';

/** One parsed `<field>: {<accumulator>: <argument>}`. */
export interface AccumulatedField {
  readonly field: string;
  readonly definition: AccumulatorDefinition;
  /** The argument, evaluated per document (for a `sortBy` accumulator: `[document, value]`). */
  readonly arg: Evaluator;
  /** `n` of an accumulator that has one, evaluated once per group. */
  readonly n?: Evaluator;
  /** The order of `sortBy` ($top...), over the documents fed with each value. */
  readonly compare?: (a: unknown, b: unknown) => number;
  readonly settings?: unknown;
  /**
   * The top-level field the argument reads when it is a plain field path (`"$name"`) of the
   * document (`$$CURRENT` not redefined): the value a stage may read without evaluating `arg`.
   */
  readonly argField?: string;
}

/**
 * The top-level field a plain field path `"$name"` reads when `$$CURRENT` is the document's
 * (no user variable named CURRENT in `scope`); undefined for any other expression.
 */
export function topLevelFieldPath(spec: unknown, scope: Scope): string | undefined {
  if (typeof spec !== 'string' || spec.length < 2 || spec.charCodeAt(0) !== 36 || spec.charCodeAt(1) === 36 || spec.includes('.')) return undefined;
  return scope.lookup('CURRENT') === undefined ? spec.slice(1) : undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;

const ONE: Evaluator = () => 1;

/**
 * Parses one accumulated field (40234 not an accumulator object, 40235 a dotted name, 40236 an
 * operator name, 40238 more than one accumulator, 40237 an array argument to a unary one, 15952
 * an unknown accumulator; 238 for one Mayfly lacks).
 */
export function parseAccumulatedField(field: string, value: unknown, scope: Scope, collator: Collator | null): AccumulatedField {
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
  const argField = topLevelFieldPath(argSpec, scope);
  return argField === undefined ? { field, definition, arg } : { field, definition, arg, argField };
}

/** Parses every field of an `output` specification, in order. */
export function parseAccumulatedFields(spec: Document, expressions: ExpressionContext): AccumulatedField[] {
  const collator = expressions.runtime.collator;
  return Object.keys(spec).map((field) => parseAccumulatedField(field, spec[field], expressions.scope, collator));
}

/** The accumulated fields of one group, and how they are fed and rendered. */
export class AccumulatedStates {
  private readonly states: Accumulator[];

  /**
   * New states for `fields`; `nDocument` is what their `n` is evaluated against (mongod: the
   * group key when it is a document, else an empty one).
   */
  constructor(
    private readonly fields: readonly AccumulatedField[],
    expressions: ExpressionContext,
    nDocument: Document,
  ) {
    const collator = expressions.runtime.collator;
    this.states = fields.map((a) => {
      if (a.n === undefined && a.compare === undefined && a.settings === undefined) return a.definition.create(collator);
      const n = a.n === undefined ? undefined : a.n(expressions.frame(nDocument));
      return a.definition.create(collator, false, { n, compare: a.compare, settings: a.settings, grouping: true });
    });
  }

  /** Feeds the document of `frame` to every field. */
  add(frame: Frame): void {
    const { fields, states } = this;
    for (let i = 0; i < fields.length; i++) states[i]!.add(fields[i]!.arg(frame));
  }

  /**
   * Feeds `doc` (a document: `frame`'s current one) to every field, the arguments that are plain
   * field paths read from it directly.
   */
  addDocument(doc: Document, frame: Frame): void {
    const { fields, states } = this;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      const name = f.argField;
      states[i]!.add(name === undefined ? f.arg(frame) : hasOwn.call(doc, name) ? doc[name] : MISSING);
    }
  }

  /**
   * Feeds field `i` the value `values[slots[i]]`, or `constants[i]` where `slots[i]` is -1: the
   * arguments read by a stage itself (`$group` over stored records, plain field paths and
   * constants), MISSING where a document has no such field.
   */
  addValues(values: readonly unknown[], slots: readonly number[], constants: readonly unknown[]): void {
    const states = this.states;
    for (let i = 0; i < states.length; i++) {
      const at = slots[i]!;
      states[i]!.add(at < 0 ? constants[i] : values[at]);
    }
  }

  /** Feeds the document of `frame` to field `i` alone (`$bucketAuto` feeds some fields in another order). */
  addTo(i: number, frame: Frame): void {
    this.states[i]!.add(this.fields[i]!.arg(frame));
  }

  /**
   * Writes every field's result into `out` in specification order (missing as null); `followed`
   * renders the values mongod 8.2 hands a following stage differently (`groupOutput`).
   */
  writeTo(out: Document, followed: boolean): Document {
    const { fields, states } = this;
    for (let i = 0; i < fields.length; i++) {
      const r = states[i]!.result();
      const output = followed ? fields[i]!.definition.groupOutput : undefined;
      out[fields[i]!.field] = r === MISSING ? null : output === undefined ? r : output(r);
    }
    return out;
  }
}

/**
 * The groups of a grouping stage by key: keys equal under BSON comparison (strings under the
 * collation) share a group. Numbers whose value is exactly a double (every Int32 and Double, most
 * Int64 and Decimal128 values) are looked up by that double, with no key string built: the hot
 * path of `$group` by a number; every other key by its `collationKeyString`.
 */
export class GroupTable<G> {
  private readonly numbers = new Map<number, G>();
  private readonly strings = new Map<string, G>();
  private readonly others = new Map<string, G>();
  private readonly order: G[] = [];

  constructor(private readonly collator: Collator | null) {}

  /** The group of `key`, if it has one. */
  get(key: unknown): G | undefined {
    if (typeof key === 'number') return this.numbers.get(key);
    if (typeof key === 'string' && this.collator === null) return this.strings.get(key);
    const str = this.symbolString(key);
    if (str !== undefined) return this.strings.get(str);
    const d = this.exactDouble(key);
    return d === undefined ? this.others.get(collationKeyString(key, this.collator)) : this.numbers.get(d);
  }

  /** Makes `g` the group of `key` (which has none). */
  add(key: unknown, g: G): void {
    this.order.push(g);
    if (typeof key === 'number') this.numbers.set(key, g);
    else if (typeof key === 'string' && this.collator === null) this.strings.set(key, g);
    else if (this.symbolString(key) !== undefined) this.strings.set(this.symbolString(key)!, g);
    else {
      const d = this.exactDouble(key);
      if (d === undefined) this.others.set(collationKeyString(key, this.collator), g);
      else this.numbers.set(d, g);
    }
  }

  /** The string of a Symbol, which groups with the equal string (no collation). */
  private symbolString(key: unknown): string | undefined {
    if (this.collator !== null || typeof key !== 'object' || key === null || bsonTag(key) !== 'BSONSymbol') return undefined;
    return String((key as { value: unknown }).value);
  }

  /** The double a number of another representation is exactly equal to, if any. */
  private exactDouble(key: unknown): number | undefined {
    if (!isNumber(key)) return undefined;
    const d = toDouble(key);
    return compareValues(key, d) === 0 ? d : undefined;
  }

  /** The groups in the order they were made. */
  groups(): readonly G[] {
    return this.order;
  }
}
