/**
 * `$out`'s write (document_source_out.cpp): the documents are inserted into a temporary
 * collection `tmp.agg_out.<uuid>` of the target database, created with the target's options and
 * indexes, which then replaces the target in one rename (`dropTarget`). A failure on the way (a
 * duplicate key, a validation error) drops the temporary collection and leaves the target as it
 * was. The observers see the temporary collection's creation, its indexes and inserts, and one
 * rename onto the target.
 */
import { UUID, type Document } from '../../bson/library.js';
import type { Catalog } from '../catalog.js';
import { CommandError } from '../../errors/command_error.js';
import { defaultIndexSpecs } from '../timeseries/kind.js';
import { timeseriesOf } from '../timeseries/options.js';
import { valuesEqual } from '../values/compare.js';
import type { WriteEnv } from './_internal.js';
import { insertDocument } from './insert.js';

/**
 * Replaces the documents of `db.name` (created when absent) by `docs`, all or nothing;
 * `timeseries` (the time-series options of `$out`) creates it as a time-series collection, or
 * must be those of the existing one (7406103), which must be one (7268700).
 */
export function executeOut(env: WriteEnv, catalog: Catalog, db: string, name: string, docs: readonly Document[], nowMs: number, timeseries?: Document): void {
  const existing = catalog.get(db, name);
  const current = existing ? timeseriesOf(existing.options) : undefined;
  if (timeseries && !current && (existing || catalog.view(db, name))) {
    throw new CommandError(7268700, `Cannot use the timeseries option of $out: ${db}.${name} exists and is not a time-series collection`);
  }
  if (!existing) catalog.assertNotView(db, name); // 166: a view takes no writes
  if (timeseries && current && !valuesEqual(current, timeseries)) {
    throw new CommandError(7406103, `Time-series options of $out do not match those of the existing time-series collection ${db}.${name}`);
  }
  const tempName = `tmp.agg_out.${new UUID().toHexString(true)}`;
  const temp = catalog.create(db, tempName, existing ? { ...existing.options } : timeseries ? { timeseries } : {});
  try {
    const specs = existing?.indexSpecs().slice(1) ?? defaultIndexSpecs(temp.options);
    for (const spec of specs) temp.addIndex(spec, nowMs);
    catalog.indexesCreated(temp, specs);
    temp.writes.run(() => {
      for (const doc of docs) insertDocument(env, temp, doc, nowMs);
    });
  } catch (err) {
    catalog.drop(db, tempName);
    throw err;
  }
  catalog.rename(temp, db, name, { dropTarget: true });
}
