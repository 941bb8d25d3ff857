/**
 * `$collStats` (document_source_coll_stats.cpp): one document `{ns, host, localTime,
 * storageStats?, count?}` about the aggregated collection, first and only on a collection:
 * `storageStats: {scale?}` holds what collStats reports, `count: {}` the number of documents; on a
 * view, 166 once its specification is checked (latencies excepted).
 * `latencyStats: {histograms?}` and `queryExecStats: {}` are answered with Mayfly's figures: an
 * in-memory server measures no latency, keeps no scan counters (zeros).
 */
import { Long, type Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { bsonTypeOf } from '../../values/bson_type.js';
import { INT32_MAX, isNumber, safeNumberLong } from '../../values/numeric.js';
import { viewNotCollectionError } from '../../values/namespace.js';
import { isDocument } from '../../values/paths.js';
import type { StageDefinition } from '../stage.js';

function notFound(what: string, ns: string): CommandError {
  return new CommandError('NamespaceNotFound', `Unable to retrieve ${what} in $collStats stage :: caused by :: Collection [${ns}] not found.`);
}

/** The four latency counters mongod keeps per collection, each `{latency, ops}` (Int64 microseconds, operations). */
const LATENCY_KINDS = ['reads', 'writes', 'commands', 'transactions'] as const;

function wrongType(path: string, value: unknown, expected: string): CommandError {
  return new CommandError('TypeMismatch', `BSON field '${path}' is the wrong type '${bsonTypeOf(value)}', expected type '${expected}'`);
}

/** Checks the object `spec` has only the fields `allowed` (40415 otherwise). */
function strictFields(path: string, spec: Document, allowed: readonly string[]): void {
  for (const key of Object.keys(spec)) {
    if (!allowed.includes(key)) throw new CommandError('IDLUnknownField', `BSON field '${path}.${key}' is an unknown field.`);
  }
}

/**
 * `latencyStats`: the read, write, command and transaction latencies of the collection. Mayfly
 * answers every operation in memory within the same tick of its clock, so each is 0 µs over 0
 * operations; `histograms: true` adds the (empty) histogram of each.
 */
function latencyStats(histograms: boolean): Document {
  const out: Document = {};
  for (const kind of LATENCY_KINDS) {
    const entry: Document = { latency: Long.ZERO, ops: Long.ZERO };
    if (histograms) entry.histogram = [];
    entry.queryableEncryptionLatencyMicros = Long.ZERO;
    out[kind] = entry;
  }
  return out;
}

/** `storageStats.scale`: a number (14 otherwise; null is 1), read as `safeNumberLong` clamped to int32, at least 1 (2). */
function scaleOf(value: unknown): number {
  if (value === undefined || value === null) return 1;
  if (!isNumber(value)) throw wrongType('$collStats.storageStats.scale', value, 'number');
  const n = safeNumberLong(value)!;
  if (n < 1n) throw new CommandError('BadValue', 'scale has to be >= 1');
  return n > BigInt(INT32_MAX) ? INT32_MAX : Number(n);
}

/** `{$collStats: {latencyStats?: {histograms?}, storageStats?: {scale?}, count?: {}, queryExecStats?: {}}}`. */
export const collStats: StageDefinition = {
  name: '$collStats',
  constraints: { stream: 'streaming', position: 'first', input: 'none', target: 'collection', allowedIn: {} },
  parse(spec, ctx) {
    if (!isDocument(spec)) throw new CommandError(5447000, `$collStats must take a nested object but found: ${bsonTypeOf(spec)}`);
    const asked: { latency?: Document; storage?: Document; count?: Document; queryExec?: Document } = {};
    for (const [key, value] of Object.entries(spec)) {
      if (key !== 'latencyStats' && key !== 'storageStats' && key !== 'count' && key !== 'queryExecStats') {
        throw new CommandError('IDLUnknownField', `BSON field '$collStats.${key}' is an unknown field.`);
      }
      // A null option reads as absent, as the IDL's optional structs.
      if (value === null) continue;
      if (!isDocument(value)) throw wrongType(`$collStats.${key}`, value, 'object');
      if (key === 'latencyStats') {
        strictFields('$collStats.latencyStats', value, ['histograms']);
        if (value.histograms !== undefined && typeof value.histograms !== 'boolean') {
          throw wrongType('$collStats.latencyStats.histograms', value.histograms, 'bool');
        }
        asked.latency = value;
      } else if (key === 'storageStats') {
        // Its other fields are collStats' own options, passed through unchecked, as mongod does.
        asked.storage = value;
      } else {
        if (Object.keys(value).length > 0) throw new CommandError(31170, `${key} argument must be an empty object`);
        if (key === 'count') asked.count = value;
        else asked.queryExec = value;
      }
    }
    // Computed when parsed, as mongod's: its errors come before any document is read.
    const name = ctx.collection ?? '';
    const ns = `${ctx.runtime.db}.${name}`;
    const server = ctx.runtime.server;
    const scale = asked.storage === undefined ? 1 : scaleOf(asked.storage.scale);
    // A view has latencies; what needs a collection's storage is 166 on one.
    if ((asked.storage || asked.count || asked.queryExec) && ctx.runtime.collections.isView(name)) throw viewNotCollectionError(ctx.runtime.db, name);
    const out: Document = { ns, host: server.host, localTime: ctx.expressions.runtime.now };
    if (asked.latency) out.latencyStats = latencyStats(asked.latency.histograms === true);
    if (asked.storage) {
      const stats = server.storageStats(name, scale);
      if (stats === undefined) throw notFound('storageStats', ns);
      out.storageStats = stats;
    }
    if (asked.count) {
      const n = server.documentCount(name);
      if (n === undefined) throw notFound('count', ns);
      out.count = n;
    }
    if (asked.queryExec) {
      if (server.documentCount(name) === undefined) throw notFound('queryExecStats', ns);
      out.queryExecStats = { collectionScans: { total: Long.ZERO, nonTailable: Long.ZERO } };
    }
    return {
      *run() {
        yield out;
      },
    };
  },
};
