/**
 * `$rankFusion` (mongo/src/mongo/db/pipeline/document_source_rank_fusion.cpp, rank_fusion.idl):
 * hybrid search by reciprocal rank fusion. Each named input pipeline runs over the stage's
 * collection (a view's pipeline first); a document's rank in it is its 1-based position, shared
 * by documents equal under the pipeline's rightmost `$sort` (mongod ranks with `$rank` over the
 * sort key, so ties share a rank and the next rank jumps). Documents are merged by `_id` (the first
 * one seen kept); a document's score is the sum over the pipelines that returned it of
 * `weight * 1 / (60 + rank)` (weights from `combination.weights`, default 1), and the output is
 * ordered by score descending, then `_id` ascending. The score is the document's `score`
 * metadata; with `scoreDetails: true` its `scoreDetails` metadata is
 * `{value, description, details: [{inputPipelineName, rank, weight, details: []}, ...]}` over
 * every pipeline in name order (`{inputPipelineName, rank: "NA"}` for one that did not return it).
 *
 * A first stage (10170100 elsewhere) that reads its own collection: allowed first in `$facet`,
 * `$lookup` and `$unionWith` sub-pipelines. The checks are hybrid_search.ts's.
 */
import { makeDouble, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { compareValues } from '../../values/compare.js';
import { collationKeyString } from '../../values/key_string.js';
import { setMetadata } from '../../values/metadata.js';
import { isDocument } from '../../values/paths.js';
import type { PipelineParseContext, StageDefinition, StageInstance } from '../stage.js';
import { HYBRID_SEARCH, idlStruct, parseInputPipelines, rankingOrder, runInputPipeline, validateWeights } from './_internal/hybrid_search.js';

/** mongod's rank constant. */
const RANK_CONSTANT = 60;

const DESCRIPTION =
  'value output by reciprocal rank fusion algorithm, computed as sum of (weight * (1 / (60 + rank))) across input pipelines from which this document is output, from:';

/** The IDL's checks of the whole specification (before any pipeline is looked into). */
function parseSpec(spec: unknown): { pipelines: Document; weights: Document | undefined; scoreDetails: boolean } {
  if (!isDocument(spec)) throw new CommandError('FailedToParse', `The $rankFusion stage specification must be an object, found ${bsonTypeOf(spec)}`);
  const top = idlStruct(spec, '$rankFusion', { input: { type: 'object', required: true }, combination: { type: 'object' }, scoreDetails: { type: 'bool' } });
  const input = idlStruct(top.input as Document, '$rankFusion.input', { pipelines: { type: 'object', required: true } });
  const combination = top.combination === undefined ? undefined : idlStruct(top.combination as Document, '$rankFusion.combination', { weights: { type: 'object', required: true } });
  return { pipelines: input.pipelines as Document, weights: combination?.weights as Document | undefined, scoreDetails: top.scoreDetails === true };
}

interface Fused {
  readonly doc: Document;
  /** The rank in each pipeline that returned it, by pipeline index. */
  readonly ranks: Array<number | undefined>;
}

function compileRankFusion(spec: unknown, ctx: PipelineParseContext): StageInstance {
  const { pipelines: raw, weights: rawWeights, scoreDetails } = parseSpec(spec);
  const pipelines = parseInputPipelines('$rankFusion', 'ranked', raw, ctx);
  const weightOf = rawWeights === undefined ? new Map<string, number>() : validateWeights('$rankFusion', rawWeights, pipelines);
  const weights = pipelines.map((p) => weightOf.get(p.name) ?? 1);
  const orders = pipelines.map(rankingOrder);
  const collator = ctx.expressions.runtime.collator;
  return {
    *run() {
      const fused = new Map<string, Fused>();
      pipelines.forEach((p, i) => {
        const order = orders[i];
        let previous: Document | undefined;
        let rank = 0;
        runInputPipeline(p).forEach((doc, position) => {
          if (order === undefined || previous === undefined || order(previous, doc) !== 0) rank = position + 1;
          previous = doc;
          const key = collationKeyString(doc._id, collator);
          let f = fused.get(key);
          if (f === undefined) {
            f = { doc, ranks: new Array<number | undefined>(pipelines.length).fill(undefined) };
            fused.set(key, f);
          }
          if (f.ranks[i] === undefined) f.ranks[i] = rank;
        });
      });
      const scored = [...fused.values()].map((f) => {
        let score = 0;
        f.ranks.forEach((rank, i) => {
          if (rank !== undefined) score += (1 / (rank + RANK_CONSTANT)) * weights[i]!;
        });
        return { f, score };
      });
      scored.sort((a, b) => (a.score === b.score ? compareValues(a.f.doc._id, b.f.doc._id, collator) : b.score > a.score ? 1 : -1));
      for (const { f, score } of scored) {
        const out: Document = { ...f.doc };
        const value = makeDouble(score);
        setMetadata(out, {
          score: value,
          scoreDetails: scoreDetails
            ? {
                value,
                description: DESCRIPTION,
                details: pipelines.map((p, i) => {
                  const rank = f.ranks[i];
                  return rank === undefined
                    ? { inputPipelineName: p.name, rank: 'NA' }
                    : { inputPipelineName: p.name, rank, weight: makeDouble(weights[i]!), details: [] };
                }),
              }
            : undefined,
        });
        yield out;
      }
    },
  };
}

/** `{$rankFusion: {input: {pipelines: {<name>: [<stage>, ...], ...}}, combination?: {weights}, scoreDetails?}}`. */
export const rankFusion: StageDefinition = {
  name: '$rankFusion',
  constraints: HYBRID_SEARCH,
  parse: (spec, ctx) => compileRankFusion(spec, ctx),
};
