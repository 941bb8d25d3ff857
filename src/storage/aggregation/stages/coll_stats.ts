/**
 * `$collStats` (document_source_coll_stats.cpp): one document `{ns, host, localTime,
 * storageStats?, count?}` about the aggregated collection, first and only on a collection:
 * `storageStats: {scale?}` holds what collStats reports, `count: {}` the number of documents; on a
 * view, 166 once its specification is checked.
 * `latencyStats` and `queryExecStats` answer 238.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { isNumber, toDouble } from '../../values/numeric.js';
import { viewNotCollectionError } from '../../values/namespace.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

function notFound(what: string, ns: string): CommandError {
  return new CommandError('NamespaceNotFound', `Unable to retrieve ${what} in $collStats stage :: caused by :: Collection [${ns}] not found.`);
}

/** `{$collStats: {storageStats?: {scale?}, count?: {}}}`. */
export const collStats: StageDefinition = {
  name: '$collStats',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'collection', allowedIn: {} },
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError(5447000, `$collStats must take a nested object but found: ${bsonTypeOf(spec)}`);
    for (const key of Object.keys(spec)) {
      if (key === 'latencyStats' || key === 'queryExecStats') throw new CommandError('NotImplemented', `$collStats ${key} is not supported by Mayfly yet`);
      if (key !== 'storageStats' && key !== 'count') throw new CommandError('IDLUnknownField', `BSON field '$collStats.${key}' is an unknown field.`);
      if (!isDocument(spec[key])) {
        throw new CommandError('TypeMismatch', `BSON field '$collStats.${key}' is the wrong type '${bsonTypeOf(spec[key])}', expected type 'object'`);
      }
    }
    // Computed when parsed, as mongod's: its errors come before any document is read.
    const name = ctx.collection ?? '';
    const ns = `${ctx.runtime.db}.${name}`;
    const server = ctx.runtime.server;
    if (ctx.runtime.collections.isView(name)) throw viewNotCollectionError(ctx.runtime.db, name);
    const out: Document = { ns, host: server.host, localTime: ctx.expressions.runtime.now };
    if (isDocument(spec.storageStats)) {
      const scaleValue = spec.storageStats.scale;
      const scale = isNumber(scaleValue) ? Math.trunc(toDouble(scaleValue)) : 1;
      if (scale < 1) throw new CommandError('BadValue', 'scale has to be >= 1');
      const stats = server.storageStats(name, scale);
      if (stats === undefined) throw notFound('storageStats', ns);
      out.storageStats = stats;
    }
    if (isDocument(spec.count)) {
      const n = server.documentCount(name);
      if (n === undefined) throw notFound('count', ns);
      out.count = n;
    }
    return {
      *run() {
        yield out;
      },
    };
  },
};
