/**
 * The short form of the commonest operator updates: `$set`, `$unset`, `$inc`, `$mul`, `$min`
 * and `$max` of top-level fields only (`{$inc: {n: 1}, $set: {status: 'done'}}`: no dots, no
 * positional `$`, no array filters, no field named twice, no `_id`). It runs the same modifiers
 * (`modifiers/`) in the same order (`comparePathParts`, which is also the order created fields
 * are appended in) on the same private copy as the update tree of `operator_update.ts`, so its
 * results and errors are the tree's; it only leaves out the tree and its path navigation, which
 * a top-level field does not need. Anything else is left to the tree (`compileTopLevelUpdate`
 * returns null).
 */
import type { Document } from '../../bson/library.js';
import type { Collator } from '../values/collator.js';
import { cloneValue } from '../values/clone.js';
import { isDocument } from '../values/paths.js';
import type { CompiledUpdate, UpdateResult, UpdateContext } from './update_context.js';
import { NOOP, REMOVE, type Modifier, type ModifierContext } from './modifiers/types.js';
import { updateOperatorNamed } from './registry.js';
import { comparePathParts } from './update_paths.js';

/** True for the operators the short form takes: each updates one existing value or creates it. */
function isTopLevelOperator(op: string): boolean {
  switch (op) {
    case '$set':
    case '$unset':
    case '$inc':
    case '$mul':
    case '$min':
    case '$max':
      return true;
    default:
      return false;
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

/** A field name the tree would take as one top-level component (not `_id`, not `$`-prefixed). */
function isPlainTopLevelName(name: string): boolean {
  if (name.length === 0 || name === '_id' || name.charCodeAt(0) === 36 /* $ */) return false;
  return !name.includes('.');
}

/** One field of the update and its parsed modifier. */
interface FieldUpdate {
  readonly name: string;
  readonly modifier: Modifier;
}

/**
 * The short form of `update` (an operator document), or null when it needs the update tree.
 * Modifier argument errors are thrown as the tree would throw them (same parsers, same order).
 */
export function compileTopLevelUpdate(update: Document, collator: Collator | null): CompiledUpdate | null {
  // Arrays, not Sets: an update names a few fields, and this runs on every update request.
  const names: string[] = [];
  for (const op in update) {
    const fields = update[op];
    if (!isTopLevelOperator(op) || !isDocument(fields)) return null;
    for (const name in fields) {
      if (!isPlainTopLevelName(name) || names.includes(name)) return null;
      names.push(name);
    }
  }
  if (names.length === 0) return null;
  const parsed: FieldUpdate[] = [];
  for (const op in update) {
    const definition = updateOperatorNamed(op);
    if (definition?.kind !== 'modifier') return null;
    const fields = update[op] as Document;
    for (const name in fields) parsed.push({ name, modifier: definition.parse(name, fields[name], collator) });
  }
  parsed.sort((a, b) => comparePathParts(a.name, b.name));
  return { kind: 'operators', positional: false, changedFields: names, apply: (doc, ctx) => applyTopLevel(doc, parsed, ctx) };
}

/** Applies the field updates in order to a copy made at the first change (the input is kept). */
function applyTopLevel(doc: Document, fields: readonly FieldUpdate[], ctx: UpdateContext): UpdateResult {
  let work: Document | null = null;
  for (const { name, modifier } of fields) {
    const current = work ?? doc;
    const mc: ModifierContext = { doc: current, update: ctx, pathTaken: [name] };
    if (hasOwn.call(current, name)) {
      const r = modifier.updateExisting(current[name], mc);
      if (r === NOOP) continue;
      work ??= cloneValue(doc);
      if (r === REMOVE) delete work[name];
      else work[name] = r;
    } else if (modifier.allowCreation) {
      // A created top-level field is appended: in name order, as the tree creates them.
      const value = modifier.createValue({ doc: current, update: ctx, pathTaken: [] });
      work ??= cloneValue(doc);
      work[name] = value;
    }
  }
  // `_id` is never among the fields, so the copy keeps the stored (storable) `_id`.
  return work === null ? { doc, modified: false } : { doc: work, modified: true };
}
