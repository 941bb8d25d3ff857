/**
 * `$scoreFusion` (mongo/src/mongo/db/pipeline/document_source_score_fusion.cpp, score_fusion.idl):
 * hybrid search by the scores of its input pipelines. Each named input pipeline must be scored
 * (it begins with `$search`, `$vectorSearch`, a hybrid stage, or holds a `$score`: 9402500
 * otherwise) and made of selection stages; its documents' `score` metadata is normalized per
 * pipeline (`input.normalization`: `none`; `sigmoid`, 1 / (1 + e^-score); `minMaxScaler`, (score -
 * min) / (max - min) over the pipeline's documents, 0 when they all score alike), weighted
 * (`combination.weights`, default 1) and combined (`combination.method`: `avg`, the mean over the
 * pipelines that returned the document, or `expression`, `combination.expression` evaluated with
 * each pipeline's weighted score as the variable of its name, 0 for a pipeline that did not
 * return it). Documents are merged by `_id` and ordered by score descending, then `_id`; the
 * score is their `score` metadata, `scoreDetails: true` adds `scoreDetails`.
 *
 * Mayfly has no search node and no `$score` stage yet, so the pipelines it can run answer
 * SearchNotEnabled (31082) or 238 when parsed; the checks of the specification are mongod's
 * (hybrid_search.ts), so the errors of a malformed one are too.
 */
import { makeDouble, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Evaluator } from '../../expression/types.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues } from '../../values/compare.js';
import { collationKeyString } from '../../values/key_string.js';
import { metadataOf, setMetadata } from '../../values/metadata.js';
import { MISSING } from '../../values/missing.js';
import { isNumber, toDouble } from '../../values/numeric.js';
import { isDocument } from '../../values/paths.js';
import type { PipelineParseContext, StageDefinition, StageInstance } from '../stage.js';
import { HYBRID_SEARCH, idlStruct, parseInputPipelines, runInputPipeline, validateWeights } from './_internal/hybrid_search.js';

const NORMALIZATIONS = new Set(['none', 'sigmoid', 'minMaxScaler']);
const METHODS = new Set(['avg', 'expression']);

function enumValue(value: unknown, field: string, allowed: ReadonlySet<string>): string {
  const s = value as string;
  if (!allowed.has(s)) throw new CommandError('BadValue', `Enumeration value '${s}' for field '${field}' is not a valid value.`);
  return s;
}

interface Fused {
  readonly doc: Document;
  /** The normalized score in each pipeline that returned it, by pipeline index. */
  readonly scores: Array<number | undefined>;
  readonly raw: Array<number | undefined>;
}

function compileScoreFusion(spec: unknown, ctx: PipelineParseContext): StageInstance {
  if (!isDocument(spec)) throw new CommandError('FailedToParse', `The $scoreFusion stage specification must be an object, found ${bsonTypeOf(spec)}`);
  const top = idlStruct(spec, '$scoreFusion', { input: { type: 'object', required: true }, combination: { type: 'object' }, scoreDetails: { type: 'bool' } });
  const input = idlStruct(top.input as Document, '$scoreFusion.input', { pipelines: { type: 'object', required: true }, normalization: { type: 'string', required: true } });
  const normalization = enumValue(input.normalization, '$scoreFusion.input.normalization', NORMALIZATIONS);
  const combination =
    top.combination === undefined
      ? {}
      : idlStruct(top.combination as Document, '$scoreFusion.combination', { weights: { type: 'object' }, method: { type: 'string' }, expression: { type: 'any' } });
  const method = combination.method === undefined ? 'avg' : enumValue(combination.method, '$scoreFusion.combination.method', METHODS);
  const rawExpression = (top.combination as Document | undefined)?.expression;
  if (method === 'expression' && rawExpression === undefined) {
    throw new CommandError('BadValue', "combination.expression must be specified when combination.method is 'expression'");
  }
  if (method !== 'expression' && rawExpression !== undefined) {
    throw new CommandError('BadValue', "combination.expression should only be specified when combination.method has the value 'expression'");
  }
  const scoreDetails = top.scoreDetails === true;
  const pipelines = parseInputPipelines('$scoreFusion', 'scored', input.pipelines as Document, ctx);
  const weightOf = combination.weights === undefined ? new Map<string, number>() : validateWeights('$scoreFusion', combination.weights as Document, pipelines);
  const weights = pipelines.map((p) => weightOf.get(p.name) ?? 1);
  const expressions = ctx.expressions;
  let combine: (scores: Array<number | undefined>) => number;
  if (method === 'expression') {
    const scope = expressions.scope.child();
    const slots = pipelines.map((p) => scope.define(p.name));
    const expr: Evaluator = scope.parse(rawExpression);
    combine = (scores) => {
      const frame = expressions.frame({});
      scores.forEach((s, i) => {
        frame.vars[slots[i]!] = s ?? 0;
      });
      const v = expr(frame);
      if (!isNumber(v)) throw new CommandError('TypeMismatch', `$scoreFusion's combination.expression must evaluate to a number, but found ${bsonTypeOf(v === MISSING ? null : v)}`);
      return toDouble(v);
    };
  } else {
    combine = (scores) => {
      let sum = 0;
      let n = 0;
      for (const s of scores) {
        if (s === undefined) continue;
        sum += s;
        n++;
      }
      return n === 0 ? 0 : sum / n;
    };
  }
  const collator = expressions.runtime.collator;
  return {
    *run() {
      const fused = new Map<string, Fused>();
      pipelines.forEach((p, i) => {
        const docs = runInputPipeline(p);
        const raws = docs.map((d) => {
          const s = metadataOf(d)?.score;
          return isNumber(s) ? toDouble(s) : 0;
        });
        const min = Math.min(...raws);
        const max = Math.max(...raws);
        docs.forEach((doc, j) => {
          const raw = raws[j]!;
          const normalized = normalization === 'sigmoid' ? 1 / (1 + Math.exp(-raw)) : normalization === 'minMaxScaler' ? (max === min ? 0 : (raw - min) / (max - min)) : raw;
          const key = collationKeyString(doc._id, collator);
          let f = fused.get(key);
          if (f === undefined) {
            f = { doc, scores: new Array<number | undefined>(pipelines.length).fill(undefined), raw: new Array<number | undefined>(pipelines.length).fill(undefined) };
            fused.set(key, f);
          }
          if (f.scores[i] === undefined) {
            f.scores[i] = normalized * weights[i]!;
            f.raw[i] = raw;
          }
        });
      });
      const scored = [...fused.values()].map((f) => ({ f, score: combine(f.scores) }));
      scored.sort((a, b) => (a.score === b.score ? compareValues(a.f.doc._id, b.f.doc._id, collator) : b.score > a.score ? 1 : -1));
      for (const { f, score } of scored) {
        const out: Document = { ...f.doc };
        const value = makeDouble(score);
        setMetadata(out, {
          score: value,
          scoreDetails: scoreDetails
            ? {
                value,
                description: `the value calculated by combining the scores (either normalized or raw) across input pipelines from which this document is output from:`,
                normalization,
                combination: { method: method === 'avg' ? 'average' : 'custom expression' },
                details: pipelines.map((p, i) =>
                  f.scores[i] === undefined
                    ? { inputPipelineName: p.name }
                    : { inputPipelineName: p.name, inputPipelineRawScore: makeDouble(f.raw[i]!), weight: makeDouble(weights[i]!), value: makeDouble(f.scores[i]!), details: [] },
                ),
              }
            : undefined,
        });
        yield out;
      }
    },
  };
}

/** `{$scoreFusion: {input: {pipelines: {...}, normalization}, combination?: {weights?, method?, expression?}, scoreDetails?}}`. */
export const scoreFusion: StageDefinition = {
  name: '$scoreFusion',
  constraints: HYBRID_SEARCH,
  parse: (spec, ctx) => compileScoreFusion(spec, ctx),
};
