/**
 * Executes parsed projections (mongo/src/mongo/db/exec/projection_node.cpp and
 * projection_executor_builder.cpp):
 *   - inclusion builds a new document in the input's field order, then appends computed fields
 *     in specification order; sub-paths descend into documents and arrays of documents, other
 *     array elements are dropped;
 *   - exclusion copies the document and removes the excluded paths;
 *   - find's positional `a.b.$` includes its path, then replaces the first array on that path
 *     in the result by the element the query matched (projection_executor_utils.cpp
 *     `applyPositionalProjection`: 51246 when the query recorded no position, 51247 when the
 *     position is past the end);
 *   - find's `$slice` is applied to the result afterwards, `$elemMatch` is a computed field.
 * Nested arrays are descended by find projections and skipped by `$project`
 * (ArrayRecursionPolicy).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import type { Evaluator, Frame } from '../expression/types.js';
import { MISSING } from '../values/missing.js';
import { isDocument } from '../values/paths.js';
import type { AstNode, ParsedProjection, PathNode, ProjectionPolicy, ProjectionType } from './projection_ast.js';

/** One level of the execution tree (`ProjectionNode`). */
export class ExecNode {
  readonly projectedSet = new Set<string>();
  readonly children = new Map<string, ExecNode>();
  readonly expressions = new Map<string, Evaluator>();
  /** Children and computed fields in the order they were added. */
  readonly order: string[] = [];
  subtreeHasComputed = false;

  /** Marks a path as projected (included or excluded). */
  addProjection(parts: readonly string[], i = 0): void {
    const name = parts[i]!;
    if (i === parts.length - 1) {
      this.projectedSet.add(name);
      return;
    }
    this.child(name).addProjection(parts, i + 1);
  }

  /** Adds a computed field at a path. */
  addExpression(parts: readonly string[], ev: Evaluator, i = 0): void {
    this.subtreeHasComputed = true;
    const name = parts[i]!;
    if (i === parts.length - 1) {
      this.expressions.set(name, ev);
      this.order.push(name);
      return;
    }
    this.child(name).addExpression(parts, ev, i + 1);
  }

  private child(name: string): ExecNode {
    let c = this.children.get(name);
    if (c === undefined) {
      c = new ExecNode();
      this.children.set(name, c);
      this.order.push(name);
    }
    return c;
  }
}

interface SliceSpec {
  readonly parts: readonly string[];
  readonly skip: number | null;
  readonly limit: number;
}

/** Applies a projection to one document. */
export type ProjectionFn = (doc: Document, frame: Frame) => Document;

/** The array position the query matched in a document (for the positional projection). */
export type PositionalLookup = (doc: Document) => string | undefined;

interface PositionalSpec {
  readonly parts: readonly string[];
  readonly lookup: PositionalLookup;
}

/** Replaces `value` at `parts[0..end]` of a copy of `doc` (all documents on the way). */
function setNested(doc: Document, parts: readonly string[], end: number, value: unknown): Document {
  const out: Document = { ...doc };
  const name = parts[0]!;
  out[name] = end === 0 ? value : setNested(doc[name] as Document, parts.slice(1), end - 1, value);
  return out;
}

/** `applyPositionalProjection`: the first array on the path becomes `[matched element]`. */
function applyPositional(postImage: Document, preImage: Document, spec: PositionalSpec): Document {
  let sub: Document = postImage;
  for (let i = 0; i < spec.parts.length; i++) {
    const v = sub[spec.parts[i]!];
    if (Array.isArray(v)) {
      const key = spec.lookup(preImage);
      if (key === undefined) {
        throw new CommandError(51246, "positional operator '.$' couldn't find a matching element in the array");
      }
      const index = Number(key);
      if (index >= v.length) throw new CommandError(51247, "positional operator '.$' element mismatch");
      return setNested(postImage, spec.parts, i, [v[index]]);
    }
    if (!isDocument(v)) return postImage;
    sub = v;
  }
  return postImage;
}

class Executor {
  constructor(
    private readonly root: ExecNode,
    private readonly inclusion: boolean,
    private readonly recurseNestedArrays: boolean,
    private readonly slices: readonly SliceSpec[],
    private readonly positional: PositionalSpec | null,
  ) {}

  apply(doc: Document, frame: Frame): Document {
    let out: Document;
    if (this.inclusion) {
      out = {};
      this.applyProjections(this.root, doc, out);
      if (this.root.subtreeHasComputed) applyExpressions(this.root, frame, out, this.inclusion);
    } else {
      out = { ...doc };
      this.applyProjections(this.root, doc, out);
      // find's $elemMatch is the only computed field an exclusion can hold.
      if (this.root.subtreeHasComputed) applyExpressions(this.root, frame, out, this.inclusion);
    }
    if (this.positional) out = applyPositional(out, doc, this.positional);
    for (const s of this.slices) out = applySlice(out, s, 0);
    return out;
  }

  private applyProjections(node: ExecNode, input: Document, out: Document): void {
    for (const key of Object.keys(input)) {
      if (node.projectedSet.has(key)) {
        if (this.inclusion) out[key] = input[key];
        else delete out[key];
        continue;
      }
      const child = node.children.get(key);
      if (child === undefined) continue;
      const v = this.applyToValue(child, input[key]);
      if (v === MISSING) delete out[key];
      else out[key] = v;
    }
  }

  private applyToValue(node: ExecNode, v: unknown): unknown {
    if (isDocument(v)) {
      const out: Document = this.inclusion ? {} : { ...v };
      this.applyProjections(node, v, out);
      return out;
    }
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      for (const el of v) {
        const r = Array.isArray(el) && !this.recurseNestedArrays ? this.skipped(el) : this.applyToValue(node, el);
        if (r !== MISSING) out.push(r);
      }
      return out;
    }
    return this.skipped(v);
  }

  private skipped(v: unknown): unknown {
    return this.inclusion ? MISSING : v;
  }
}

/** Evaluates the computed fields of `node` into `out` (`ProjectionNode::applyExpressions`). */
export function applyExpressions(node: ExecNode, frame: Frame, out: Document, inclusion: boolean): void {
  for (const field of node.order) {
    const child = node.children.get(field);
    let r: unknown;
    if (child !== undefined) {
      const current = Object.prototype.hasOwnProperty.call(out, field) ? out[field] : MISSING;
      r = applyExpressionsToValue(child, frame, current, inclusion);
    } else {
      r = node.expressions.get(field)!(frame);
    }
    if (r === MISSING) delete out[field];
    else out[field] = r;
  }
}

function applyExpressionsToValue(node: ExecNode, frame: Frame, v: unknown, inclusion: boolean): unknown {
  if (isDocument(v)) {
    const out: Document = { ...v };
    applyExpressions(node, frame, out, inclusion);
    return out;
  }
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const el of v) {
      const r = applyExpressionsToValue(node, frame, el, inclusion);
      if (r !== MISSING) out.push(r);
    }
    return out;
  }
  if (node.subtreeHasComputed) {
    const out: Document = {};
    applyExpressions(node, frame, out, inclusion);
    return out;
  }
  return inclusion ? MISSING : v;
}

function sliceArray(arr: readonly unknown[], skip: number | null, limit: number): unknown[] {
  if (skip === null) return limit >= 0 ? arr.slice(0, limit) : arr.slice(Math.max(0, arr.length + limit));
  const start = skip < 0 ? Math.max(0, arr.length + skip) : Math.min(skip, arr.length);
  return arr.slice(start, start + limit);
}

/** find's `$slice` on the projection's result (`applyFindSliceProjection`). */
function applySlice(doc: Document, s: SliceSpec, i: number): Document {
  const name = s.parts[i]!;
  if (!Object.prototype.hasOwnProperty.call(doc, name)) return doc;
  const v = doc[name];
  const out: Document = { ...doc };
  if (i === s.parts.length - 1) {
    if (Array.isArray(v)) out[name] = sliceArray(v, s.skip, s.limit);
    return out;
  }
  if (isDocument(v)) out[name] = applySlice(v, s, i + 1);
  else if (Array.isArray(v)) out[name] = v.map((el) => (isDocument(el) ? applySlice(el, s, i + 1) : el));
  return out;
}

function elemMatchEvaluator(field: string, matches: (doc: Document) => boolean): Evaluator {
  return (frame) => {
    const arr = frame.root[field];
    if (!Array.isArray(arr)) return MISSING;
    for (const el of arr) if (matches({ [field]: [el] })) return [el];
    return MISSING;
  };
}

interface BuildState {
  readonly slices: SliceSpec[];
  positionalParts: readonly string[] | null;
}

function build(node: PathNode, prefix: readonly string[], exec: ExecNode, type: ProjectionType, bs: BuildState): void {
  for (const [name, child] of node.children) {
    const parts = [...prefix, name];
    buildNode(child, parts, exec, type, bs);
  }
}

function buildNode(child: AstNode, parts: string[], exec: ExecNode, type: ProjectionType, bs: BuildState): void {
  const slices = bs.slices;
  switch (child.kind) {
    case 'path':
      build(child, parts, exec, type, bs);
      return;
    case 'positional':
      exec.addProjection(parts);
      bs.positionalParts = parts;
      return;
    case 'bool':
      if (type === 'inclusion' && parts.length === 1 && parts[0] === '_id' && !child.value) return;
      exec.addProjection(parts);
      return;
    case 'expr':
      exec.addExpression(parts, child.ev);
      return;
    case 'slice':
      if (type === 'inclusion') exec.addProjection(parts);
      slices.push({ parts, skip: child.skip, limit: child.limit });
      return;
    case 'elemMatch':
      exec.addExpression(parts, elemMatchEvaluator(child.field, child.matches));
  }
}

/** Builds the executor of a parsed projection (`lookup` resolves a positional projection). */
export function buildProjection(parsed: ParsedProjection, policy: ProjectionPolicy, lookup?: PositionalLookup): ProjectionFn {
  const exec = new ExecNode();
  const bs: BuildState = { slices: [], positionalParts: null };
  build(parsed.root, [], exec, parsed.type, bs);
  const positional = bs.positionalParts === null ? null : { parts: bs.positionalParts, lookup: lookup ?? (() => undefined) };
  const executor = new Executor(exec, parsed.type === 'inclusion', policy === 'find', bs.slices, positional);
  return (doc, frame) => executor.apply(doc, frame);
}
