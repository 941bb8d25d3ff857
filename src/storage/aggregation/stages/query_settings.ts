/**
 * `$querySettings` (document_source_query_settings.cpp): the cluster's query shape
 * configurations set by `setQuerySettings`, one document each: `{queryShapeHash, settings,
 * representativeQuery}` (the representative query absent when the settings were set by hash),
 * and with `showDebugQueryShape: true` the shape itself (`debugQueryShape`). The first stage of
 * an `{aggregate: 1}` (73 over a collection, in a sub-pipeline too), never in a `$facet` or a
 * transaction. Its argument is a document (7746800) of the IDL struct
 * `DocumentSourceQuerySettingsSpec`: only `showDebugQueryShape`, a bool (14, no coercion; 40415
 * for any other field).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

/** `{$querySettings: {showDebugQueryShape?: bool}}`. */
export const querySettings: StageDefinition = {
  name: '$querySettings',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'database', allowedIn: { lookup: true, unionWith: true } },
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError(7746800, '$querySettings stage expects a document as argument');
    let showDebugQueryShape = false;
    for (const [key, value] of Object.entries(spec)) {
      if (key !== 'showDebugQueryShape') throw new CommandError('IDLUnknownField', `BSON field '$querySettings.${key}' is an unknown field.`);
      if (typeof value !== 'boolean') {
        throw new CommandError('TypeMismatch', `BSON field '$querySettings.showDebugQueryShape' is the wrong type '${bsonTypeOf(value)}', expected type 'bool'`);
      }
      showDebugQueryShape = value;
    }
    // Over a collection (a sub-pipeline's included) the pipeline's check answers 73.
    const server = ctx.runtime.server;
    return {
      *run() {
        for (const config of server.querySettings?.() ?? []) {
          const out: Document = { ...config };
          if (!showDebugQueryShape) delete out.debugQueryShape;
          yield out;
        }
      },
    };
  },
};
