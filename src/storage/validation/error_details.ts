/**
 * The `details` of a document validation failure (`errInfo.details`), in the shape mongod 8.2
 * builds (mongo/src/mongo/db/matcher/doc_validation_error.cpp): the validator is walked as the
 * tree of match expressions mongod parses it into, and every node that explains the failure
 * says so.
 *
 *   - a leaf: `{operatorName, specifiedAs, reason, consideredValue | consideredValues, ...}`,
 *     the reason being 'field was missing', 'type did not match' (with the considered and
 *     expected types) or the operator's own ('comparison failed', 'no matching value found in
 *     array', ...); under a negation ($not, $nor, $ne, $nin, `$exists: false`) the inverted
 *     reason ('comparison succeeded', ...);
 *   - `$and`/`$or`/`$nor`: `{operatorName, clausesNotSatisfied: [{index, details}]}` (or
 *     `clausesSatisfied` when negated); several top-level clauses form an implicit `$and`, a
 *     single one stands alone;
 *   - `$not`: `{operatorName: '$not', details}`; `$expr`: `{..., reason, expressionResult}`;
 *   - `$jsonSchema`: `{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [...]}`, one entry
 *     per failing keyword (properties → propertiesNotSatisfied with each property's details,
 *     required → missingProperties, bsonType/type, minimum, maxLength, enum, pattern, items,
 *     additionalProperties, allOf/anyOf/oneOf/not, dependencies, ...), `title` and
 *     `description` copied where mongod copies them.
 * Whether a node fails is decided by the same compiled filters and schema tests that enforce
 * the validator, so the explanation never disagrees with the decision.
 */
import type { Document } from '../../bson/library.js';
import { ExpressionContext } from '../expression/context.js';
import { compileFilter, type Predicate } from '../query/compile_filter.js';
import { isExpressionDocument, isRegexValue } from '../query/operators/comparison.js';
import { compileSchemaValueTest, propertyOf } from '../query/operators/json_schema.js';
import type { ValueTest } from '../query/types.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { compareStrings, valuesEqual } from '../values/compare.js';
import { isDocument, MISSING, parsePath, walkPath } from '../values/paths.js';
import { compileRegex } from '../query/regex.js';

/** A node of the validator's expression tree. */
type Node =
  | { readonly kind: 'tree'; readonly op: '$and' | '$or' | '$nor'; readonly children: readonly Node[]; readonly test: Predicate }
  | { readonly kind: 'not'; readonly child: Node; readonly test: Predicate }
  | { readonly kind: 'leaf'; readonly op: string; readonly path: string; readonly specifiedAs: Document; readonly arg: unknown; readonly negated: boolean; readonly test: Predicate }
  | { readonly kind: 'expr'; readonly spec: unknown; readonly test: Predicate }
  | { readonly kind: 'always'; readonly op: string; readonly spec: unknown; readonly test: Predicate }
  | { readonly kind: 'schema'; readonly schema: Document; readonly test: Predicate };

interface Context {
  readonly expressions: ExpressionContext;
  compile(filter: Document): Predicate;
}

/** The `details` document for `doc`, which fails `validator`. */
export function validationErrorDetails(validator: Document, doc: Document, nowMs: number): Document {
  const expressions = new ExpressionContext({ now: new Date(nowMs) });
  const ctx: Context = {
    expressions,
    compile: (filter) =>
      compileFilter(filter, {
        whereAllowed: false,
        compileExpr: (expr) => expressions.predicate(expr),
      }),
  };
  const root = parseFilter(validator, ctx);
  return explain(root, doc, false, ctx) ?? {};
}

// ---- the tree ---------------------------------------------------------------------------

/** A filter document as one node (a single clause stands alone; several form an `$and`). */
function parseFilter(filter: Document, ctx: Context): Node {
  const clauses = parseClauses(filter, ctx);
  if (clauses.length === 1) return clauses[0]!;
  return { kind: 'tree', op: '$and', children: clauses, test: ctx.compile(filter) };
}

function parseClauses(filter: Document, ctx: Context): Node[] {
  const out: Node[] = [];
  for (const key of Object.keys(filter)) {
    const value = filter[key];
    if (key === '$comment') continue;
    if (key === '$and' || key === '$or' || key === '$nor') {
      const children = (value as Document[]).map((sub) => parseFilter(sub, ctx));
      out.push({ kind: 'tree', op: key, children, test: ctx.compile({ [key]: value }) });
      continue;
    }
    if (key === '$expr') {
      out.push({ kind: 'expr', spec: value, test: ctx.compile({ $expr: value }) });
      continue;
    }
    if (key === '$jsonSchema') {
      out.push({ kind: 'schema', schema: value as Document, test: ctx.compile({ $jsonSchema: value }) });
      continue;
    }
    if (key === '$alwaysTrue' || key === '$alwaysFalse') {
      out.push({ kind: 'always', op: key, spec: value, test: ctx.compile({ [key]: value }) });
      continue;
    }
    if (key.startsWith('$')) {
      out.push(leafNode(key, '', { [key]: value }, value, false, ctx.compile({ [key]: value })));
      continue;
    }
    if (isExpressionDocument(value, false)) {
      out.push(...parseOperators(key, value as Document, ctx));
      continue;
    }
    const op = isRegexValue(value) ? '$regex' : '$eq';
    out.push(leafNode(op, key, { [key]: value }, value, false, ctx.compile({ [key]: value })));
  }
  return out;
}

function leafNode(op: string, path: string, specifiedAs: Document, arg: unknown, negated: boolean, test: Predicate): Node {
  return { kind: 'leaf', op, path, specifiedAs, arg, negated, test };
}

/** The operators of `{path: {$op: arg, ...}}`, one node each (`$regex` with its `$options`). */
function parseOperators(path: string, ops: Document, ctx: Context): Node[] {
  const out: Node[] = [];
  for (const op of Object.keys(ops)) {
    const arg = ops[op];
    if (op === '$options') continue;
    if (op === '$regex') {
      const spec: Document = { $regex: arg };
      if ('$options' in ops) spec.$options = ops.$options;
      out.push(leafNode('$regex', path, { [path]: spec }, arg, false, ctx.compile({ [path]: spec })));
      continue;
    }
    const specifiedAs = { [path]: { [op]: arg } };
    const test = ctx.compile(specifiedAs);
    if (op === '$not') {
      const inner: Node[] = isDocument(arg) ? parseOperators(path, arg, ctx) : [leafNode('$regex', path, { [path]: arg }, arg, false, ctx.compile({ [path]: arg }))];
      const child: Node = inner.length === 1 ? inner[0]! : { kind: 'tree', op: '$and', children: inner, test: ctx.compile({ [path]: arg }) };
      out.push({ kind: 'not', child, test });
      continue;
    }
    // $ne, $nin and {$exists: false} are negations mongod explains as their own operator.
    const negated = op === '$ne' || op === '$nin' || (op === '$exists' && !truthy(arg));
    out.push(leafNode(op, path, specifiedAs, arg, negated, test));
  }
  return out;
}

function truthy(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (isNumber(v)) return toDouble(v) !== 0;
  return v !== null && v !== undefined;
}

// ---- explanations -------------------------------------------------------------------------

/** The explanation of `node` failing (or, `inverted`, matching) on `doc`. */
function explain(node: Node, doc: Document, inverted: boolean, ctx: Context): Document | null {
  switch (node.kind) {
    case 'tree':
      return explainTree(node, doc, inverted, ctx);
    case 'not':
      return { operatorName: '$not', details: explain(node.child, doc, !inverted, ctx) ?? {} };
    case 'leaf':
      return explainLeaf(node, doc, inverted);
    case 'expr':
      return explainExpr(node.spec, doc, inverted, ctx);
    case 'always':
      return {
        operatorName: node.op,
        specifiedAs: { [node.op]: node.spec },
        reason: inverted ? 'expression always evaluates to true' : 'expression always evaluates to false',
      };
    case 'schema':
      if (inverted) return { operatorName: '$jsonSchema', reason: 'schema matched' };
      return withAnnotations({ operatorName: '$jsonSchema' }, node.schema, { schemaRulesNotSatisfied: explainSchema(node.schema, doc, true) });
  }
}

function explainTree(node: Extract<Node, { kind: 'tree' }>, doc: Document, inverted: boolean, ctx: Context): Document {
  // $nor explains its clauses negated; which clauses take part depends on the context.
  const childInverted = node.op === '$nor' ? !inverted : inverted;
  const field = inverted ? 'clausesSatisfied' : 'clausesNotSatisfied';
  const entries: Document[] = [];
  node.children.forEach((child, index) => {
    let contributes: boolean;
    if (node.op === '$and') contributes = inverted ? true : !child.test(doc);
    else if (node.op === '$or') contributes = inverted ? child.test(doc) : true;
    else contributes = inverted ? true : child.test(doc);
    if (!contributes) return;
    const details = explain(child, doc, childInverted, ctx);
    if (details) entries.push({ index, details });
  });
  return { operatorName: node.op, [field]: entries };
}

function explainExpr(spec: unknown, doc: Document, inverted: boolean, ctx: Context): Document {
  const out: Document = { operatorName: '$expr', specifiedAs: { $expr: spec } };
  try {
    const value = ctx.expressions.compile(spec)(doc);
    out.reason = inverted ? 'expression did match' : 'expression did not match';
    if (value !== undefined) out.expressionResult = value;
  } catch (err) {
    out.reason = 'failed to evaluate aggregation expression';
    const e = err as { code?: unknown; codeName?: unknown; message?: unknown };
    out.details = { code: e.code, codeName: e.codeName, errmsg: e.message };
  }
  return out;
}

/** The reasons of each leaf operator: [normal, inverted], and the types it expects. */
const LEAF_RULES: Readonly<Record<string, { reasons: [string, string]; expected?: readonly string[]; noTraversal?: boolean }>> = {
  $eq: { reasons: ['comparison failed', 'comparison succeeded'] },
  $ne: { reasons: ['comparison failed', 'comparison succeeded'] },
  $gt: { reasons: ['comparison failed', 'comparison succeeded'] },
  $gte: { reasons: ['comparison failed', 'comparison succeeded'] },
  $lt: { reasons: ['comparison failed', 'comparison succeeded'] },
  $lte: { reasons: ['comparison failed', 'comparison succeeded'] },
  $in: { reasons: ['no matching value found in array', 'matching value found in array'] },
  $nin: { reasons: ['no matching value found in array', 'matching value found in array'] },
  $regex: { reasons: ['regular expression did not match', 'regular expression did match'], expected: ['regex', 'string', 'symbol'] },
  $mod: { reasons: ['$mod did not evaluate to expected remainder', '$mod did evaluate to expected remainder'], expected: ['decimal', 'double', 'int', 'long'] },
  $size: { reasons: ['array length was not equal to given size', 'array length was equal to given size'], expected: ['array'], noTraversal: true },
  $elemMatch: { reasons: ['array did not satisfy the child predicate', 'array did satisfy the child predicate'], expected: ['array'], noTraversal: true },
  $bitsAllClear: { reasons: ['bitwise operator failed to match', 'bitwise operator matched successfully'], expected: ['binData', 'decimal', 'double', 'int', 'long'] },
  $bitsAllSet: { reasons: ['bitwise operator failed to match', 'bitwise operator matched successfully'], expected: ['binData', 'decimal', 'double', 'int', 'long'] },
  $bitsAnyClear: { reasons: ['bitwise operator failed to match', 'bitwise operator matched successfully'], expected: ['binData', 'decimal', 'double', 'int', 'long'] },
  $bitsAnySet: { reasons: ['bitwise operator failed to match', 'bitwise operator matched successfully'], expected: ['binData', 'decimal', 'double', 'int', 'long'] },
  $geoWithin: { reasons: ['none of the considered geometries were contained within the expression’s geometry', 'at least one of considered geometries was contained within the expression’s geometry'] },
  $geoIntersects: { reasons: ['none of the considered geometries intersected the expression’s geometry', 'at least one of considered geometries intersected the expression’s geometry'] },
};

function explainLeaf(node: Extract<Node, { kind: 'leaf' }>, doc: Document, inverted: boolean): Document {
  const invertedHere = node.negated ? !inverted : inverted;
  const out: Document = { operatorName: node.op, specifiedAs: node.specifiedAs };
  if (node.op === '$exists') {
    out.reason = invertedHere ? 'path does exist' : 'path does not exist';
    return out;
  }
  if (node.op === '$type') {
    const values = valuesAt(doc, node.path, false);
    if (!values) {
      out.reason = 'field was missing';
      return out;
    }
    out.reason = invertedHere ? 'type did match' : 'type did not match';
    appendConsideredValues(out, values);
    appendConsideredTypes(out, values);
    return out;
  }
  if (node.op === '$all') {
    const values = valuesAt(doc, node.path, true);
    out.reason = !values ? 'field was missing' : invertedHere ? 'array did contain all specified values' : 'array did not contain all specified values';
    if (values) appendConsideredValues(out, values);
    return out;
  }
  const rule = LEAF_RULES[node.op] ?? { reasons: ['expression did not match', 'expression did match'] };
  const values = node.path === '' ? [doc] : valuesAt(doc, node.path, rule.noTraversal === true);
  if (!values) out.reason = 'field was missing';
  else if (rule.expected && !values.some((v) => rule.expected!.includes(bsonTypeOf(v)))) {
    out.reason = 'type did not match';
    appendConsideredTypes(out, values);
    if (rule.expected.length === 1) out.expectedType = rule.expected[0];
    else out.expectedTypes = [...rule.expected];
  }
  if (out.reason === undefined) out.reason = rule.reasons[invertedHere ? 1 : 0];
  if (values) appendConsideredValues(out, values);
  return out;
}

/**
 * The values a leaf considers at `path`: array elements in place of a leaf array (kept whole
 * with `noTraversal`); undefined when the path is missing.
 */
function valuesAt(doc: Document, path: string, noTraversal: boolean): unknown[] | undefined {
  const out: unknown[] = [];
  let exists = false;
  walkPath(doc, parsePath(path), false, (v) => {
    if (v === MISSING) return false;
    exists = true;
    if (Array.isArray(v) && !noTraversal) out.push(...v);
    else out.push(v);
    return false;
  });
  return exists ? out : undefined;
}

function appendConsideredValues(out: Document, values: unknown[]): void {
  if (values.length === 1) out.consideredValue = values[0];
  else out.consideredValues = values;
}

function appendConsideredTypes(out: Document, values: unknown[]): void {
  if (values.length === 0) return;
  const types = [...new Set(values.map((v) => bsonTypeOf(v)))].sort(compareStrings);
  if (types.length === 1) out.consideredType = types[0];
  else out.consideredTypes = types;
}

// ---- $jsonSchema ----------------------------------------------------------------------------

/** `out` with the schema's `title`/`description`, then `rest`. */
function withAnnotations(out: Document, schema: Document, rest: Document): Document {
  if (typeof schema.title === 'string') out.title = schema.title;
  if (typeof schema.description === 'string') out.description = schema.description;
  return Object.assign(out, rest);
}

/** The schema's annotations alone (for list entries). */
function annotationsOf(schema: unknown): Document {
  return isDocument(schema) ? withAnnotations({}, schema, {}) : {};
}

const hasOwn = Object.prototype.hasOwnProperty;

function test(schema: Document, topLevel: boolean): ValueTest {
  return compileSchemaValueTest(schema, topLevel);
}

function only(schema: Document, ...keywords: string[]): Document {
  const out: Document = {};
  for (const k of keywords) if (hasOwn.call(schema, k)) out[k] = schema[k];
  return out;
}

/**
 * The failing keywords of `schema` for the (present) value `v`, in the order mongod builds the
 * schema's expressions: scalar, array, object, logical keywords, then the type.
 */
function explainSchema(schema: Document, v: unknown, topLevel: boolean): Document[] {
  const out: Document[] = [];
  const fails = (keywords: Document): boolean => !test(keywords, topLevel)(v);
  const simple = (keyword: string, reason: string, extra?: (d: Document) => void, ...with_: string[]): void => {
    if (!hasOwn.call(schema, keyword)) return;
    const spec = only(schema, keyword, ...with_);
    if (!fails(spec)) return;
    const d: Document = { operatorName: keyword, specifiedAs: spec, reason };
    extra?.(d);
    out.push(d);
  };
  const considered = (d: Document): void => {
    d.consideredValue = v;
  };
  // Scalar keywords.
  if (!topLevel) simple('pattern', 'regular expression did not match', considered);
  simple('maxLength', 'specified string length was not satisfied', considered);
  simple('minLength', 'specified string length was not satisfied', considered);
  if (!topLevel) simple('multipleOf', 'considered value is not a multiple of the specified value', considered);
  simple('maximum', 'comparison failed', considered, 'exclusiveMaximum');
  simple('minimum', 'comparison failed', considered, 'exclusiveMinimum');
  // Array keywords.
  const arrayLength = (d: Document): void => {
    d.consideredValue = v;
    d.numberOfItems = (v as unknown[]).length;
  };
  simple('minItems', 'array did not match specified length', arrayLength);
  simple('maxItems', 'array did not match specified length', arrayLength);
  simple('uniqueItems', 'found a duplicate item', (d) => {
    d.consideredValue = v;
    d.duplicatedValue = firstDuplicate(v as unknown[]);
  });
  if (Array.isArray(v)) explainItems(schema, v, out);
  // Object keywords.
  if (isDocument(v)) explainObjectKeywords(schema, v, topLevel, out);
  // Logical keywords.
  explainLogical(schema, v, topLevel, out);
  simple('enum', 'value was not found in enum', considered);
  // The type.
  for (const keyword of ['type', 'bsonType']) {
    if (!hasOwn.call(schema, keyword) || !fails({ [keyword]: schema[keyword] })) continue;
    const d: Document = { operatorName: keyword, specifiedAs: { [keyword]: schema[keyword] }, reason: 'type did not match', consideredValue: v, consideredType: bsonTypeOf(v) };
    out.push(d);
  }
  return out;
}

function firstDuplicate(arr: unknown[]): unknown {
  for (let i = 1; i < arr.length; i++) for (let j = 0; j < i; j++) if (valuesEqual(arr[i], arr[j])) return arr[i];
  return undefined;
}

function explainItems(schema: Document, arr: unknown[], out: Document[]): void {
  const items = schema.items;
  if (isDocument(items)) {
    const each = test(items, false);
    const index = arr.findIndex((el) => !each(el));
    if (index >= 0) {
      out.push(withAnnotations({ operatorName: 'items' }, items, { reason: 'At least one item did not match the sub-schema', itemIndex: index, details: explainSchema(items, arr[index], false) }));
    }
    return;
  }
  if (!Array.isArray(items)) return;
  const entries: Document[] = [];
  items.forEach((sub, i) => {
    if (i >= arr.length || !isDocument(sub) || test(sub, false)(arr[i])) return;
    entries.push({ itemIndex: i, ...annotationsOf(sub), details: explainSchema(sub, arr[i], false) });
  });
  if (entries.length > 0) out.push({ operatorName: 'items', details: entries });
  const additional = schema.additionalItems;
  if (additional === false && arr.length > items.length) {
    out.push({ operatorName: 'additionalItems', specifiedAs: { additionalItems: false }, reason: 'found additional items', additionalItems: arr.slice(items.length) });
  } else if (isDocument(additional)) {
    const rest = test(additional, false);
    for (let i = items.length; i < arr.length; i++) {
      if (rest(arr[i])) continue;
      out.push(withAnnotations({ operatorName: 'additionalItems' }, additional, { reason: 'At least one additional item did not match the sub-schema', itemIndex: i, details: explainSchema(additional, arr[i], false) }));
      break;
    }
  }
}

function explainObjectKeywords(schema: Document, obj: Document, topLevel: boolean, out: Document[]): void {
  const properties = isDocument(schema.properties) ? schema.properties : undefined;
  if (properties) {
    const failing: Document[] = [];
    for (const name of Object.keys(properties)) {
      const sub = properties[name];
      const value = propertyOf(obj, name);
      if (value === MISSING || !isDocument(sub) || test(sub, false)(value)) continue;
      const details = explainSchema(sub, value, false);
      if (details.length > 0) failing.push({ propertyName: name, ...annotationsOf(sub), details });
    }
    if (failing.length > 0) out.push({ operatorName: 'properties', propertiesNotSatisfied: failing });
  }
  if (hasOwn.call(schema, 'patternProperties') || hasOwn.call(schema, 'additionalProperties')) explainAllowedProperties(schema, obj, properties, out);
  if (Array.isArray(schema.required)) {
    const missing = (schema.required as string[]).filter((name) => propertyOf(obj, name) === MISSING).sort(compareStrings);
    if (missing.length > 0) out.push({ operatorName: 'required', specifiedAs: { required: schema.required }, missingProperties: missing });
  }
  for (const keyword of ['minProperties', 'maxProperties']) {
    if (!hasOwn.call(schema, keyword) || test({ [keyword]: schema[keyword] }, topLevel)(obj)) continue;
    out.push({ operatorName: keyword, specifiedAs: { [keyword]: schema[keyword] }, reason: 'specified number of properties was not satisfied', numberOfProperties: Object.keys(obj).length });
  }
  if (isDocument(schema.dependencies)) {
    const failing: Document[] = [];
    for (const [name, dep] of Object.entries(schema.dependencies)) {
      if (propertyOf(obj, name) === MISSING) continue;
      if (Array.isArray(dep)) {
        const missing = (dep as string[]).filter((other) => propertyOf(obj, other) === MISSING);
        if (missing.length > 0) failing.push({ conditionalProperty: name, missingProperties: missing });
      } else if (isDocument(dep) && !test(dep, topLevel)(obj)) {
        failing.push({ conditionalProperty: name, details: explainSchema(dep, obj, topLevel) });
      }
    }
    if (failing.length > 0) out.push({ operatorName: 'dependencies', failingDependencies: failing });
  }
}

function explainAllowedProperties(schema: Document, obj: Document, properties: Document | undefined, out: Document[]): void {
  const patterns: Array<{ raw: string; re: RegExp; sub: Document }> = [];
  if (isDocument(schema.patternProperties)) {
    for (const [raw, sub] of Object.entries(schema.patternProperties)) if (isDocument(sub)) patterns.push({ raw, re: compileRegex(raw, ''), sub });
  }
  const additionalNames = Object.keys(obj).filter((field) => !(properties && hasOwn.call(properties, field)) && !patterns.some((p) => p.re.test(field)));
  const additional = schema.additionalProperties;
  const errors: Document[] = [];
  if (additional === false && additionalNames.length > 0) {
    errors.push({ operatorName: 'additionalProperties', specifiedAs: { additionalProperties: false }, additionalProperties: additionalNames });
  } else if (isDocument(additional)) {
    const each = test(additional, false);
    const failing = additionalNames.find((name) => !each(obj[name]));
    if (failing !== undefined) {
      errors.push(withAnnotations({ operatorName: 'additionalProperties' }, additional, {
        reason: 'at least one additional property did not match the subschema',
        failingProperty: failing,
        details: explainSchema(additional, obj[failing], false),
      }));
    }
  }
  const patternErrors: Document[] = [];
  for (const p of patterns) {
    const each = test(p.sub, false);
    const field = Object.keys(obj).find((name) => p.re.test(name) && !each(obj[name]));
    if (field === undefined) continue;
    patternErrors.push({ propertyName: field, ...annotationsOf(p.sub), regexMatched: p.raw, details: explainSchema(p.sub, obj[field], false) });
  }
  if (patternErrors.length > 0) errors.push({ operatorName: 'patternProperties', details: patternErrors });
  out.push(...errors);
}

function explainLogical(schema: Document, v: unknown, topLevel: boolean, out: Document[]): void {
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    const subs = list as Document[];
    const matching = subs.map((sub) => test(sub, topLevel)(v));
    const passes = keyword === 'allOf' ? matching.every(Boolean) : keyword === 'anyOf' ? matching.some(Boolean) : matching.filter(Boolean).length === 1;
    if (passes) continue;
    if (keyword === 'oneOf' && matching.some(Boolean)) {
      out.push({ operatorName: 'oneOf', reason: 'more than one subschema matched', matchingSchemaIndexes: matching.flatMap((m, i) => (m ? [i] : [])) });
      continue;
    }
    const entries: Document[] = [];
    subs.forEach((sub, index) => {
      if (matching[index]) return;
      entries.push({ index, ...annotationsOf(sub), details: explainSchema(sub, v, topLevel) });
    });
    out.push({ operatorName: keyword, schemasNotSatisfied: entries });
  }
  if (isDocument(schema.not) && test(schema.not, topLevel)(v)) {
    out.push({ operatorName: 'not', ...annotationsOf(schema.not), reason: 'child expression matched' });
  }
}
