/**
 * The express paths of `find` and `update`, as mongod 8 runs point reads and writes without the
 * general machinery (express execution, `EXPRESS_IXSCAN`): a request in the shape the drivers
 * send for `findOne({<field>: <value>})` or `updateOne({<field>: <value>}, {<operators>})` on an
 * existing collection is answered without the argument table, the statement parser, the query
 * compiler and the planner (`CommandDefinition.express`, tried by dispatch first).
 *
 * A path applies when, and only when, the general path would take the same steps:
 * - the filter is one equality on a top-level ASCII field with a number (not NaN) or an ASCII
 *   string: a test the stored bytes answer (`storedFieldEquals`), as the general filter does;
 * - the planner would choose an express plan for it: `_id`, or the index `expressIndex` gives;
 * - the collection has no default collation;
 * - find: the command holds `find`, `filter`, `limit: 1`, `singleBatch: true`, and at most a
 *   positive `batchSize`, `lsid` and `$db`;
 * - update: the command holds `update`, one statement, and at most `ordered` (a boolean), `lsid`
 *   and `$db`; the statement holds `q`, `u` (an object), and at most `multi: false` and
 *   `upsert: false`; the collection has no active validator, no cap and no row model, and the
 *   update is one the general path applies to the changed fields only (`Collection.patch`).
 *
 * Anything else, and anything unusual on the way (an array value, an error of the update, a
 * document grown too large, a duplicate key), returns undefined before anything was written;
 * the general path then runs the command and gives mongod's answer. `Collection.patch` throws
 * only before it writes (its size check and its unique-key checks come first; capped
 * collections, whose bookkeeping follows the write, are left to the general path).
 */
import { storedFieldEquals } from '../../storage/record_format.js';
import type { Document } from '../../bson/library.js';
import { documentFields, replyDocument, type StoredDocument } from '../../storage/record.js';
import type { Collection } from '../../storage/collection.js';
import { expressRecords } from '../../storage/planner/execute.js';
import { hasQuerySettings } from '../query_settings/_internal.js';
import { expressIndex, expressNode } from '../../storage/planner/plan.js';
import { compileUpdate } from '../../storage/update/compile_update.js';
import type { UpdateResult } from '../../storage/update/update_context.js';
import { NO_VARIABLES } from '../../storage/expression/let.js';
import { hasActiveValidator } from '../../storage/validation/validator.js';
import { isDocument } from '../../storage/values/paths.js';
import { cursorReply } from '../cursor_reply.js';
import type { CommandContext } from '../types.js';

/** The express answer to a `find` command, or undefined for the general path to run it. */
export function expressFind(ctx: CommandContext, cmd: Document): Document | undefined {
  for (const key in cmd) {
    if (key === 'find' || key === 'filter' || key === 'limit' || key === 'singleBatch' || key === '$db' || key === 'lsid') continue;
    if (key === 'batchSize' && typeof cmd.batchSize === 'number' && Number.isInteger(cmd.batchSize) && cmd.batchSize >= 1) continue;
    return undefined;
  }
  const name = cmd.find;
  if (typeof name !== 'string' || cmd.limit !== 1 || cmd.singleBatch !== true) return undefined;
  if (hasQuerySettings(ctx.server)) return undefined; // the settings may reject it: run() checks
  const equality = expressEquality(cmd.filter);
  if (equality === undefined) return undefined;
  const coll = ctx.server.catalog.get(ctx.db, name);
  if (coll === undefined || coll.defaultCollator !== null) return undefined;
  const nowMs = ctx.now();
  const found = expressMatch(coll, equality.field, equality.value, () => nowMs);
  if (found === undefined) return undefined;
  ctx.server.counters.opcounters.query++;
  return cursorReply(`${ctx.db}.${name}`, found === null ? [] : [replyDocument(found)]);
}

/** The express answer to an `update` command, or undefined for the general path to run it. */
export function expressUpdate(ctx: CommandContext, cmd: Document): Document | undefined {
  for (const key in cmd) {
    if (key === 'update' || key === 'updates' || key === '$db' || key === 'lsid') continue;
    if (key === 'ordered' && typeof cmd.ordered === 'boolean') continue;
    return undefined;
  }
  const name = cmd.update;
  const updates = cmd.updates;
  if (typeof name !== 'string' || !Array.isArray(updates) || updates.length !== 1) return undefined;
  const statement: unknown = updates[0];
  if (!isDocument(statement)) return undefined;
  let q: unknown;
  let u: unknown;
  for (const key in statement) {
    if (key === 'q') q = statement.q;
    else if (key === 'u') u = statement.u;
    else if ((key !== 'multi' && key !== 'upsert') || statement[key] !== false) return undefined;
  }
  const equality = expressEquality(q);
  if (equality === undefined || !isDocument(u)) return undefined;
  const { field, value } = equality;

  const coll = ctx.server.catalog.get(ctx.db, name);
  if (coll === undefined || coll.defaultCollator !== null || coll.capped !== null || coll.kind !== null || coll.rowModel !== null || hasActiveValidator(coll)) return undefined;
  let update;
  try {
    update = compileUpdate(u, { variables: NO_VARIABLES, multi: false, collator: null });
  } catch {
    return undefined;
  }
  const changed = update.changedFields;
  if (changed === null || update.positional) return undefined;
  const patchRead = coll.patchFields(changed);
  if (patchRead === null) return undefined;

  const nowMs = ctx.now();
  const found = expressMatch(coll, field, value, () => nowMs);
  if (found === undefined) return undefined;
  if (found === null) {
    ctx.server.counters.opcounters.update++;
    return { n: 0, nModified: 0 };
  }
  const before = documentFields(found, patchRead);
  let result: UpdateResult;
  try {
    result = update.apply(before, { now: new Date(nowMs), isUpsertInsert: false });
  } catch {
    return undefined;
  }
  if (result.modified) {
    try {
      coll.patch(found, changed, before, result.doc, nowMs);
    } catch {
      return undefined;
    }
  }
  ctx.server.counters.opcounters.update++;
  return { n: 1, nModified: result.modified ? 1 : 0 };
}

/**
 * The record the general path's express plan would update for `{field: value}`: null when none
 * matches, undefined when no express plan applies or the stored bytes cannot tell a match.
 */
function expressMatch(coll: Collection, field: string, value: string | number, now: () => number): StoredDocument | null | undefined {
  const index = field === '_id' ? coll.idIndex : expressIndex(coll, { path: field, value, collatable: typeof value === 'string', binaryOnly: false }, 1, null);
  if (index === null) return undefined;
  let undecided = false;
  const matches = (rec: StoredDocument): boolean => {
    const answer = rec.bson === undefined ? undefined : storedFieldEquals(rec.bson, field, value);
    if (answer === undefined) undecided = true;
    return answer === true;
  };
  const records = expressRecords(expressNode(index, value, !index.isId), coll, matches, now);
  if (undecided) return undefined;
  return records.length > 0 ? records[0]! : null;
}

/** The field and value of a filter that is one equality an express path answers, or undefined. */
function expressEquality(filter: unknown): { field: string; value: string | number } | undefined {
  if (!isDocument(filter)) return undefined;
  const field = onlyKey(filter);
  if (field === undefined || !isPlainAscii(field) || field.charCodeAt(0) === 0x24 /* $ */ || field.includes('.')) return undefined;
  const value = filter[field];
  if (typeof value === 'number' && !Number.isNaN(value)) return { field, value };
  if (typeof value === 'string' && isPlainAscii(value)) return { field, value };
  return undefined;
}

/** The one key of `doc`, or undefined when it has none or several. */
function onlyKey(doc: Document): string | undefined {
  let only: string | undefined;
  for (const key in doc) {
    if (only !== undefined) return undefined;
    only = key;
  }
  return only;
}

/** True when `s` is ASCII without NUL (what the stored-bytes comparison reads). */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0 || c > 127) return false;
  }
  return true;
}
