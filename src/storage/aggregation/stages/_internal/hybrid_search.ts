/**
 * What the hybrid search stages share (`$rankFusion`, `$scoreFusion`: mongo/src/mongo/db/pipeline/
 * document_source_rank_fusion.cpp, document_source_score_fusion.cpp,
 * document_source_hybrid_scoring_util.cpp and their IDL): the IDL checks of their specifications
 * (40414 a required field missing or null, 40415 an unknown field, 14 a field of the wrong type),
 * the input pipelines (named by valid field names, run in name order over the stage's own
 * collection, a view's pipeline first), the checks mongod makes of them before and after parsing,
 * and the weights of `combination.weights`.
 *
 * The order of the checks is mongod's: the whole specification's IDL, then every input pipeline
 * lite-parsed (its stage documents' shape, 14/40323, their names, 40324, and no hybrid stage but
 * first, 10170100), then each pipeline in turn checked (not empty 9834300, no nested hybrid stage
 * 10473002, no `$score` 10614800, ranked or scored, selection stages only 9191103), parsed (the
 * stages' own checks, the 1000-stage limit 7749501) and its name checked (15998, 16410, 16412);
 * then the weights (13118 not a number, 9460300 negative or NaN, 9460301 more weights than
 * pipelines, 9967500 a weight naming no pipeline).
 */
import { searchIndexesNotEnabled, searchStagesNotEnabled } from '../../../../errors/search_not_enabled.js';
import type { Document } from '../../../../bson/library.js';
import { CommandError } from '../../../../errors/command_error.js';
import { assertValidFieldName } from '../../../expression/field_path.js';
import { compileSort } from '../../../query/sort.js';
import { bsonTypeOf } from '../../../values/bson_type.js';
import { docValueToString } from '../../../values/format.js';
import { isNumber, toDouble } from '../../../values/numeric.js';
import { isDocument } from '../../../values/paths.js';
import { STAGE_CATALOGUE } from '../../catalogue.js';
import type { ParsedStage, PipelineParseContext, StageConstraints } from '../../stage.js';
import { checkPipelineArray, parseSubPipeline, runOver, subPipelineContext } from './sub_pipeline.js';

/** The stage names mongod knows (the registry's table would import the stages that import this). */
const KNOWN_STAGES: ReadonlySet<string> = new Set(STAGE_CATALOGUE.map(([name]) => name));

/** The hybrid search stages. */
export const HYBRID_STAGES: ReadonlySet<string> = new Set(['$rankFusion', '$scoreFusion']);

/** Their error standing anywhere but first. */
export function notFirstStage(name: string): CommandError {
  return new CommandError(10170100, `${name} is only allowed as the first stage of a pipeline`);
}

/**
 * The constraints of a hybrid search stage: first in its pipeline (10170100 elsewhere), reading
 * its own collection rather than the documents before it; allowed first in `$facet`, `$lookup`
 * and `$unionWith` sub-pipelines, not in a view's definition.
 */
export const HYBRID_SEARCH: StageConstraints = Object.freeze({
  stream: 'blocking',
  position: 'first',
  input: 'none',
  target: 'collection',
  allowedIn: Object.freeze({ facet: true, lookup: true, unionWith: true, transaction: true }),
  notFirst: notFirstStage,
});

/** IDL's checks of one struct: its fields by name, each with a type check. */
export interface IdlField {
  readonly type: 'object' | 'bool' | 'string' | 'any';
  readonly required?: true;
}

/**
 * The fields of `spec` (an IDL struct at `path`, e.g. `$rankFusion.input`), each present and
 * non-null one type-checked, unknown ones refused, required ones present: null is absent.
 */
export function idlStruct(spec: Document, path: string, fields: Readonly<Record<string, IdlField>>): Document {
  const out: Document = {};
  for (const name of Object.keys(spec)) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (field === undefined) throw new CommandError(40415, `BSON field '${path}.${name}' is an unknown field.`);
    const value = spec[name];
    if (value === null || value === undefined) continue;
    const ok = field.type === 'any' ? true : field.type === 'object' ? isDocument(value) : field.type === 'bool' ? typeof value === 'boolean' : typeof value === 'string';
    if (!ok) throw new CommandError('TypeMismatch', `BSON field '${path}.${name}' is the wrong type '${bsonTypeOf(value)}', expected type '${field.type}'`);
    out[name] = value;
  }
  for (const [name, field] of Object.entries(fields)) {
    if (field.required && out[name] === undefined) throw new CommandError(40414, `BSON field '${path}.${name}' is missing but a required field`);
  }
  return out;
}

/** The stages that only retrieve, limit or order documents (`isSelectionStage`). */
const SELECTION_STAGES = new Set(['$_internalInhibitOptimization', '$limit', '$match', '$rankFusion', '$sample', '$score', '$scoreFusion', '$skip', '$sort', '$vectorSearch']);

/** Why `stage` is not a selection stage, or undefined when it is. */
function notSelection(stage: Document): string | undefined {
  const name = Object.keys(stage)[0]!;
  if (SELECTION_STAGES.has(name)) return undefined;
  if (name === '$geoNear') {
    const spec = stage.$geoNear;
    if (!isDocument(spec)) return `Spec for $geoNear must be a BSON object, but was given: ${docValueToString(stage)}`;
    if ('distanceField' in spec || 'includeLocs' in spec) {
      return "$geoNear is only a selection stage if 'includeLocs' and 'distanceField' are not specified, because these options modify the input documents by adding output fields.";
    }
    return undefined;
  }
  if (name === '$search') {
    const spec = stage.$search;
    if (!isDocument(spec)) return `Spec for $search must be a BSON object, but was given: ${docValueToString(stage)}`;
    if (spec.returnStoredSource === undefined) return undefined;
    if (typeof spec.returnStoredSource !== 'boolean') return `Spec for 'returnStoredSource' should be a boolean, but was given: ${docValueToString(stage)}`;
    return spec.returnStoredSource
      ? "$search is only a selection stage if 'returnStoredSource' is false because it modifies the output fields."
      : undefined;
  }
  return `${name} is not a selection stage because it modifies or transforms the input documents.`;
}

/** The search stages a server without a search node (mongot) refuses: SearchNotEnabled. */
const SEARCH_STAGES = new Set(['$search', '$searchMeta', '$vectorSearch', '$listSearchIndexes']);

/** The kind of input pipeline a stage requires: ranked (`$rankFusion`) or scored (`$scoreFusion`). */
export type InputKind = 'ranked' | 'scored';

const RANKED_FIRST = new Set(['$geoNear', '$rankFusion', '$scoreFusion', '$search', '$vectorSearch']);
const SCORED_FIRST = new Set(['$rankFusion', '$scoreFusion', '$search', '$vectorSearch']);

/** One parsed input pipeline. */
export interface InputPipeline {
  readonly name: string;
  readonly stages: readonly ParsedStage[];
  readonly ctx: PipelineParseContext;
  /** The collection it reads (a view's source), undefined when it does not exist. */
  readonly source: string | undefined;
}

/** Byte order of the UTF-8 names (mongod keeps the input pipelines in a `std::map`). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The lite parse of every input pipeline, before any is checked further: an array (14) of stage
 * documents (14) with exactly one field (40323) naming a known stage (40324), a hybrid stage
 * only first (10170100), recursively into nested hybrid stages.
 */
export function liteParsePipelines(pipelines: Document): Array<[string, Document[]]> {
  const out: Array<[string, Document[]]> = [];
  for (const name of Object.keys(pipelines)) {
    const stages = checkPipelineArray(pipelines[name]);
    liteParse(stages);
    out.push([name, stages]);
  }
  return out;
}

function liteParse(stages: readonly Document[]): void {
  stages.forEach((stage, i) => {
    const keys = Object.keys(stage);
    if (keys.length !== 1) throw new CommandError(40323, 'A pipeline stage specification object must contain exactly one field.');
    const name = keys[0]!;
    if (!KNOWN_STAGES.has(name)) throw new CommandError(40324, `Unrecognized pipeline stage name: '${name}'`);
    if (HYBRID_STAGES.has(name) && i > 0) throw notFirstStage(name);
  });
}

/** mongod's message tail for the pipelines of `stageName`. */
function requirement(stageName: string, kind: InputKind): string {
  return kind === 'ranked'
    ? `All subpipelines to the ${stageName} stage must begin with one of $search, $vectorSearch, $geoNear, or have a custom $sort in the pipeline.`
    : `All subpipelines to the ${stageName} stage must begin with one of $search, $vectorSearch, $rankFusion, $scoreFusion or have a custom $score in the pipeline.`;
}

/** `rankFusionBsonPipelineValidator` / the `$scoreFusion` one: what an input pipeline may hold. */
function validateInputPipeline(stageName: string, kind: InputKind, stages: readonly Document[]): void {
  const tail = requirement(stageName, kind);
  if (stages.length === 0) throw new CommandError(kind === 'ranked' ? 9834300 : 9834301, `${stageName} input pipeline cannot be empty. ${tail}`);
  const names = stages.map((s) => Object.keys(s)[0]!);
  if (names.some((n) => HYBRID_STAGES.has(n))) {
    throw new CommandError(10473002, `${stageName} input pipeline has a nested hybrid search stage ($rankFusion/$scoreFusion). ${tail}`);
  }
  if (kind === 'ranked') {
    if (names.includes('$score')) throw new CommandError(10614800, `${stageName} input pipelines must not contain a $score stage.`);
    if (!RANKED_FIRST.has(names[0]!) && !names.includes('$sort')) {
      throw new CommandError(9191100, `Pipeline did not begin with a ranked stage and did not contain an explicit $sort stage. ${tail}`);
    }
  } else if (!SCORED_FIRST.has(names[0]!) && !names.includes('$score')) {
    throw new CommandError(9402500, `Pipeline did not begin with a scored stage and did not contain an explicit $score stage. ${tail}`);
  }
  for (const stage of stages) {
    const reason = notSelection(stage);
    if (reason !== undefined) {
      throw new CommandError(kind === 'ranked' ? 9191103 : 9402503, `${reason} Only stages that retrieve, limit, or order documents are allowed.`);
    }
  }
}

/**
 * The input pipelines of a hybrid stage, checked and parsed over the stage's collection (a
 * view's pipeline run first), in name order.
 */
export function parseInputPipelines(stageName: string, kind: InputKind, pipelines: Document, ctx: PipelineParseContext): InputPipeline[] {
  const lite = liteParsePipelines(pipelines);
  if (lite.length === 0) throw new CommandError('BadValue', `${stageName} input must have at least one pipeline.`);
  const target = ctx.collection ?? undefined;
  const view = target === undefined ? undefined : ctx.runtime.collections.resolveView(target);
  const source = view ? view.source : target;
  const out: InputPipeline[] = [];
  const seen = new Set<string>();
  for (const [name, stages] of lite) {
    validateInputPipeline(stageName, kind, stages);
    const search = stages.find((s) => SEARCH_STAGES.has(Object.keys(s)[0]!));
    if (search !== undefined) {
      throw Object.keys(search)[0] === '$listSearchIndexes' ? searchIndexesNotEnabled() : searchStagesNotEnabled();
    }
    const sub = subPipelineContext(ctx, source ?? null).ctx;
    const parsed = parseSubPipeline([...(view?.pipeline ?? []), ...stages], sub, 'unionWith');
    try {
      assertValidFieldName(name);
    } catch (e) {
      if (e instanceof CommandError) {
        throw new CommandError(e.code, `${stageName} pipeline names must follow the naming rules of field path expressions. :: caused by :: ${e.message}`);
      }
      throw e;
    }
    if (seen.has(name)) throw new CommandError(9921000, `${stageName} pipeline names must be unique, but found duplicate name '${name}'.`);
    seen.add(name);
    out.push({ name, stages: parsed.stages, ctx: sub, source });
  }
  return out.sort((a, b) => byteOrder(a.name, b.name));
}

/** The documents an input pipeline gives, in order. */
export function runInputPipeline(input: InputPipeline): Document[] {
  return Array.from(runOver({ stages: input.stages }, input.ctx, input.source));
}

/**
 * The order that ranks an input pipeline's documents: its rightmost `$sort`'s (documents equal
 * under it share a rank), or none (each document its own rank).
 */
export function rankingOrder(input: InputPipeline): ((a: Document, b: Document) => number) | undefined {
  for (let i = input.stages.length - 1; i >= 0; i--) {
    const s = input.stages[i]!;
    if (s.name === '$sort') return compileSort((s.instance as unknown as { sort: Document }).sort, input.ctx.expressions.runtime.collator);
  }
  return undefined;
}

/** Levenshtein distance, for the suggestions of 9967500. */
function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** `validateWeights`: the weight of each pipeline `combination.weights` names, as doubles. */
export function validateWeights(stageName: string, weights: Document, pipelines: readonly InputPipeline[]): Map<string, number> {
  const names = new Set(pipelines.map((p) => p.name));
  const out = new Map<string, number>();
  const invalid: string[] = [];
  const bare = stageName.slice(1);
  for (const name of Object.keys(weights)) {
    if (!names.has(name)) {
      invalid.push(name);
      continue;
    }
    const value = weights[name];
    if (!isNumber(value)) throw new CommandError(13118, `expected ${name} to have a numeric type, but it is a ${bsonTypeOf(value)}`);
    const weight = toDouble(value);
    if (!(weight >= 0)) {
      throw new CommandError(9460300, `${bare}'s pipeline weight must be non-negative, but given ${docValueToString(weight)} for pipeline '${name}'.`);
    }
    out.set(name, weight);
  }
  const count = Object.keys(weights).length;
  if (pipelines.length < count) {
    throw new CommandError(
      9460301,
      `${stageName} input has more weights (${count}) than pipelines (${pipelines.length}). If 'combination.weights' is specified, there must be a less or equal number of weights as pipelines, each of which is unique and existing. Possible extraneous specified weights = [${invalid.join(', ')}]`,
    );
  }
  if (invalid.length > 0) {
    const unmatched = pipelines.map((p) => p.name).filter((n) => !out.has(n));
    const parts = invalid.map((w) => {
      let best = Infinity;
      let picks: string[] = [];
      for (const u of unmatched) {
        const d = distance(w, u);
        if (d < best) {
          best = d;
          picks = [u];
        } else if (d === best) picks.push(u);
      }
      return picks.length === 1 ? `(provided: '${w}' -> suggested: '${picks[0]}')` : `(provided: '${w}' -> suggestions: [${picks.join(', ')}])`;
    });
    throw new CommandError(
      9967500,
      `${stageName} stage contained (${invalid.length}) weight(s) in 'combination.weights' that did not reference valid pipeline names. Suggestions for valid pipeline names: ${parts.join(', ')}`,
    );
  }
  return out;
}
