/**
 * `$unionWith` (mongo/src/mongo/db/pipeline/document_source_union_with.cpp, union_with.idl): the
 * input documents, then those of another collection of the database (a view: its pipeline runs
 * first) through an optional sub-pipeline. `{$unionWith: "<coll>"}` or `{$unionWith: {coll,
 * pipeline}}`; without `coll` the pipeline must start with `$documents`. The sub-pipeline is
 * parsed with the stage (its errors come before any document is read) in a context of its own,
 * and runs once the input is exhausted. A name that is not a valid collection name is 73.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import { TRANSFORM, type PipelineParseContext, type StageDefinition, type StageInstance } from '../stage.js';
import { checkPipelineArray, parseSubPipeline, runOver, subPipelineContext, validCollectionName } from './_internal/sub_pipeline.js';

const COLLECTIONLESS = '$unionWith stage without explicit collection must have a pipeline with $documents as first stage';

function compileUnionWith(spec: unknown, ctx: PipelineParseContext): StageInstance {
  if (typeof spec !== 'string' && !isDocument(spec)) {
    throw new CommandError('FailedToParse', `the $unionWith stage specification must be an object or string, but found ${bsonTypeOf(spec)}`);
  }
  let coll: string | undefined;
  let stages: Document[] = [];
  if (typeof spec === 'string') coll = spec;
  else {
    for (const key of Object.keys(spec)) {
      if (key !== 'coll' && key !== 'pipeline') throw new CommandError(40415, `BSON field '$unionWith.${key}' is an unknown field.`);
    }
    if (spec.coll !== undefined && spec.coll !== null) {
      if (typeof spec.coll !== 'string') throw new CommandError('TypeMismatch', `BSON field '$unionWith.coll' is the wrong type '${bsonTypeOf(spec.coll)}', expected type 'string'`);
      coll = spec.coll;
    }
    if (spec.pipeline !== undefined && spec.pipeline !== null) stages = checkPipelineArray(spec.pipeline);
    if (coll === undefined && (stages.length === 0 || !('$documents' in stages[0]!))) throw new CommandError('FailedToParse', COLLECTIONLESS);
  }
  const db = ctx.runtime.db;
  // mongod's message, its missing space included ("Namespace dbis not ..." for an empty name).
  if (coll !== undefined && !validCollectionName(coll)) throw new CommandError('InvalidNamespace', `Namespace ${coll === '' ? db : `${db}.${coll}`}is not a valid collection name`);
  const view = coll === undefined ? undefined : ctx.runtime.collections.resolveView(coll);
  const source = view ? view.source : coll;
  const sub = subPipelineContext(ctx, source ?? null).ctx;
  const parsed = parseSubPipeline([...(view?.pipeline ?? []), ...stages], sub, 'unionWith');
  return {
    *run(input) {
      yield* input;
      yield* runOver(parsed, sub, source);
    },
  };
}

/** `{$unionWith: "<coll>"}` or `{$unionWith: {coll, pipeline}}`. */
export const unionWith: StageDefinition = {
  name: '$unionWith',
  constraints: TRANSFORM,
  parse: (spec, ctx) => compileUnionWith(spec, ctx),
};
