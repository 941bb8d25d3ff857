/**
 * `$facet` (mongo/src/mongo/db/pipeline/document_source_facet.cpp): every sub-pipeline runs over
 * the same input, and the stage outputs one document whose fields are the sub-pipelines' results
 * as arrays, in specification order. The specification is a non-empty object (40169) of valid
 * field names (15998, 16410, 16411, 16412) to arrays (40170) of objects (40171), each checked
 * for every facet before any sub-pipeline is parsed; the sub-pipelines are parsed as `facet`
 * pipelines (their stages must allow it: 40600). The output may not exceed 100 MB (4031700).
 * A blocking stage: the input is read once, then each sub-pipeline runs over it.
 */
import type { Document } from '../../../bson/library.js';
import { bsonSize } from '../../../bson/encode.js';
import { CommandError } from '../../../errors/command_error.js';
import { assertValidFieldName } from '../../expression/field_path.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { docValueToString } from '../../values/format.js';
import { isDocument } from '../../values/paths.js';
import { BLOCKING, type ParsedStage, type StageConstraints, type StageDefinition } from '../stage.js';
import { runSubStages } from './_internal/sub_pipeline.js';

/** The largest document `$facet` builds (`DocumentSourceFacet::kMaxOutputDocSizeBytes`). */
const MAX_OUTPUT_BYTES = 100 * 1024 * 1024;

/** Blocking; in a view and the joins' sub-pipelines, never in another `$facet`. */
const FACET: StageConstraints = Object.freeze({
  ...BLOCKING,
  allowedIn: Object.freeze({ view: true, lookup: true, unionWith: true, transaction: true }),
});

/** `{$facet: {<output field>: [<stage>, ...], ...}}`. */
export const facet: StageDefinition = {
  name: '$facet',
  constraints: FACET,
  parse(spec, ctx) {
    if (!isDocument(spec) || Object.keys(spec).length === 0) {
      throw new CommandError(40169, `the $facet specification must be a non-empty object, but found: ${docValueToString(spec)}`);
    }
    const raw: Array<[string, unknown[]]> = [];
    for (const [name, value] of Object.entries(spec)) {
      assertValidFieldName(name);
      if (!Array.isArray(value)) {
        throw new CommandError(40170, `arguments to $facet must be arrays, ${name} is type ${bsonTypeOf(value)}`);
      }
      for (const stage of value) {
        if (!isDocument(stage)) {
          throw new CommandError(
            40171,
            `elements of arrays in $facet spec must be non-empty objects, ${name} argument contained an element of type ${bsonTypeOf(stage)}: ${docValueToString(stage)}`,
          );
        }
      }
      raw.push([name, value]);
    }
    const facets: Array<[string, readonly ParsedStage[]]> = raw.map(([name, stages]) => [name, ctx.parseSubPipeline(stages, ctx, 'facet').stages]);
    return {
      *run(input) {
        const docs = Array.from(input);
        const out: Document = {};
        let size = 5;
        for (const [name, pipeline] of facets) {
          const results: Document[] = [];
          // The field's type byte, name and terminator, and the array's own length and terminator.
          size += Buffer.byteLength(name) + 2 + 5;
          for (const doc of runSubStages(pipeline, docs)) {
            size += bsonSize(doc) + String(results.length).length + 2;
            if (size > MAX_OUTPUT_BYTES) {
              throw new CommandError(
                4031700,
                `document constructed by $facet is ${size} bytes, which exceeds the limit of ${MAX_OUTPUT_BYTES} bytes`,
              );
            }
            results.push(doc);
          }
          out[name] = results;
        }
        yield out;
      },
    };
  },
};
