/**
 * collMod's conversions of an index to unique, as mongod 8.2 does them (catalog/coll_mod.cpp,
 * coll_mod_index.cpp): `prepareUnique: true` first makes the index refuse new duplicates
 * (`prepareUnique_old`/`_new` in the reply; it cannot be combined with any other modification,
 * 72), then `unique: true` converts it, once no two documents share a key (359
 * CannotConvertIndexToUnique, with the duplicates' `_id`s in the reply's `violations`; `unique_new`
 * in the reply). `unique: false` is 2, `unique: true` without `prepareUnique` 72 (a unique
 * index: no-op); `forceNonUnique: true` makes a unique index plain again (`forceNonUnique: false`
 * is 2), never together with `unique` (72). A dry run checks the duplicates and changes nothing.
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import type { Collection } from '../../../storage/collection.js';

/** The unique-related fields of a parsed `collMod.index` (and the others it counts). */
export interface UniqueRequest {
  readonly unique?: boolean;
  readonly prepareUnique?: boolean;
  readonly forceNonUnique?: boolean;
  readonly hidden?: boolean;
  readonly expireAfterSeconds?: unknown;
}

/** The checks made before the index is looked up. */
export function checkUniqueRequest(request: UniqueRequest): void {
  if (request.unique !== undefined && request.forceNonUnique !== undefined) {
    throw new CommandError('InvalidOptions', "collMod does not support 'unique' and 'forceNonUnique' options at the same time");
  }
}

/** The `_id`s of the documents that share a key of index `name`, one group per shared key. */
function duplicateGroups(coll: Collection, name: string, nowMs: number): unknown[][] {
  const index = coll.findIndex(name);
  if (!index) return [];
  const groups: unknown[][] = [];
  let { leaf, index: at } = index.tree.first();
  let prevKey: unknown;
  let group: unknown[] = [];
  let started = false;
  for (;;) {
    if (at >= leaf.keys.length) {
      if (!leaf.next) break;
      leaf = leaf.next;
      at = 0;
      continue;
    }
    const key = leaf.keys[at];
    const rec = leaf.vals[at]!;
    at++;
    if (!coll.isVisible(rec, nowMs)) continue;
    if (started && index.compareKeys(prevKey, key) === 0) {
      group.push(rec.doc._id);
      continue;
    }
    if (group.length > 1) groups.push(group);
    group = [rec.doc._id];
    prevKey = key;
    started = true;
  }
  if (group.length > 1) groups.push(group);
  return groups;
}

/** 359 when two documents share a key of index `name`. */
function checkNoDuplicates(coll: Collection, name: string, nowMs: number): void {
  const groups = duplicateGroups(coll, name, nowMs);
  if (groups.length === 0) return;
  throw new CommandError('CannotConvertIndexToUnique', 'Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.', {
    violations: groups.map((ids) => ({ ids })),
  });
}

/**
 * Checks the unique-related part of `request` against the index `target` of `coll` and returns
 * how it changes the index spec (filling the reply), or null when it changes nothing.
 */
export function planUniqueChange(coll: Collection, target: Document, request: UniqueRequest, nowMs: number): ((spec: Document, reply: Document) => Document) | null {
  const isUnique = target.unique === true;
  const isPrepared = target.prepareUnique === true;
  let modifications = 0;
  if (request.expireAfterSeconds !== undefined) modifications++;
  let makeUnique = false;
  if (request.unique !== undefined) {
    modifications++;
    if (!request.unique) throw new CommandError('BadValue', 'Cannot make index non-unique');
    if (!isUnique) {
      if (!isPrepared) throw new CommandError('InvalidOptions', "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first.");
      makeUnique = true;
    }
  }
  if (request.hidden !== undefined) modifications++;
  let prepare: boolean | undefined;
  if (request.prepareUnique !== undefined) {
    modifications++;
    if (request.prepareUnique !== isPrepared && !isUnique) prepare = request.prepareUnique;
  }
  let forceNonUnique = false;
  if (request.forceNonUnique !== undefined) {
    modifications++;
    if (!request.forceNonUnique) throw new CommandError('BadValue', "'forceNonUnique: false' is not supported");
    forceNonUnique = isUnique;
  }
  if (prepare !== undefined && modifications > 1) throw new CommandError('InvalidOptions', 'prepareUnique cannot be combined with any other modification.');
  if (makeUnique) checkNoDuplicates(coll, target.name as string, nowMs);
  if (!makeUnique && prepare === undefined && !forceNonUnique) return null;
  return (spec, reply) => {
    const out: Document = {};
    for (const [k, v] of Object.entries(spec)) {
      if (k === 'prepareUnique' && (prepare !== undefined || makeUnique)) continue;
      if (k === 'unique' && forceNonUnique) continue;
      out[k] = v;
    }
    if (prepare !== undefined) {
      reply.prepareUnique_old = isPrepared;
      reply.prepareUnique_new = prepare;
      if (prepare) out.prepareUnique = true;
    }
    if (makeUnique) {
      out.unique = true;
      reply.unique_new = true;
    }
    if (forceNonUnique) reply.forceNonUnique_new = true;
    return out;
  };
}

