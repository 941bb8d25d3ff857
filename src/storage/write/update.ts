/**
 * The update executor (WRITE_PATH.md): the `update` command's statements, bulkWrite's update
 * ops and `$merge`'s matched documents are applied here, one statement per write unit. The
 * command has parsed the statement (`ParsedUpdate`); this runs it: every matching record
 * updated (an update of named top-level fields that no validator needs to see whole is stored
 * as a patch of those fields), or, when nothing matched and the statement upserts, the upsert
 * document inserted (the collection created when needed). Errors raised while updating carry
 * mongod's "Plan executor error during update :: caused by ::".
 */
import type { Document } from '../../bson/library.js';
import type { Catalog } from '../catalog.js';
import type { Collection } from '../collection.js';
import { documentFields } from '../record.js';
import type { CompiledUpdate, UpdateResult } from '../update/update_context.js';
import { hasActiveValidator } from '../validation/validator.js';
import { executorError, selectRecords, type WriteEnv, type WriteSelection } from './_internal.js';
import { insertDocumentChecked } from './insert.js';

/** A parsed update statement, as the executor runs it. */
export interface ParsedUpdate {
  readonly selection: WriteSelection;
  readonly update: CompiledUpdate;
  /** The positional `$` matcher of the statement's query (null without `$`). */
  readonly matchKey: ((doc: Document) => string | undefined) | null;
  /** The statement upserts. */
  readonly upsert: boolean;
  /** The document an upsert inserts, built when needed. */
  readonly upsertDocument: (now: Date) => Document;
}

/** The outcome of one update statement (a plain value: retryable writes keep it). */
export interface UpdateOutcome {
  matched: number;
  modified: number;
  upsertedId?: unknown;
}

/** Where a statement writes: `db.name`, which may not exist yet (an upsert creates it). */
export interface UpdateTarget {
  readonly catalog: Catalog;
  readonly db: string;
  readonly name: string;
}

/**
 * Runs `parsed` on `target` in one write unit. `nowMs` is the command's time: `$$NOW` and
 * `$currentDate` are the same for every statement of one command. The plan (and a hinted index:
 * 2 BadValue when there is none) is chosen before anything is written.
 */
export function executeUpdate(env: WriteEnv, target: UpdateTarget, parsed: ParsedUpdate, nowMs: number): UpdateOutcome {
  const { catalog } = target;
  let coll: Collection | undefined = catalog.get(target.db, target.name);
  coll?.kind?.checkUpdate(parsed.update, parsed.selection.limit === 0, parsed.upsert); // time-series rules (timeseries/kind.ts)
  const matches = coll ? selectRecords(coll, parsed.selection, env.now) : undefined;
  const outcome: UpdateOutcome = { matched: 0, modified: 0 };
  const now = new Date(nowMs);
  catalog.writes.run(() => {
    try {
      if (coll && matches) {
        const records = [...matches];
        // An update of named top-level fields that no validator needs to see whole reads and
        // stores only those fields (and those of the indexes they affect): the others are copied.
        const changed = parsed.update.changedFields;
        const patchRead = changed !== null && parsed.matchKey === null && (env.bypassValidation || !hasActiveValidator(coll)) ? coll.patchFields(changed) : null;
        const kind = parsed.update.kind === 'replacement' ? 'replace' : 'update';
        for (const rec of records) {
          outcome.matched++;
          if (patchRead !== null) {
            const before = documentFields(rec, patchRead);
            let result: UpdateResult | null = null;
            try {
              result = parsed.update.apply(before, { now, isUpsertInsert: false });
            } catch {
              // Run again on the whole document below: mongod's message names the document's `_id`.
            }
            if (result !== null) {
              if (result.modified) {
                coll.patch(rec, changed!, before, result.doc, nowMs);
                outcome.modified++;
              }
              continue;
            }
          }
          const doc = rec.doc;
          const matchedField = parsed.matchKey ? parsed.matchKey(doc) : undefined;
          const result = parsed.update.apply(doc, { now, isUpsertInsert: false, matchedField });
          if (result.modified) {
            if (!env.bypassValidation) env.validate(coll, result.doc, doc);
            coll.update(rec, result.doc, nowMs, parsed.update.changedFields, doc, kind);
            outcome.modified++;
          }
        }
      }
      if (outcome.matched === 0 && parsed.upsert) {
        const doc = parsed.upsertDocument(now);
        coll ??= catalog.getOrCreate(target.db, target.name).coll;
        insertDocumentChecked(env, coll, doc, nowMs);
        outcome.upsertedId = doc._id;
      }
    } catch (err) {
      executorError(err, 'update');
    }
  });
  return outcome;
}
