/**
 * `$fill` (mongo/src/mongo/db/pipeline/document_source_fill.cpp): null and missing values of the
 * `output` fields are filled, with a constant or per-document expression (`value`, as
 * `$ifNull`), the last non-null value before it (`method: 'locf'`) or the linear interpolation
 * between the non-null values around it along the single `sortBy` field (`method: 'linear'`).
 * mongod defines it as a `$setWindowFields` (partitioned by `partitionBy`, an expression, or
 * `partitionByFields`, sorted by `sortBy`) and an `$addFields`; this stage does the same work
 * directly: the documents are ordered by partition then `sortBy` when either is given, and the
 * methods run within each partition. A method that has nothing to fill from writes null.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { parseFieldPath } from '../../expression/field_path.js';
import type { Evaluator } from '../../expression/types.js';
import { compileSort, type Comparator } from '../../query/sort.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues } from '../../values/compare.js';
import { MISSING } from '../../values/missing.js';
import { doubleOf, isNumber, toDouble } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type StageDefinition } from '../stage.js';
import { valueAt, withValueAt } from './_internal/document_path.js';

type Output = { path: string[]; kind: 'value'; value: Evaluator } | { path: string[]; kind: 'locf' | 'linear' };

function idlType(path: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

const isNullish = (v: unknown): boolean => v === MISSING || v === null || v === undefined;

/** `{$fill: {partitionBy?, partitionByFields?, sortBy?, output: {<field>: {value} | {method}}}}`. */
export const fill: StageDefinition = {
  name: '$fill',
  constraints: BLOCKING,
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError('FailedToParse', `The $fill stage specification must be an object, found ${bsonTypeOf(spec)}`);
    const expressions = ctx.expressions;
    let partitionBy: unknown = MISSING;
    let partitionByFields: unknown = MISSING;
    let sortBy: unknown = MISSING;
    let outputSpec: unknown = MISSING;
    for (const [key, value] of Object.entries(spec)) {
      if (key === 'partitionBy') partitionBy = value;
      else if (key === 'partitionByFields') partitionByFields = value;
      else if (key === 'sortBy') sortBy = value;
      else if (key === 'output') outputSpec = value;
      else throw new CommandError(40415, `BSON field '$fill.${key}' is an unknown field.`);
    }
    if (sortBy !== MISSING && !isDocument(sortBy)) throw idlType('$fill.sortBy', sortBy, 'object');
    if (partitionByFields !== MISSING) {
      if (!Array.isArray(partitionByFields)) throw idlType('$fill.partitionByFields', partitionByFields, 'array');
      partitionByFields.forEach((p, i) => {
        if (typeof p !== 'string') throw idlType(`$fill.partitionByFields.${i}`, p, 'string');
      });
    }
    if (outputSpec === MISSING) throw new CommandError(40414, "BSON field '$fill.output' is missing but a required field");
    if (!isDocument(outputSpec)) throw idlType('$fill.output', outputSpec, 'object');
    if (partitionBy !== MISSING && partitionByFields !== MISSING) {
      throw new CommandError(6050204, "Maximum one of 'partitionBy' and 'partitionByFields can be specified in '$fill'");
    }
    const sortKeys = sortBy === MISSING ? [] : Object.keys(sortBy as Document);
    const outputs: Output[] = [];
    for (const [name, out] of Object.entries(outputSpec)) {
      const path = parseFieldPath(name);
      if (!isDocument(out)) throw idlType(`$fill.output.${name}`, out, 'object');
      let value: unknown = MISSING;
      let method: unknown = MISSING;
      for (const [key, v] of Object.entries(out)) {
        if (key === 'value') value = v;
        else if (key === 'method') method = v;
        else throw new CommandError(40415, `BSON field '$fill.output.${key}' is an unknown field.`);
      }
      if ((value === MISSING) === (method === MISSING)) {
        throw new CommandError(6050202, "Exactly one of 'value' and 'method' must be specified per field");
      }
      if (value !== MISSING) {
        outputs.push({ path, kind: 'value', value: expressions.parse(value) });
        continue;
      }
      if (typeof method !== 'string') throw idlType(`$fill.output.${name}.method`, method, 'string');
      if (method !== 'locf' && method !== 'linear') throw new CommandError(6050203, "Method must be either 'locf' or 'linear'");
      if (method === 'linear' && sortKeys.length !== 1) {
        throw new CommandError(605001, "$linearFill requires exactly one sortBy field, and it must be 'sortBy' of $fill");
      }
      outputs.push({ path, kind: method });
    }
    const sortCmp: Comparator | null = sortBy === MISSING ? null : compileSort(sortBy as Document, expressions.runtime.collator);
    const sortPath = sortKeys.length === 1 ? parseFieldPath(sortKeys[0]!) : null;
    const fieldPaths = partitionByFields === MISSING ? null : (partitionByFields as string[]).map(parseFieldPath);
    const partitionExpr: Evaluator | null = partitionBy === MISSING ? null : expressions.parse(partitionBy);
    const partitioned = fieldPaths !== null || partitionExpr !== null;
    const collator = expressions.runtime.collator;
    const methods = outputs.filter((o) => o.kind !== 'value');
    const values = outputs.filter((o): o is Extract<Output, { kind: 'value' }> => o.kind === 'value');

    function partitionOf(doc: Document): unknown {
      if (fieldPaths !== null) return fieldPaths.map((p) => { const v = valueAt(doc, p); return v === MISSING ? null : v; });
      if (partitionExpr !== null) {
        const v = partitionExpr(expressions.frame(doc));
        if (Array.isArray(v)) throw new CommandError(5722401, "An expression used to partition cannot evaluate to value of type array");
        return v === MISSING ? null : v;
      }
      return null;
    }

    /** The linear interpolation of one method's field over a partition's rows (in order). */
    function linear(rows: Document[], path: string[]): unknown[] {
      const ys = rows.map((d) => valueAt(d, path));
      const xs = rows.map((d) => valueAt(d, sortPath!));
      const out: unknown[] = ys.map((y) => (isNullish(y) ? null : y));
      let prev = -1;
      for (let i = 0; i < rows.length; i++) {
        const y = ys[i];
        if (isNullish(y)) continue;
        if (!isNumber(y)) throw new CommandError(6050106, 'Value to be filled with $linearFill must be numeric or nullish');
        if (prev >= 0 && i - prev > 1) {
          const x1 = toX(xs[prev]);
          const x2 = toX(xs[i]);
          const y1 = toDouble(ys[prev]);
          const y2 = toDouble(y);
          for (let j = prev + 1; j < i; j++) out[j] = doubleOf(y1 + ((toX(xs[j]) - x1) * (y2 - y1)) / (x2 - x1));
        }
        prev = i;
      }
      return out;
    }

    function toX(x: unknown): number {
      if (x instanceof Date) return x.getTime();
      if (isNumber(x)) return toDouble(x);
      throw new CommandError(6050105, 'The sortBy field of $linearFill must be numeric or a date');
    }

    function* fillPartition(rows: Document[]): Generator<Document> {
      const filled = methods.map((o) => {
        if (o.kind === 'linear') return linear(rows, o.path);
        let last: unknown = null;
        return rows.map((d) => {
          const v = valueAt(d, o.path);
          if (!isNullish(v)) last = v;
          return isNullish(v) ? last : v;
        });
      });
      for (let i = 0; i < rows.length; i++) {
        let doc = rows[i]!;
        methods.forEach((o, m) => {
          const before = valueAt(doc, o.path);
          if (isNullish(before)) doc = withValueAt(doc, o.path, filled[m]![i]);
        });
        for (const o of values) {
          if (!isNullish(valueAt(doc, o.path))) continue;
          const v = o.value(expressions.frame(doc));
          if (v !== MISSING) doc = withValueAt(doc, o.path, v);
        }
        yield doc;
      }
    }

    return {
      *run(input) {
        if (!partitioned && sortCmp === null && methods.length === 0) {
          yield* fillPartition(Array.from(input));
          return;
        }
        const rows = Array.from(input, (doc) => ({ doc, partition: partitionOf(doc) }));
        rows.sort((a, b) => compareValues(a.partition, b.partition, collator) || (sortCmp === null ? 0 : sortCmp(a.doc, b.doc)));
        let start = 0;
        for (let i = 1; i <= rows.length; i++) {
          if (i === rows.length || compareValues(rows[i]!.partition, rows[start]!.partition, collator) !== 0) {
            yield* fillPartition(rows.slice(start, i).map((r) => r.doc));
            start = i;
          }
        }
      },
    };
  },
};
