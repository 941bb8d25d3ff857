/**
 * Operator-style updates (`{$set: {...}, $inc: {...}}`), after mongod's update tree
 * (mongo/src/mongo/db/update/update_driver.cpp, update_object_node.cpp, modifier_node.cpp):
 *   - parsing merges every path of every operator into one tree, so two operators on the same
 *     path, or on a path and its prefix, are 40 ConflictingUpdateOperators;
 *   - applying visits the tree's leaves with siblings ordered bytewise (numeric names
 *     numerically): that is the order operators apply in and the order in which new fields
 *     are appended, whatever order the operators were written in;
 *   - each leaf navigates from the document's root to its path (longest existing prefix),
 *     updates the existing element or creates the missing part;
 *   - `_id` is immutable (66) and top-level `$`-prefixed field names are refused (52).
 */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { cloneValue } from '../values/clone.js';
import { compareValues } from '../values/compare.js';
import { isDocument } from '../values/paths.js';
import { elementToString } from '../aggregation/format.js';
import { parseInc, parseMul } from './modifiers/arithmetic.js';
import { parseAddToSet, parsePop, parsePull, parsePullAll } from './modifiers/array_culling.js';
import { parseMax, parseMin } from './modifiers/compare.js';
import { parseCurrentDate } from './modifiers/current_date.js';
import { idText } from './modifiers/id_text.js';
import { parsePush } from './modifiers/push.js';
import { parseSet, parseSetOnInsert, parseUnset } from './modifiers/set.js';
import { NOOP, REMOVE, type Modifier, type ModifierContext, type ModifierParser } from './modifiers/types.js';
import type { UpdateContext } from './update_context.js';
import {
  checkViability,
  comparePathParts,
  createPath,
  navigate,
  parseUpdatePath,
  type Navigation,
  type Slot,
} from './update_paths.js';

/** The update operators, by name (one table; the parsers live in `modifiers/`). */
const MODIFIERS: Readonly<Record<string, ModifierParser>> = {
  $addToSet: parseAddToSet,
  $currentDate: parseCurrentDate,
  $inc: parseInc,
  $max: parseMax,
  $min: parseMin,
  $mul: parseMul,
  $pop: parsePop,
  $pull: parsePull,
  $pullAll: parsePullAll,
  $push: parsePush,
  $set: parseSet,
  $setOnInsert: parseSetOnInsert,
  $unset: parseUnset,
};

type Leaf =
  | { readonly kind: 'modifier'; readonly modifier: Modifier }
  | { readonly kind: 'rename'; readonly from: readonly string[]; readonly fromText: string }
  | { readonly kind: 'placeholder' };

interface TreeNode {
  readonly children: Map<string, TreeNode | Leaf>;
}

function isTreeNode(n: TreeNode | Leaf): n is TreeNode {
  return (n as TreeNode).children !== undefined;
}

function conflict(path: readonly string[], at: readonly string[]): CommandError {
  return new CommandError(
    'ConflictingUpdateOperators',
    `Updating the path '${path.join('.')}' would create a conflict at '${at.join('.')}'`,
  );
}

function insertLeaf(root: TreeNode, parts: readonly string[], leaf: Leaf): void {
  let current = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const child = current.children.get(parts[i]!);
    if (child === undefined) {
      const created: TreeNode = { children: new Map() };
      current.children.set(parts[i]!, created);
      current = created;
    } else if (isTreeNode(child)) {
      current = child;
    } else {
      throw conflict(parts, parts.slice(0, i + 1));
    }
  }
  const last = parts[parts.length - 1]!;
  if (current.children.has(last)) throw conflict(parts, parts);
  current.children.set(last, leaf);
}

interface PlannedLeaf {
  readonly parts: readonly string[];
  readonly leaf: Leaf;
}

function collectLeaves(node: TreeNode, prefix: readonly string[], out: PlannedLeaf[]): void {
  const names = [...node.children.keys()].sort(comparePathParts);
  for (const name of names) {
    const child = node.children.get(name)!;
    const parts = [...prefix, name];
    if (isTreeNode(child)) collectLeaves(child, parts, out);
    else out.push({ parts, leaf: child });
  }
}

function checkDynamicRenamePath(path: readonly string[], which: 'source' | 'destination', text: string): void {
  if (path.some((p) => p === '$' || (p.startsWith('$[') && p.endsWith(']')))) {
    throw new CommandError('BadValue', `The ${which} field for $rename may not be dynamic: ${text}`);
  }
}

function rawParts(path: string): string[] {
  return path.split('.');
}

function parseRename(root: TreeNode, from: string, to: unknown): void {
  const fromParts = rawParts(from);
  checkDynamicRenamePath(fromParts, 'source', from);
  insertLeaf(root, parseUpdatePath(from), { kind: 'placeholder' });
  if (typeof to !== 'string') {
    throw new CommandError('BadValue', `The 'to' field for $rename must be a string: ${elementToString(from, to)}`);
  }
  checkDynamicRenamePath(rawParts(to), 'destination', to);
  const toParts = parseUpdatePath(to);
  if (to.includes('\0')) {
    throw new CommandError('BadValue', "The 'to' field for $rename cannot contain an embedded null byte");
  }
  if (from === to) {
    throw new CommandError('BadValue', `The source and target field for $rename must differ: ${elementToString(from, to)}`);
  }
  if (to.startsWith(`${from}.`) || from.startsWith(`${to}.`)) {
    throw new CommandError(
      'BadValue',
      `The source and target field for $rename must not be on the same path: ${elementToString(from, to)}`,
    );
  }
  insertLeaf(root, toParts, { kind: 'rename', from: fromParts, fromText: from });
}

/** Parses an operator update document into its ordered leaves (all validation here). */
export function parseOperatorUpdate(update: Document): PlannedLeaf[] {
  const root: TreeNode = { children: new Map() };
  for (const op of Object.keys(update)) {
    const isRename = op === '$rename';
    const parser = MODIFIERS[op];
    if (parser === undefined && !isRename) {
      if (op === '$bit') throw new CommandError('NotImplemented', 'The $bit update operator is not supported by Mayfly yet');
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    const fields = update[op];
    if (!isDocument(fields)) {
      throw new CommandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${bsonTypeOf(fields)} instead. For example: {$mod: {<field>: ...}} not {${elementToString(op, fields)}}`,
      );
    }
    for (const field of Object.keys(fields)) {
      if (isRename) {
        parseRename(root, field, fields[field]);
        continue;
      }
      const parts = parseUpdatePath(field);
      const modifier = parser!(field, fields[field]);
      insertLeaf(root, parts, { kind: 'modifier', modifier });
    }
  }
  const leaves: PlannedLeaf[] = [];
  collectLeaves(root, [], leaves);
  return leaves;
}

function assertNotImmutable(pathTaken: readonly string[], op: string): void {
  if (pathTaken[0] !== '_id') return;
  const what = op === '$pop' ? 'Performing a $pop on the path' : 'Performing an update on the path';
  throw new CommandError('ImmutableField', `${what} '${pathTaken.join('.')}' would modify the immutable field '_id'`);
}

function assertCreatedNotImmutable(nav: Navigation): void {
  if (nav.pathTaken[0] !== '_id') return;
  const name = nav.pathTaken[nav.pathTaken.length - 1]!;
  throw new CommandError(
    'ImmutableField',
    `Updating the path '${nav.pathTaken.join('.')}' to ${elementToString(name, nav.element)} would modify the immutable field '_id'`,
  );
}

function assertStorableTopLevel(name: string): void {
  if (name.charCodeAt(0) === 36) {
    throw new CommandError(
      'DollarPrefixedFieldName',
      `The dollar ($) prefixed field '${name}' in '${name}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
    );
  }
}

function writeSlot(slot: Slot, value: unknown): void {
  if (Array.isArray(slot.container)) slot.container[slot.key as number] = value;
  else (slot.container as Document)[slot.key as string] = value;
}

function removeSlot(slot: Slot): void {
  if (Array.isArray(slot.container)) slot.container[slot.key as number] = null;
  else delete (slot.container as Document)[slot.key as string];
}

function applyModifier(doc: Document, parts: readonly string[], modifier: Modifier, ctx: UpdateContext): boolean {
  if (modifier.insertOnly && !ctx.isUpsertInsert) return false;
  const nav = navigate(doc, parts);
  const mc: ModifierContext = { doc, update: ctx, pathTaken: nav.pathTaken };
  if (nav.pathToCreate.length === 0) {
    const r = modifier.updateExisting(nav.element, mc);
    if (r === NOOP) return false;
    assertNotImmutable(nav.pathTaken, modifier.op);
    if (r === REMOVE) removeSlot(nav.slot!);
    else writeSlot(nav.slot!, r);
    return true;
  }
  if (!modifier.allowCreation) {
    if (!modifier.allowNonViablePath) checkViability(nav);
    return false;
  }
  if (nav.pathTaken.length === 0) assertStorableTopLevel(nav.pathToCreate[0]!);
  createPath(nav, modifier.createValue(mc));
  assertCreatedNotImmutable(nav);
  return true;
}

/** mongod's `findLongestPrefix` for the source of a `$rename`; null when it does not exist. */
function findRenameSource(doc: Document, parts: readonly string[], text: string): Navigation | null {
  let element: unknown = doc;
  const slots: Slot[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (isDocument(element)) {
      if (!Object.prototype.hasOwnProperty.call(element, part)) return null;
      slots.push({ container: element, key: part });
      element = element[part];
    } else if (Array.isArray(element) && /^[0-9]+$/.test(part)) {
      const idx = Number(part);
      if (idx >= element.length) return null;
      slots.push({ container: element, key: idx });
      element = element[idx];
    } else {
      if (i === 0) return null;
      throw new CommandError(
        'PathNotViable',
        `cannot use the part (${parts[i - 1]} of ${text}) to traverse the element ({${elementToString(parts[i - 1]!, element)}})`,
      );
    }
  }
  return { element, slot: slots[slots.length - 1] ?? null, slots, pathTaken: parts, pathToCreate: [] };
}

function applyRename(doc: Document, toParts: readonly string[], from: readonly string[], fromText: string): boolean {
  const source = findRenameSource(doc, from, fromText);
  if (source === null) return false;
  for (let i = source.slots.length - 1; i >= 1; i--) {
    if (Array.isArray(source.slots[i]!.container)) {
      throw new CommandError(
        'BadValue',
        `The source field cannot be an array element, '${fromText}' in doc with ${idText(doc)} has an array field called '${from[i - 1]}'`,
      );
    }
  }
  const dest = navigate(doc, toParts);
  const toText = toParts.join('.');
  // The destination's existing ancestors (the overwritten element itself may be an array).
  const ancestorCount = dest.pathToCreate.length === 0 ? dest.slots.length - 1 : dest.slots.length;
  for (let i = ancestorCount - 1; i >= 0; i--) {
    const value = (dest.slots[i]!.container as Record<string | number, unknown>)[dest.slots[i]!.key];
    if (Array.isArray(value)) {
      throw new CommandError(
        'BadValue',
        `The destination field cannot be an array element, '${toText}' in doc with ${idText(doc)} has an array field called '${dest.pathTaken[i]}'`,
      );
    }
  }
  const value = source.element;
  if (dest.pathToCreate.length === 0) {
    if (compareValues(value, dest.element) !== 0) {
      assertNotImmutable(dest.pathTaken, '$rename');
      writeSlot(dest.slot!, cloneValue(value));
    }
  } else {
    if (dest.pathTaken.length === 0) assertStorableTopLevel(dest.pathToCreate[0]!);
    createPath(dest, cloneValue(value));
    assertCreatedNotImmutable(dest);
  }
  if (from[0] === '_id') {
    throw new CommandError(
      'ImmutableField',
      `Unsetting the path '${fromText}' using $rename would modify the immutable field '_id'`,
    );
  }
  const slot = source.slot!;
  delete (slot.container as Document)[slot.key as string];
  return true;
}

/** Applies parsed leaves to a private copy of `doc`; returns whether anything changed. */
export function applyOperatorUpdate(work: Document, leaves: readonly PlannedLeaf[], ctx: UpdateContext): boolean {
  let modified = false;
  for (const { parts, leaf } of leaves) {
    let changed = false;
    switch (leaf.kind) {
      case 'modifier':
        changed = applyModifier(work, parts, leaf.modifier, ctx);
        break;
      case 'rename':
        changed = applyRename(work, parts, leaf.from, leaf.fromText);
        break;
      case 'placeholder':
        break;
    }
    modified ||= changed;
  }
  return modified;
}

/** One operator application, in apply order. */
export type { PlannedLeaf };
