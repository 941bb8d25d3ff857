/** What every explain reply shares: the server parameters it quotes, `serverInfo`, the command echoed. */
import { hostname } from 'node:os';
import type { Document } from '../../bson/library.js';
import { MONGODB_VERSION } from '../../version.js';
import { GENERIC_ARGUMENTS } from '../args.js';
import type { CommandContext } from '../types.js';

/** The query-engine parameters mongod quotes in every explain (their defaults). */
export const SERVER_PARAMETERS: Readonly<Document> = Object.freeze({
  internalQueryFacetBufferSizeBytes: 104857600,
  internalQueryFacetMaxOutputDocSizeBytes: 104857600,
  internalLookupStageIntermediateDocumentMaxSizeBytes: 104857600,
  internalDocumentSourceGroupMaxMemoryBytes: 104857600,
  internalQueryMaxBlockingSortMemoryUsageBytes: 104857600,
  internalQueryProhibitBlockingMergeOnMongoS: 0,
  internalQueryMaxAddToSetBytes: 104857600,
  internalDocumentSourceSetWindowFieldsMaxMemoryBytes: 104857600,
  internalQueryFrameworkControl: 'trySbeRestricted',
  internalQueryPlannerIgnoreIndexWithCollationForRegex: 1,
});

/** `serverInfo` as mongod reports it (the port the client reached). */
export function serverInfo(ctx: CommandContext): Document {
  const local = ctx.connection.localAddress;
  const port = Number(local.slice(local.lastIndexOf(':') + 1));
  return { host: hostname(), port: Number.isInteger(port) && port > 0 ? port : ctx.server.settings.port, version: MONGODB_VERSION, gitVersion: 'mayfly' };
}

/** The explained command as explain echoes it: `$db` added, session and cluster arguments left out. */
export function echo(cmd: Document, db: string): Document {
  const out: Document = {};
  for (const [k, v] of Object.entries(cmd)) if (k === '$db' || !GENERIC_ARGUMENTS.has(k) || k === 'comment' || k === 'maxTimeMS') out[k] = v;
  out.$db = db;
  return out;
}

/** The command's collation as the plan cache keys it (absent or empty: none). */
export function explicitCollation(value: unknown): Document | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0 ? (value as Document) : null;
}
