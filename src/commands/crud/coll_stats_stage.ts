/**
 * The `$collStats` aggregation stage (first stage of an aggregate on a collection): one document
 * `{ns, host, localTime, storageStats?, count?}` — `storageStats: {scale?}` holds what collStats
 * reports (for a capped collection `capped`, `max`, `maxSize`), `count: {}` the number of
 * documents. `latencyStats` and `queryExecStats` answer 238.
 * Source: mongo/src/mongo/db/pipeline/document_source_coll_stats.cpp.
 */
import { hostname } from 'node:os';
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../../storage/values/bson_type.js';
import { isNumber, toDouble } from '../../storage/values/numeric.js';
import { isDocument } from '../../storage/values/paths.js';
import { viewNotCollectionError } from '../../storage/views.js';
import { storageStats } from '../diagnostic/coll_stats.js';
import type { CommandContext } from '../types.js';

/** The `$collStats` document as the source of the rest of the pipeline; undefined without one. */
export function collStatsSource(ctx: CommandContext, name: string, stages: readonly Document[]): { source: Document[]; rest: Document[] } | undefined {
  stages.forEach((stage, i) => {
    if (i > 0 && '$collStats' in stage) throw new CommandError(40602, '$collStats is only valid as the first stage in a pipeline');
  });
  const first = stages[0];
  if (!first || !('$collStats' in first)) return undefined;
  const spec = first.$collStats;
  if (!isDocument(spec)) throw new CommandError(5447000, `$collStats must take a nested object but found: ${bsonTypeOf(spec)}`);
  for (const key of Object.keys(spec)) {
    if (key === 'latencyStats' || key === 'queryExecStats') throw new CommandError('NotImplemented', `$collStats ${key} is not supported by Mayfly yet`);
    if (key !== 'storageStats' && key !== 'count') throw new CommandError('IDLUnknownField', `BSON field '$collStats.${key}' is an unknown field.`);
    if (!isDocument(spec[key])) {
      throw new CommandError('TypeMismatch', `BSON field '$collStats.${key}' is the wrong type '${bsonTypeOf(spec[key])}', expected type 'object'`);
    }
  }
  const catalog = ctx.server.catalog;
  const coll = catalog.get(ctx.db, name);
  if (!coll && catalog.view(ctx.db, name)) throw viewNotCollectionError(ctx.db, name);
  const now = ctx.now();
  const port = ctx.server.settings.port;
  const out: Document = { ns: `${ctx.db}.${name}`, host: `${hostname()}:${port}`, localTime: new Date(now) };
  if (isDocument(spec.storageStats)) {
    const scaleValue = spec.storageStats.scale;
    const scale = isNumber(scaleValue) ? Math.trunc(toDouble(scaleValue)) : 1;
    if (scale < 1) throw new CommandError('BadValue', 'scale has to be >= 1');
    if (!coll) throw new CommandError('NamespaceNotFound', `Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [${ctx.db}.${name}] not found.`);
    out.storageStats = storageStats(coll, now, scale);
  }
  if (isDocument(spec.count)) {
    if (!coll) throw new CommandError('NamespaceNotFound', `Unable to retrieve count in $collStats stage :: caused by :: Collection [${ctx.db}.${name}] not found.`);
    let n = 0;
    for (const _ of coll.scan(() => now)) n++;
    out.count = n;
  }
  return { source: [out], rest: stages.slice(1) };
}
