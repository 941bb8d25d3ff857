/**
 * Parses projection specifications into a tree, for find (`policy: 'find'`) and for the
 * aggregation `$project`/`$unset` stages (`policy: 'aggregate'`), following
 * mongo/src/mongo/db/query/projection_parser.cpp: inclusion (truthy number or bool),
 * exclusion (falsy), literals and expressions (computed fields, which make an inclusion),
 * sub-objects (nested projections), and the find-only `$slice` and `$elemMatch`.
 * Path collisions are 31249/31250, mixing modes 31253/31254/31252/31310.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { safeNumberInt } from '../values/numeric.js';
import { compileFilter, type Predicate } from '../query/compile_filter.js';
import type { Collator } from '../values/collator.js';
import { isKnownExpression } from '../expression/registry.js';
import { Scope } from '../expression/scope.js';
import type { Evaluator } from '../expression/types.js';
import { parseFieldPath } from '../expression/field_path.js';
import { formatElement } from '../values/format.js';
import { isDocument } from '../values/paths.js';
import { toBool } from '../expression/value.js';

/** Where a projection is used: find allows `$slice`/`$elemMatch`/positional, `$project` does not. */
export type ProjectionPolicy = 'find' | 'aggregate';

/** Inclusion or exclusion. */
export type ProjectionType = 'inclusion' | 'exclusion';

/** An interior node: children by field name, in specification order. */
export interface PathNode {
  readonly kind: 'path';
  readonly children: Map<string, AstNode>;
}

/** A node of the projection tree. */
export type AstNode =
  | PathNode
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'expr'; readonly ev: Evaluator }
  | { readonly kind: 'slice'; readonly skip: number | null; readonly limit: number }
  | { readonly kind: 'elemMatch'; readonly field: string; readonly matches: Predicate }
  | { readonly kind: 'positional' };

/** A parsed projection. */
export interface ParsedProjection {
  readonly type: ProjectionType;
  readonly root: PathNode;
}

interface ParseContext {
  readonly policy: ProjectionPolicy;
  /** The query's collation, which find's `$elemMatch` matches under (null: simple). */
  readonly collator: Collator | null;
  /** Where computed fields are parsed (the variables they may read). */
  readonly scope: Scope;
  type: ProjectionType | undefined;
  idSpecified: boolean;
  hasElemMatch: boolean;
  hasPositional: boolean;
  hasFindSlice: boolean;
  idIncludedEntirely: boolean;
  idExcludedEntirely: boolean;
}

function newPathNode(): PathNode {
  return { kind: 'path', children: new Map() };
}

/** Adds `node` at `parts` below `root` (31249/31250 on collisions). */
function addNodeAtPath(root: PathNode, parts: readonly string[], node: AstNode): void {
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i]!;
    const child = current.children.get(name);
    if (i === parts.length - 1) {
      if (child !== undefined) throw new CommandError(31250, `Path collision at ${parts.join('.')}`);
      current.children.set(name, node);
      return;
    }
    if (child === undefined) {
      const created = newPathNode();
      current.children.set(name, created);
      current = created;
      continue;
    }
    if (child.kind !== 'path') {
      throw new CommandError(
        31249,
        `Path collision at ${parts.join('.')} remaining portion ${parts.slice(1).join('.')}`,
      );
    }
    current = child;
  }
}

/** Whether a projected path is positional (`a.b.$`, projection_parser.cpp). */
function hasPositionalOperator(path: string): boolean {
  return path.endsWith('.$');
}

function isInclusionOrExclusionValue(v: unknown): boolean {
  const t = bsonTypeOf(v);
  return t === 'bool' || t === 'int' || t === 'long' || t === 'double' || t === 'decimal';
}

/** A `$slice` number as mongod reads it (`numberInt`: saturated, fractions dropped or rounded). */
function numberInt(v: unknown): number {
  return safeNumberInt(v) ?? 0;
}

function parseFindSlice(ctx: ParseContext, parts: string[], arg: unknown, parent: PathNode): void {
  if (isInclusionOrExclusionValue(arg) && bsonTypeOf(arg) !== 'bool') {
    addNodeAtPath(parent, parts, { kind: 'slice', skip: null, limit: numberInt(arg) });
  } else if (Array.isArray(arg)) {
    if (arg.length !== 2) throw new CommandError(31272, '$slice array argument should be of form [skip, limit]');
    const [skip, limit] = arg as [unknown, unknown];
    const isNum = (v: unknown): boolean => isInclusionOrExclusionValue(v) && bsonTypeOf(v) !== 'bool';
    if (!isNum(skip)) {
      throw new CommandError(31257, `$slice expects the skip argument to be a number, got ${bsonTypeOf(skip)}`);
    }
    if (!isNum(limit)) {
      throw new CommandError(31258, `$slice expects the limit argument to be a number, got ${bsonTypeOf(limit)}`);
    }
    if (numberInt(limit) <= 0) throw new CommandError(31259, `$slice limit must be positive, got ${numberInt(limit)}`);
    addNodeAtPath(parent, parts, { kind: 'slice', skip: numberInt(skip), limit: numberInt(limit) });
  } else {
    throw new CommandError(31273, '$slice only supports numbers and [skip, limit] arrays');
  }
  ctx.hasFindSlice = true;
}

function parseGenericExpression(ctx: ParseContext, parts: string[], obj: Document, parent: PathNode): boolean {
  const name = Object.keys(obj)[0]!;
  if (!isKnownExpression(name) && name !== '$meta') return false;
  const isMeta = name === '$meta';
  if (ctx.type !== undefined && ctx.type !== 'inclusion' && !isMeta) {
    throw new CommandError(31252, 'Cannot use expression other than $meta in exclusion projection');
  }
  const ev = ctx.scope.parse(obj);
  // $meta is allowed in both kinds of projection and does not make one an inclusion.
  if (!isMeta) ctx.type = 'inclusion';
  addNodeAtPath(parent, parts, { kind: 'expr', ev });
  return true;
}

function parseSubObjectAsExpression(
  ctx: ParseContext,
  parts: string[],
  obj: Document,
  parent: PathNode,
  isRoot: boolean,
): boolean {
  const name = Object.keys(obj)[0]!;
  if (ctx.policy === 'find') {
    if (name === '$slice') {
      parseFindSlice(ctx, parts, obj.$slice, parent);
      return true;
    }
    if (name === '$elemMatch') {
      const arg = obj.$elemMatch;
      if (!isDocument(arg)) {
        throw new CommandError(31274, `elemMatch: Invalid argument, object required, but got ${bsonTypeOf(arg)}`);
      }
      if (ctx.hasPositional) throw new CommandError(31255, 'Cannot specify positional operator and $elemMatch.');
      if (parts.length !== 1 || !isRoot) {
        throw new CommandError(31275, 'Cannot use $elemMatch projection on a nested field.');
      }
      const field = parts[0]!;
      const matches = compileFilter({ [field]: { $elemMatch: arg } }, { collator: ctx.collator });
      addNodeAtPath(parent, parts, { kind: 'elemMatch', field, matches });
      ctx.hasElemMatch = true;
      return true;
    }
  } else if (name === '$elemMatch') {
    throw new CommandError('InvalidPipelineOperator', 'Cannot use $elemMatch in this context');
  }
  return parseGenericExpression(ctx, parts, obj, parent);
}

function parseSubObject(ctx: ParseContext, key: string, obj: Document, parent: PathNode, isRoot: boolean): void {
  const parts = parseFieldPath(key);
  const keys = Object.keys(obj);
  if (keys.length === 1 && keys[0]!.charCodeAt(0) === 36) {
    if (parseSubObjectAsExpression(ctx, parts, obj, parent, isRoot)) return;
    try {
      parseFieldPath(keys[0]!);
    } catch {
      throw new CommandError(31325, `Unknown expression ${keys[0]}`);
    }
  }
  const node = newPathNode();
  addNodeAtPath(parent, parts, node);
  for (const k of keys) parseElement(ctx, k, obj[k], node, false);
}

function parseInclusion(ctx: ParseContext, key: string, parent: PathNode, isRoot: boolean, positional: boolean): void {
  const isTopLevelId = key === '_id' && isRoot;
  if (positional) {
    if (ctx.hasPositional) throw new CommandError(31276, 'Cannot specify more than one positional projection per query.');
    if (ctx.hasElemMatch) throw new CommandError(31256, 'Cannot specify positional operator and $elemMatch.');
    if (key === '.$') throw new CommandError(5392900, `Projection on field ${key} is invalid`);
    addNodeAtPath(parent, parseFieldPath(key.slice(0, -2)), { kind: 'positional' });
    ctx.hasPositional = true;
  } else {
    addNodeAtPath(parent, parseFieldPath(key), { kind: 'bool', value: true });
    if (isTopLevelId) {
      ctx.idIncludedEntirely = true;
      return;
    }
  }
  if (ctx.type === 'exclusion') {
    throw new CommandError(31253, `Cannot do inclusion on field ${key} in exclusion projection`);
  }
  ctx.type = 'inclusion';
}

function parseExclusion(ctx: ParseContext, key: string, parent: PathNode, isRoot: boolean): void {
  addNodeAtPath(parent, parseFieldPath(key), { kind: 'bool', value: false });
  if (key === '_id' && isRoot) {
    ctx.idExcludedEntirely = true;
    return;
  }
  if (ctx.type === 'inclusion') {
    throw new CommandError(31254, `Cannot do exclusion on field ${key} in inclusion projection`);
  }
  ctx.type = 'exclusion';
}

function parseLiteral(ctx: ParseContext, key: string, value: unknown, parent: PathNode): void {
  const ev = ctx.scope.parse(value);
  addNodeAtPath(parent, parseFieldPath(key), { kind: 'expr', ev });
  if (ctx.type === 'exclusion') {
    throw new CommandError(31310, `Cannot use an expression ${formatElement(key, value)} in an exclusion projection`);
  }
  ctx.type = 'inclusion';
}

function parseElement(ctx: ParseContext, key: string, value: unknown, parent: PathNode, isRoot: boolean): void {
  const positional = hasPositionalOperator(key);
  if (positional && ctx.policy === 'aggregate') {
    throw new CommandError(31324, 'Cannot use positional projection in aggregation projection');
  }
  if (key.includes('.$.')) {
    throw new CommandError(
      31394,
      "As of 4.4, it's illegal to specify positional operator in the middle of a path.Positional projection may only be used at the end, for example: a.b.$. If the query previously used a form like a.b.$.d, remove the parts following the '$' and the results will be equivalent.",
    );
  }
  if (isDocument(value)) {
    if (positional) {
      throw new CommandError(31271, 'positional projection cannot be used with an expression or sub object');
    }
    parseSubObject(ctx, key, value, parent, isRoot);
  } else if (isInclusionOrExclusionValue(value)) {
    if (toBool(value)) parseInclusion(ctx, key, parent, isRoot, positional);
    else if (positional) throw new CommandError(31395, 'positional projection cannot be used with exclusion');
    else parseExclusion(ctx, key, parent, isRoot);
  } else {
    if (positional) throw new CommandError(31308, 'positional projection cannot be used with a literal');
    parseLiteral(ctx, key, value, parent);
  }
}

function computeProjectionType(ctx: ParseContext): ProjectionType {
  if (ctx.hasFindSlice) return ctx.idIncludedEntirely ? 'inclusion' : 'exclusion';
  if (ctx.hasElemMatch) return 'inclusion';
  if (ctx.idIncludedEntirely) return 'inclusion';
  return 'exclusion';
}

/**
 * Parses a projection specification (throws CommandError with mongod's codes); find's
 * `$elemMatch` is compiled under `collator` (null or absent: simple), computed fields in `scope`.
 */
export function parseProjection(spec: Document, policy: ProjectionPolicy, collator: Collator | null = null, scope: Scope = Scope.root()): ParsedProjection {
  const root = newPathNode();
  const ctx: ParseContext = {
    policy,
    collator,
    scope,
    type: undefined,
    idSpecified: false,
    hasElemMatch: false,
    hasPositional: false,
    hasFindSlice: false,
    idIncludedEntirely: false,
    idExcludedEntirely: false,
  };
  for (const key of Object.keys(spec)) {
    ctx.idSpecified ||= key === '_id' || key.startsWith('_id.');
    parseElement(ctx, key, spec[key], root, true);
  }
  const type = ctx.type ?? computeProjectionType(ctx);
  if (!ctx.idSpecified && type === 'inclusion') addNodeAtPath(root, ['_id'], { kind: 'bool', value: true });
  if (type === 'exclusion' && ctx.idSpecified && ctx.idIncludedEntirely) root.children.delete('_id');
  return { type, root };
}
