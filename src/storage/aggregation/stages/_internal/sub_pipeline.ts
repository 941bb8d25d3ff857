/**
 * What the stages reading another namespace share (`$lookup`, `$unionWith`, `$graphLookup`):
 * the parse context of a sub-pipeline (its own variable scope nested in the command's, the same
 * variable values and runtime: mongod's `copyForSubPipeline`), the limits on sub-pipelines
 * (20 levels of nesting, 1000 stages), the namespace checks, running a parsed sub-pipeline over
 * a collection or a view through the query layer, and the path helpers of the join stages.
 */
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { ExpressionContext } from '../../../expression/context.js';
import type { Scope } from '../../../expression/scope.js';
import { parseFieldPath } from '../../../expression/field_path.js';
import { isDocument } from '../../../values/paths.js';
import type { ParsedPipeline, ParsedStage, PipelineParseContext } from '../../stage.js';
import { compileMatchFilter, type MatchInstance } from '../match.js';

/** The places of sub-pipelines these stages parse. */
export type JoinPlace = 'lookup' | 'unionWith';

/** The documents `stages` make of `input`, lazily (pipeline.ts's `runStages`). */
export function runSubStages(stages: readonly ParsedStage[], input: Iterable<Document>): Iterable<Document> {
  let docs = input;
  for (const { instance } of stages) docs = instance.run(docs);
  return docs;
}

/** The deepest nesting of sub-pipelines mongod allows (`internalPipelineMaxSubPipelineDepth`… kMaxSubPipelineDepth). */
export const MAX_SUB_PIPELINE_DEPTH = 20;
/** The most stages a pipeline may have (`internalPipelineLengthLimit`). */
export const MAX_PIPELINE_LENGTH = 1000;
/** The most components of a field path (`FieldPath::kMaxParts`). */
const MAX_PATH_PARTS = 200;

const depths = new WeakMap<ExpressionContext, number>();

/** The expressions of a sub-pipeline: `scope` (nested in the parent's), the parent's variable values and runtime. */
function childExpressions(parent: ExpressionContext, scope: Scope, depth: number): ExpressionContext {
  const child = Object.create(ExpressionContext.prototype) as ExpressionContext;
  Object.defineProperties(child, {
    scope: { value: scope, enumerable: true },
    runtime: { value: parent.runtime, enumerable: true },
    vars: { value: parent.vars, enumerable: true },
  });
  depths.set(child, depth);
  return child;
}

/** A sub-pipeline's parse context and the slots of the variables it defines. */
export interface SubPipelineContext {
  readonly ctx: PipelineParseContext;
  /** The slot of each variable `names` defined, in order. */
  readonly slots: readonly number[];
}

/**
 * The context a sub-pipeline over `collection` (null: collectionless, `$documents`) is parsed in,
 * with `names` defined in a scope of its own (validated as user variables: FailedToParse);
 * 232 past the deepest nesting.
 */
export function subPipelineContext(parent: PipelineParseContext, collection: string | null, names: readonly string[] = []): SubPipelineContext {
  const depth = (depths.get(parent.expressions) ?? 0) + 1;
  if (depth > MAX_SUB_PIPELINE_DEPTH) {
    throw new CommandError(232, `Maximum number of nested sub-pipelines exceeded. Limit is ${MAX_SUB_PIPELINE_DEPTH}`);
  }
  const scope = parent.expressions.scope.child();
  const slots = names.map((name) => scope.define(name));
  const expressions = childExpressions(parent.expressions, scope, depth);
  return { ctx: { expressions, runtime: parent.runtime, collection, parseSubPipeline: parent.parseSubPipeline }, slots };
}

/** `parsePipelineFromBSON`: an array of objects (14 otherwise). */
export function checkPipelineArray(value: unknown): Document[] {
  if (!Array.isArray(value)) throw new CommandError('TypeMismatch', "'pipeline' option must be specified as an array");
  for (const stage of value) {
    if (!isDocument(stage)) throw new CommandError('TypeMismatch', "Each element of the 'pipeline' array must be an object");
  }
  return value as Document[];
}

/** Parses a sub-pipeline for `place`, with the length limit (7749501). */
export function parseSubPipeline(stages: readonly Document[], ctx: PipelineParseContext, place: JoinPlace): ParsedPipeline {
  if (stages.length > MAX_PIPELINE_LENGTH) throw new CommandError(7749501, `Pipeline length must be no longer than ${MAX_PIPELINE_LENGTH} stages.`);
  return ctx.parseSubPipeline(stages, ctx, place);
}

/** `NamespaceString::isValid` for a collection of the pipeline's database. */
export function validCollectionName(name: string): boolean {
  return name.length > 0 && !name.startsWith('.') && !name.includes('\0');
}

/** The components of a join stage's field path (`FieldPath`: 15998, 16410, 16411, 40352, 40353; 15 past 200 components). */
export function joinFieldPath(path: string): string[] {
  const parts = parseFieldPath(path);
  if (parts.length > MAX_PATH_PARTS) throw new CommandError('Overflow', 'FieldPath is too long');
  return parts;
}

/**
 * The documents a parsed pipeline gives over `collection` (undefined: none, its first stage
 * makes its own documents): its leading `$match` stages are asked of the collection's query
 * layer (an index may answer them), the other stages run on its documents.
 */
export function runOver(parsed: ParsedPipeline, ctx: PipelineParseContext, collection: string | undefined): Iterable<Document> {
  const stages = parsed.stages;
  if (stages[0]?.definition.constraints.input === 'none' || collection === undefined) return runSubStages(stages, []);
  let i = 0;
  const matches: MatchInstance[] = [];
  while (i < stages.length && stages[i]!.name === '$match') matches.push(stages[i++]!.instance as MatchInstance);
  let filter: Document = {};
  let predicate: ((doc: Document) => boolean) | null = null;
  if (matches.length === 1) ({ filter, predicate } = matches[0]!);
  else if (matches.length > 1) {
    filter = { $and: matches.map((m) => m.filter) };
    predicate = compileMatchFilter(filter, ctx.expressions);
  }
  const source = ctx.runtime.collections.query(collection, { filter, predicate, collator: ctx.expressions.runtime.collator });
  return runSubStages(stages.slice(i), source);
}

/**
 * `document_path_support::visitAllValuesAtPath`: every value at `parts` of `doc`, arrays along
 * the path and at its end expanded (an array in an array is not), numeric components after an
 * array taken as positions.
 */
export function valuesAtPath(doc: Document, parts: readonly string[]): unknown[] {
  const out: unknown[] = [];
  visit(doc, parts, 0, out);
  return out;
}

function trailing(value: unknown, out: unknown[]): void {
  if (Array.isArray(value)) {
    for (const v of value) if (v !== undefined) out.push(v);
  } else if (value !== undefined) out.push(value);
}

function visit(doc: Document, parts: readonly string[], start: number, out: unknown[]): void {
  let i = start;
  let next: unknown = Object.prototype.hasOwnProperty.call(doc, parts[i]!) ? doc[parts[i]!] : undefined;
  i++;
  if (i === parts.length) return trailing(next, out);
  while (i < parts.length && Array.isArray(next)) {
    const part = parts[i]!;
    if (!/^[0-9]+$/.test(part)) break;
    const index = Number(part);
    next = index < next.length ? next[index] : undefined;
    i++;
  }
  if (i === parts.length) return trailing(next, out);
  if (Array.isArray(next)) {
    for (const el of next) if (isDocument(el)) visit(el, parts, i, out);
  } else if (isDocument(next)) visit(next, parts, i, out);
}

/** A copy of `doc` with `value` at `parts` (`MutableDocument::setNestedField`: what is not an object on the way becomes one). */
export function setPath(doc: Document, parts: readonly string[], value: unknown, from = 0): Document {
  const out: Document = { ...doc };
  const name = parts[from]!;
  if (from === parts.length - 1) {
    // Replacing keeps the field's place; a new field goes last.
    out[name] = value;
    return out;
  }
  const child = out[name];
  out[name] = setPath(isDocument(child) ? child : {}, parts, value, from + 1);
  return out;
}
