/**
 * `$setWindowFields` (mongo/src/mongo/db/pipeline/document_source_set_window_fields.cpp,
 * window_function/*): `{partitionBy?, sortBy?, output: {<path>: {<function>: <argument>,
 * window?}}}`. A blocking stage: the input is ordered by partition (the value of `partitionBy`,
 * missing as null; an array is refused) then `sortBy`, stably, as mongod's `$sort` before its
 * `$_internalSetWindowFields`; each partition's outputs are computed by the window functions
 * (`../window/`, README.md there) and set on its documents, in order. Without `partitionBy` and
 * `sortBy` the documents keep their order.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { valueBytes } from '../../accumulators/_internal.js';
import { UNSUPPORTED_ACCUMULATORS, accumulatorNamed } from '../../accumulators/registry.js';
import { parseFieldPath } from '../../expression/field_path.js';
import type { Evaluator } from '../../expression/types.js';
import { CONSTANT_FRAME } from '../../expression/value.js';
import { compileSort, parseSortSpec, type Comparator } from '../../query/sort.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues } from '../../values/compare.js';
import { isFoldableOperand } from '../../values/constant_operand.js';
import { MISSING } from '../../values/missing.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type StageDefinition } from '../stage.js';
import { parseAccumulatorWindow } from '../window/accumulator.js';
import { isWindowFunction, windowFunctionNamed } from '../window/registry.js';
import type { Partition, WindowFunction, WindowParseContext, WindowSortBy } from '../window/types.js';
import { withValueAt } from './_internal/document_path.js';

interface Output {
  readonly path: string[];
  readonly fn: WindowFunction;
}

const idlType = (field: string, value: unknown, expected: string): CommandError =>
  new CommandError('TypeMismatch', `BSON field '$setWindowFields.${field}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);

/** mongod's `internalDocumentSourceSetWindowFieldsMaxMemoryBytes`: a partition's limit without disk use. */
export const MAX_PARTITION_BYTES = 100 * 1024 * 1024;

const ARRAY_PARTITION = 'An expression used to partition cannot evaluate to value of type array';

/** `Expression::parse` of window_function_expression.cpp: the first `$` field names the function. */
function parseWindowFunction(field: string, spec: unknown, ctx: WindowParseContext): WindowFunction {
  if (!isDocument(spec)) throw new CommandError('FailedToParse', `The field '${field}' must be an object`);
  const keys = Object.keys(spec);
  for (const name of keys) {
    if (name.charCodeAt(0) !== 36) continue;
    const own = windowFunctionNamed(name);
    if (own !== undefined) return own.parse(spec, ctx);
    const acc = accumulatorNamed(name);
    if (acc !== undefined) return parseAccumulatorWindow(acc, spec, ctx);
    if (UNSUPPORTED_ACCUMULATORS.has(name) && name !== '$accumulator') {
      throw new CommandError('NotImplemented', `The ${name} window function is not supported by Mayfly yet`);
    }
    throw new CommandError('FailedToParse', `Unrecognized window function, ${name}`);
  }
  throw new CommandError('FailedToParse', `Expected a $-prefixed window function${keys.length === 0 || keys[0] === '' ? '' : `, ${keys[0]}`}`);
}

const hasOwn = Object.prototype.hasOwnProperty;

/** A copy of `doc` with the top-level field `name` set to `value` (in place when it exists, else last). */
function withTopLevel(doc: Document, name: string, value: unknown): Document {
  // `__proto__` is an own field of a BSON document, never the prototype: defined, not assigned.
  if (name === '__proto__' || hasOwn.call(doc, '__proto__')) return withValueAt(doc, [name], value);
  // Object.assign, not a spread: V8 gives a spread copy a map that a new field makes slow (2 µs).
  const out: Document = Object.assign({}, doc);
  out[name] = value;
  return out;
}

/** Two output paths where one is the other or a prefix of it (6307900). */
function conflicting(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `{$setWindowFields: {partitionBy?, sortBy?, output}}`. */
export const setWindowFields: StageDefinition = {
  name: '$setWindowFields',
  constraints: BLOCKING,
  parse(spec, pctx) {
    if (!isDocument(spec)) {
      throw new CommandError('FailedToParse', `the $setWindowFields stage specification must be an object, found ${bsonTypeOf(spec)}`);
    }
    const expressions = pctx.expressions;
    const collator = expressions.runtime.collator;
    let partitionSpec: unknown = MISSING;
    let sortSpec: unknown = MISSING;
    let outputSpec: unknown = MISSING;
    for (const [key, value] of Object.entries(spec)) {
      if (key === 'partitionBy') partitionSpec = value;
      else if (key === 'sortBy') {
        if (value !== null && !isDocument(value)) throw idlType('sortBy', value, 'object');
        sortSpec = value === null ? MISSING : value;
      } else if (key === 'output') {
        if (!isDocument(value)) throw idlType('output', value, 'object');
        outputSpec = value;
      } else throw new CommandError(40415, `BSON field '$setWindowFields.${key}' is an unknown field.`);
    }
    if (outputSpec === MISSING) throw new CommandError(40414, "BSON field '$setWindowFields.output' is missing but a required field");
    const partitionBy: Evaluator | null = partitionSpec === MISSING ? null : expressions.parse(partitionSpec);
    let sortBy: WindowSortBy | null = null;
    let sortCmp: Comparator | null = null;
    if (sortSpec !== MISSING) {
      const sortDoc = sortSpec as Document;
      sortBy = { spec: sortDoc, keys: parseSortSpec(sortDoc) };
      sortCmp = sortBy.keys.length === 0 ? null : compileSort(sortDoc, collator);
    }
    const limited = pctx.runtime.allowDiskUse === false;
    const ctx: WindowParseContext = { expressions, sortBy, isFunction: isWindowFunction };
    const outputs: Output[] = [];
    for (const [field, value] of Object.entries(outputSpec as Document)) {
      const path = parseFieldPath(field);
      if (outputs.some((o) => conflicting(o.path, path))) {
        throw new CommandError(6307900, "$setWindowFields 'output' specification contains two conflicting paths");
      }
      outputs.push({ path, fn: parseWindowFunction(field, value, ctx) });
    }
    // A constant partition is one partition (an array constant is refused now).
    let partition = partitionBy;
    if (partitionBy !== null && isFoldableOperand(partitionSpec)) {
      if (Array.isArray(partitionBy(CONSTANT_FRAME))) throw new CommandError('TypeMismatch', ARRAY_PARTITION);
      partition = null;
    }
    return {
      *run(input) {
        let docs: Document[] = Array.isArray(input) ? (input as Document[]).slice() : Array.from(input);
        let keys: unknown[] | null = null;
        if (partition !== null) {
          const ev = partition;
          const withKeys = docs.map((doc) => {
            let k = ev(expressions.frame(doc));
            if (k === MISSING) k = null;
            else if (Array.isArray(k)) throw new CommandError('TypeMismatch', ARRAY_PARTITION);
            return { doc, k };
          });
          const cmp = sortCmp;
          withKeys.sort((a, b) => compareValues(a.k, b.k, collator) || (cmp === null ? 0 : cmp(a.doc, b.doc)));
          docs = withKeys.map((r) => r.doc);
          keys = withKeys.map((r) => r.k);
        } else if (sortCmp !== null) docs.sort(sortCmp);
        const n = docs.length;
        let start = 0;
        while (start < n) {
          let end = start + 1;
          if (keys !== null) {
            const k = keys[start];
            while (end < n && compareValues(keys[end], k, collator) === 0) end++;
          } else end = n;
          if (limited) checkMemory(docs, start, end);
          const rows = start === 0 && end === n ? docs : docs.slice(start, end);
          const values = computePartition(rows);
          for (let i = 0; i < rows.length; i++) yield withOutputs(rows[i]!, values, i);
          start = end;
        }
      },
    };

    /**
     * A partition held in memory past the limit when the command said `allowDiskUse: false`
     * (5414201); sizes are BSON sizes, mongod's its own estimates.
     */
    function checkMemory(docs: readonly Document[], start: number, end: number): void {
      let bytes = 0;
      for (let i = start; i < end; i++) {
        bytes += valueBytes(docs[i]);
        if (bytes > MAX_PARTITION_BYTES) {
          throw new CommandError(
            5414201,
            `Exceeded memory limit in DocumentSourceSetWindowFields, used ${bytes} bytes but max allowed is ${MAX_PARTITION_BYTES}`,
          );
        }
      }
    }

    /** Each output's values over the sorted partition `rows`. */
    function computePartition(rows: Document[]): unknown[][] {
      const p: Partition = { docs: rows, frame: (i) => expressions.frame(rows[i]!) };
      return outputs.map((o) => {
        const out = new Array<unknown>(rows.length);
        o.fn.compute(p, out);
        return out;
      });
    }

    /** `doc` with the outputs' values of its row `i` set (a MISSING value sets nothing). */
    function withOutputs(doc: Document, values: unknown[][], i: number): Document {
      let out = doc;
      for (let o = 0; o < outputs.length; o++) {
        const v = values[o]![i];
        if (v === MISSING) continue;
        const path = outputs[o]!.path;
        out = path.length === 1 ? withTopLevel(out, path[0]!, v) : withValueAt(out, path, v);
      }
      return out;
    }
  },
};
