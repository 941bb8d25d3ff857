/**
 * The checks mongod applies to a `partialFilterExpression` (index_catalog_impl.cpp
 * `_checkValidFilterExpressions`, with time-series metric indexes enabled as in 8.x): equality,
 * `$lt/$lte/$gt/$gte`, `$exists: true`, `$type`, `$in`, `$and` and `$or` (at most 4 levels),
 * geo predicates; anything else is 67 CannotCreateIndex "Expression not supported in partial
 * index: …" quoting mongod's debug rendering of the offending node. Special features (`$expr`,
 * `$where`, `$text`, `$jsonSchema`, `$near`) are refused before that, as the parser does.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatValue } from '../values/format.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { isDocument } from '../values/paths.js';
import { isRegexValue, regexSource } from '../query/operators/comparison.js';

/** mongod's maximum depth of a partial filter (internalPartialFilterExpressionMaxDepth). */
const MAX_DEPTH = 4;

/** A parsed node: its kind, and how mongod's debugString prints it. */
interface Node {
  readonly kind: 'and' | 'or' | 'leaf-ok' | 'bad';
  readonly children: Node[];
  /** debugString at indent 0 (children rendered by `render`). */
  readonly head: string;
}

const GEO_OPS = new Set(['$geoWithin', '$geoIntersects', '$within']);

/** Throws mongod's error for a special feature the index filter parser refuses, anywhere in `filter`. */
export function refuseSpecialFeatures(filter: unknown): void {
  if (Array.isArray(filter)) {
    for (const x of filter) refuseSpecialFeatures(x);
    return;
  }
  if (!isDocument(filter)) return;
  for (const [key, value] of Object.entries(filter)) {
    switch (key) {
      case '$expr':
        throw new CommandError('QueryFeatureNotAllowed', '$expr is not allowed in this context');
      case '$jsonSchema':
        throw new CommandError('QueryFeatureNotAllowed', '$jsonSchema is not allowed in this context');
      case '$where':
        throw new CommandError('BadValue', '$where is not allowed in this context');
      case '$text':
        throw new CommandError('BadValue', 'TEXT is not allowed in this context');
      case '$near':
      case '$nearSphere':
      case '$geoNear':
        throw new CommandError('BadValue', '$geoNear, $near, and $nearSphere are not allowed in this context');
      default:
        break;
    }
    refuseSpecialFeatures(value);
  }
}

/** Throws 67 CannotCreateIndex when `filter` uses an expression a partial index cannot hold. */
export function checkPartialFilter(filter: Document): void {
  check(parseDocument(filter), 0);
}

function check(node: Node, level: number): void {
  if (level + 1 > MAX_DEPTH) {
    throw new CommandError('CannotCreateIndex', `partialFilterExpression depth may not exceed ${MAX_DEPTH}`);
  }
  if (node.kind === 'and' || node.kind === 'or') {
    for (const child of node.children) check(child, level + 1);
    return;
  }
  if (node.kind === 'bad') {
    throw new CommandError('CannotCreateIndex', `Expression not supported in partial index: ${render(node, 0)}`);
  }
}

/** mongod's MatchExpression::debugString. */
function render(node: Node, indent: number): string {
  const pad = ' '.repeat(indent);
  let out = `${pad}${node.head}\n`;
  for (const child of node.children) out += render(child, indent + 4);
  return out;
}

function and(children: Node[]): Node {
  return children.length === 1 ? children[0]! : { kind: 'and', children, head: '$and' };
}

function parseDocument(doc: Document): Node {
  const children: Node[] = [];
  for (const [key, value] of Object.entries(doc)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      const branches = (Array.isArray(value) ? value : []).filter(isDocument).map(parseDocument);
      if (key === '$and') children.push(and(branches));
      else if (key === '$or') children.push(branches.length === 1 ? branches[0]! : { kind: 'or', children: branches, head: '$or' });
      else children.push({ kind: 'bad', children: branches, head: '$nor' });
      continue;
    }
    if (key === '$comment') continue;
    if (key.startsWith('$')) {
      children.push({ kind: 'bad', children: [], head: key });
      continue;
    }
    children.push(...parsePath(key, value));
  }
  return and(children);
}

function parsePath(path: string, value: unknown): Node[] {
  if (isDocument(value)) {
    const ops = Object.keys(value);
    if (ops.length > 0 && ops[0]!.startsWith('$') && ops[0] !== '$ref' && ops[0] !== '$id' && ops[0] !== '$db') {
      const out: Node[] = [];
      for (const op of ops) {
        if (op === '$options') continue;
        out.push(parseOperator(path, op, value[op], value));
      }
      return out;
    }
  }
  if (isRegexValue(value)) return [regexNode(path, value, undefined)];
  return [leaf(path, '$eq', value, true)];
}

function leaf(path: string, op: string, value: unknown, ok: boolean): Node {
  return { kind: ok ? 'leaf-ok' : 'bad', children: [], head: `${path} ${op} ${formatValue(value)}` };
}

function regexNode(path: string, value: unknown, options: string | undefined): Node {
  let pattern: string;
  let flags: string;
  if (isRegexValue(value)) [pattern, flags] = regexSource(value);
  else {
    pattern = String(value);
    flags = '';
  }
  if (options !== undefined) flags = options;
  return { kind: 'bad', children: [], head: `${path} regex /${pattern}/${flags}` };
}

function parseOperator(path: string, op: string, v: unknown, all: Document): Node {
  switch (op) {
    case '$eq':
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte':
      return leaf(path, op, v, true);
    case '$type':
      return { kind: 'leaf-ok', children: [], head: `${path} type ${formatValue(v)}` };
    case '$in':
      return { kind: 'leaf-ok', children: [], head: `${path} $in ${inList(v)}` };
    case '$exists': {
      const exists: Node = { kind: 'leaf-ok', children: [], head: `${path} exists` };
      const truthy = !(v === false || v === null || v === undefined || (isNumber(v) && toDouble(v) === 0));
      return truthy ? exists : { kind: 'bad', children: [exists], head: '$not' };
    }
    case '$ne':
      return { kind: 'bad', children: [leaf(path, '$eq', v, true)], head: '$not' };
    case '$nin':
      return { kind: 'bad', children: [{ kind: 'leaf-ok', children: [], head: `${path} $in ${inList(v)}` }], head: '$not' };
    case '$not': {
      const inner = isDocument(v) ? parsePath(path, v) : [regexNode(path, v, undefined)];
      return { kind: 'bad', children: [{ kind: 'and', children: inner, head: '$and' }], head: '$not' };
    }
    case '$regex':
      return regexNode(path, v, typeof all.$options === 'string' ? all.$options : undefined);
    case '$mod': {
      const [d, r] = Array.isArray(v) ? v : [];
      return { kind: 'bad', children: [], head: `${path} mod ${formatValue(d)} % x == ${formatValue(r)}` };
    }
    case '$size':
      return { kind: 'bad', children: [], head: `${path} $size : ${formatValue(v)}` };
    case '$elemMatch': {
      if (isDocument(v) && Object.keys(v).every((k) => k.startsWith('$'))) {
        const inner = Object.entries(v).map(([k, x]) => parseOperator('', k, x, v));
        return { kind: 'bad', children: inner, head: `${path} $elemMatch (value)` };
      }
      return { kind: 'bad', children: isDocument(v) ? [parseDocument(v)] : [], head: `${path} $elemMatch (obj)` };
    }
    case '$all': {
      const values = Array.isArray(v) ? v : [];
      return and(values.map((x) => leaf(path, '$eq', x, true)));
    }
    case '$bitsAllSet':
    case '$bitsAllClear':
    case '$bitsAnySet':
    case '$bitsAnyClear':
      return { kind: 'bad', children: [], head: `${path} ${op}: [${bitPositions(v).join(', ')}]` };
    default:
      if (GEO_OPS.has(op)) return { kind: 'leaf-ok', children: [], head: `${path} GEO` };
      return { kind: 'bad', children: [], head: `${path} ${op} ${formatValue(v)}` };
  }
}

function inList(v: unknown): string {
  const values = Array.isArray(v) ? v : [];
  return `[ ${values.map(formatValue).join(', ')}]`;
}

function bitPositions(v: unknown): number[] {
  if (Array.isArray(v)) return v.map(Number);
  const n = typeof v === 'number' ? v : Number(v);
  const out: number[] = [];
  for (let bit = 0; bit < 53 && n >= 2 ** bit; bit++) if (Math.floor(n / 2 ** bit) % 2 === 1) out.push(bit);
  return out;
}
