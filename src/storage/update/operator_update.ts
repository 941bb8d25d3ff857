/**
 * Operator-style updates (`{$set: {...}, $inc: {...}}`), after mongod's update tree
 * (mongo/src/mongo/db/update/update_driver.cpp, update_object_node.cpp, modifier_node.cpp):
 *   - parsing merges every path of every operator into one tree, so two operators on the same
 *     path, or on a path and its prefix, are 40 ConflictingUpdateOperators;
 *   - the tree has object nodes (children by field name, plus the positional `$` child),
 *     array nodes (children by array filter identifier, `$[]` being the empty identifier,
 *     update_array_node.cpp) and leaves (one operator on one path);
 *   - applying walks the tree with the document: siblings ordered bytewise (numeric names
 *     numerically), which is the order operators apply in and the order new fields are
 *     appended in; `$` becomes the array index the query matched (the "matched field"),
 *     merged with a sibling of that name; an array node applies its children to every element
 *     its filters match (all matched before any is updated), merging the children that match
 *     the same element (40 "Update created a conflict at ..." when they collide);
 *   - a leaf updates the element reached or creates the missing part of its path;
 *   - `_id` is immutable (66) and top-level `$`-prefixed field names are refused (52).
 * The operators that compare values do so under the update's collation (`collator`).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf } from '../values/bson_type.js';
import { cloneValue } from '../values/clone.js';
import { compareValues } from '../values/compare.js';
import type { Collator } from '../values/collator.js';
import { isDocument } from '../values/paths.js';
import { formatValue, formatElement } from '../values/format.js';
import { NO_ARRAY_FILTERS, type ArrayFilters } from './array_filters.js';
import { idText } from './modifiers/_internal/id_text.js';
import { NOOP, REMOVE, type Modifier, type ModifierContext, type RenameDefinition } from './modifiers/types.js';
import { requireUpdateOperator } from './registry.js';
import type { UpdateContext } from './update_context.js';
import {
  checkViability,
  comparePathParts,
  createPath,
  isArrayFilterIdentifier,
  isNumericPart,
  navigate,
  parseUpdatePath,
  type Navigation,
  type Slot,
} from './update_paths.js';

type Leaf =
  | { readonly kind: 'modifier'; readonly modifier: Modifier }
  | { readonly kind: 'rename'; readonly to: readonly string[]; readonly from: readonly string[]; readonly fromText: string }
  | { readonly kind: 'placeholder' };

/** A node of the update tree (UpdateObjectNode, UpdateArrayNode, leaf nodes). */
type UpdateNode = ObjectNode | ArrayNode | LeafNode;

interface ObjectNode {
  readonly kind: 'object';
  readonly children: Map<string, UpdateNode>;
  /** The child reached through the positional `$`. */
  positional?: UpdateNode;
}

interface ArrayNode {
  readonly kind: 'array';
  /** Children by array filter identifier (`''` for `$[]`). */
  readonly children: Map<string, UpdateNode>;
}

interface LeafNode {
  readonly kind: 'leaf';
  readonly leaf: Leaf;
}

/** A parsed operator update. */
export interface ParsedOperatorUpdate {
  readonly root: ObjectNode;
  /** Whether some path uses the positional `$` (the query's match details are needed). */
  readonly positional: boolean;
  readonly arrayFilters: ArrayFilters;
}

function newObjectNode(): ObjectNode {
  return { kind: 'object', children: new Map() };
}

function getChild(node: ObjectNode | ArrayNode, name: string): UpdateNode | undefined {
  if (node.kind === 'object' && name === '$') return node.positional;
  return node.children.get(name);
}

function setChild(node: ObjectNode | ArrayNode, name: string, child: UpdateNode): void {
  if (node.kind === 'object' && name === '$') node.positional = child;
  else node.children.set(name, child);
}

function conflict(path: readonly string[], at: readonly string[]): CommandError {
  return new CommandError(
    'ConflictingUpdateOperators',
    `Updating the path '${path.join('.')}' would create a conflict at '${at.join('.')}'`,
  );
}

interface ParseState {
  readonly arrayFilters: ArrayFilters;
  readonly foundIdentifiers: Set<string>;
}

/** `parseArrayFilterIdentifier`: the identifier of a `$[...]` component (`''` for `$[]`). */
function arrayFilterIdentifier(part: string, position: number, parts: readonly string[], ps: ParseState): string {
  if (position === 0) {
    throw new CommandError(
      'BadValue',
      `Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '${parts.join('.')}'`,
    );
  }
  const identifier = part.slice(2, -1);
  if (identifier.length > 0 && !ps.arrayFilters.has(identifier)) {
    throw new CommandError('BadValue', `No array filter found for identifier '${identifier}' in path '${parts.join('.')}'`);
  }
  if (identifier.length > 0) ps.foundIdentifiers.add(identifier);
  return identifier;
}

/** `UpdateObjectNode::parseAndMerge`: adds a leaf at `parts`, creating internal nodes. */
function insertLeaf(root: ObjectNode, parts: readonly string[], leaf: Leaf, ps: ParseState): void {
  let current: ObjectNode | ArrayNode = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const name = isArrayFilterIdentifier(part) ? arrayFilterIdentifier(part, i, parts, ps) : part;
    const shouldBeArray = isArrayFilterIdentifier(parts[i + 1]!);
    let child = getChild(current, name);
    if (child !== undefined) {
      if ((shouldBeArray && child.kind !== 'array') || (!shouldBeArray && child.kind !== 'object')) {
        throw conflict(parts, parts.slice(0, i + 1));
      }
    } else {
      child = shouldBeArray ? { kind: 'array', children: new Map() } : newObjectNode();
      setChild(current, name, child);
    }
    current = child as ObjectNode | ArrayNode;
  }
  const lastIndex = parts.length - 1;
  const last = parts[lastIndex]!;
  const name = isArrayFilterIdentifier(last) ? arrayFilterIdentifier(last, lastIndex, parts, ps) : last;
  if (getChild(current, name) !== undefined) throw conflict(parts, parts);
  setChild(current, name, { kind: 'leaf', leaf });
}

function parseRename(root: ObjectNode, from: string, to: unknown, definition: RenameDefinition, ps: ParseState): void {
  const paths = definition.parse(from, to, (fromParts) => insertLeaf(root, fromParts, { kind: 'placeholder' }, ps));
  insertLeaf(root, paths.to, { kind: 'rename', to: paths.to, from: paths.from, fromText: from }, ps);
}

/**
 * Parses an operator update document into its tree (all validation here): unknown operators,
 * paths, operator arguments, conflicts, array filter identifiers, and unused array filters.
 * `collator` is the update's collation (null: simple).
 */
export function parseOperatorUpdate(
  update: Document,
  arrayFilters: ArrayFilters = NO_ARRAY_FILTERS,
  collator: Collator | null = null,
): ParsedOperatorUpdate {
  const root = newObjectNode();
  const ps: ParseState = { arrayFilters, foundIdentifiers: new Set() };
  let positional = false;
  for (const op of Object.keys(update)) {
    const definition = requireUpdateOperator(op);
    const fields = update[op];
    if (!isDocument(fields)) {
      throw new CommandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${bsonTypeOf(fields)} instead. For example: {$mod: {<field>: ...}} not {${formatElement(op, fields)}}`,
      );
    }
    for (const field of Object.keys(fields)) {
      if (definition.kind === 'rename') {
        parseRename(root, field, fields[field], definition, ps);
        continue;
      }
      const parts = parseUpdatePath(field);
      positional ||= parts.includes('$');
      const modifier = definition.parse(field, fields[field], collator);
      insertLeaf(root, parts, { kind: 'modifier', modifier }, ps);
    }
  }
  for (const identifier of [...arrayFilters.keys()].sort()) {
    if (!ps.foundIdentifiers.has(identifier)) {
      throw new CommandError(
        'FailedToParse',
        `The array filter for identifier '${identifier}' was not used in the update ${formatValue(update)}`,
      );
    }
  }
  return { root, positional, arrayFilters };
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
    `Updating the path '${nav.pathTaken.join('.')}' to ${formatElement(name, nav.element)} would modify the immutable field '_id'`,
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

/** Where a node applies: the element reached (or its deepest existing ancestor) and the paths. */
interface Cursor {
  element: unknown;
  slot: Slot | null;
  pathTaken: string[];
  pathToCreate: string[];
}

interface ApplyState {
  readonly doc: Document;
  readonly ctx: UpdateContext;
  readonly arrayFilters: ArrayFilters;
}

function childElement(element: unknown, field: string): { value: unknown; slot: Slot } | null {
  if (isDocument(element)) {
    if (!Object.prototype.hasOwnProperty.call(element, field)) return null;
    return { value: element[field], slot: { container: element, key: field } };
  }
  if (Array.isArray(element) && isNumericPart(field)) {
    const idx = Number(field);
    if (idx >= element.length) return null;
    return { value: element[idx], slot: { container: element, key: idx } };
  }
  return null;
}

/** After a child ran: when it created the missing part of the path, step onto it. */
function advance(cur: Cursor): void {
  if (cur.pathToCreate.length === 0) return;
  let element = cur.element;
  let slot = cur.slot;
  for (const part of cur.pathToCreate) {
    const next = childElement(element, part);
    if (next === null) return;
    element = next.value;
    slot = next.slot;
  }
  cur.element = element;
  cur.slot = slot;
  cur.pathTaken = [...cur.pathTaken, ...cur.pathToCreate];
  cur.pathToCreate = [];
}

function applyChild(child: UpdateNode, field: string, cur: Cursor, st: ApplyState): boolean {
  let next: Cursor;
  if (cur.pathToCreate.length > 0) {
    next = { element: cur.element, slot: cur.slot, pathTaken: cur.pathTaken, pathToCreate: [...cur.pathToCreate, field] };
  } else {
    const found = childElement(cur.element, field);
    next = found
      ? { element: found.value, slot: found.slot, pathTaken: [...cur.pathTaken, field], pathToCreate: [] }
      : { element: cur.element, slot: cur.slot, pathTaken: cur.pathTaken, pathToCreate: [field] };
  }
  const changed = applyNode(child, next, st);
  advance(cur);
  return changed;
}

function mergeMaps(
  left: ReadonlyMap<string, UpdateNode>,
  right: ReadonlyMap<string, UpdateNode>,
  pathTaken: readonly string[],
  wrapIdentifiers: boolean,
): Map<string, UpdateNode> {
  const out = new Map(left);
  for (const [name, node] of right) {
    const existing = out.get(name);
    out.set(name, existing === undefined ? node : mergeNodes(existing, node, [...pathTaken, wrapIdentifiers ? `$[${name}]` : name]));
  }
  return out;
}

/** `UpdateNode::createUpdateNodeByMerging`: two updates of one element (40 on a conflict). */
function mergeNodes(left: UpdateNode, right: UpdateNode, pathTaken: readonly string[]): UpdateNode {
  if (left.kind === 'object' && right.kind === 'object') {
    const merged: ObjectNode = { kind: 'object', children: mergeMaps(left.children, right.children, pathTaken, false) };
    if (left.positional && right.positional) merged.positional = mergeNodes(left.positional, right.positional, [...pathTaken, '$']);
    else if (left.positional ?? right.positional) merged.positional = left.positional ?? right.positional;
    return merged;
  }
  if (left.kind === 'array' && right.kind === 'array') {
    return { kind: 'array', children: mergeMaps(left.children, right.children, pathTaken, true) };
  }
  throw new CommandError('ConflictingUpdateOperators', `Update created a conflict at '${pathTaken.join('.')}'`);
}

function applyObject(node: ObjectNode, input: Cursor, st: ApplyState): boolean {
  const cur: Cursor = { ...input };
  let applyPositional = node.positional !== undefined;
  const matched = st.ctx.matchedField ?? '';
  if (applyPositional && matched === '') {
    throw new CommandError('BadValue', 'The positional operator did not find the match needed from the query.');
  }
  let modified = false;
  const names = [...node.children.keys()].sort(comparePathParts);
  for (const name of names) {
    const child = node.children.get(name)!;
    if (applyPositional && name === matched) {
      const merged = mergeNodes(node.positional!, child, [...cur.pathTaken, ...cur.pathToCreate, matched]);
      if (applyChild(merged, name, cur, st)) modified = true;
      applyPositional = false;
      continue;
    }
    if (applyPositional && matched < name) {
      if (applyChild(node.positional!, matched, cur, st)) modified = true;
      applyPositional = false;
    }
    if (applyChild(child, name, cur, st)) modified = true;
  }
  if (applyPositional && applyChild(node.positional!, matched, cur, st)) modified = true;
  return modified;
}

function applyArray(node: ArrayNode, cur: Cursor, st: ApplyState): boolean {
  if (cur.pathToCreate.length > 0) {
    throw new CommandError(
      'BadValue',
      `The path '${[...cur.pathTaken, ...cur.pathToCreate].join('.')}' must exist in the document in order to apply array updates.`,
    );
  }
  const element = cur.element;
  if (!Array.isArray(element)) {
    const name = cur.pathTaken.length === 0 ? '' : cur.pathTaken[cur.pathTaken.length - 1]!;
    throw new CommandError('BadValue', `Cannot apply array updates to non-array element ${formatElement(name, element)}`);
  }
  const identifiers = [...node.children.keys()].sort();
  // Every element is matched against the filters before any is updated.
  const matches: UpdateNode[][] = element.map((value) =>
    identifiers.filter((id) => id === '' || st.arrayFilters.get(id)!(value)).map((id) => node.children.get(id)!),
  );
  let modified = false;
  const cache = new Map<string, UpdateNode>();
  for (let i = 0; i < matches.length; i++) {
    const updates = matches[i]!;
    if (updates.length === 0) continue;
    const pathTaken = [...cur.pathTaken, String(i)];
    let merged = updates[0]!;
    if (updates.length > 1) {
      const key = updates.map((u) => identifiers.find((id) => node.children.get(id) === u)).join('\u0000');
      merged = cache.get(key) ?? updates.slice(1).reduce((acc, u) => mergeNodes(acc, u, pathTaken), merged);
      cache.set(key, merged);
    }
    const next: Cursor = { element: element[i], slot: { container: element, key: i }, pathTaken, pathToCreate: [] };
    if (applyNode(merged, next, st)) modified = true;
  }
  return modified;
}

function applyModifier(cur: Cursor, modifier: Modifier, st: ApplyState): boolean {
  const ctx = st.ctx;
  if (modifier.insertOnly && !ctx.isUpsertInsert) return false;
  const nav: Navigation = {
    element: cur.element,
    slot: cur.slot,
    slots: [],
    pathTaken: cur.pathTaken,
    pathToCreate: cur.pathToCreate,
  };
  const mc: ModifierContext = { doc: st.doc, update: ctx, pathTaken: nav.pathTaken };
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
  // An upsert's new document may hold top-level `$` fields (mongod validates it whole, allowing them).
  if (nav.pathTaken.length === 0 && !ctx.isUpsertInsert) assertStorableTopLevel(nav.pathToCreate[0]!);
  createPath(nav, modifier.createValue(mc));
  assertCreatedNotImmutable(nav);
  return true;
}

function applyNode(node: UpdateNode, cur: Cursor, st: ApplyState): boolean {
  switch (node.kind) {
    case 'object':
      return applyObject(node, cur, st);
    case 'array':
      return applyArray(node, cur, st);
    case 'leaf': {
      const leaf = node.leaf;
      if (leaf.kind === 'modifier') return applyModifier(cur, leaf.modifier, st);
      if (leaf.kind === 'rename') return applyRename(st.doc, leaf.to, leaf.from, leaf.fromText);
      return false;
    }
  }
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
        `cannot use the part (${parts[i - 1]} of ${text}) to traverse the element ({${formatElement(parts[i - 1]!, element)}})`,
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

/** Applies a parsed update to a private copy of the document; returns whether anything changed. */
export function applyOperatorUpdate(work: Document, parsed: ParsedOperatorUpdate, ctx: UpdateContext): boolean {
  const st: ApplyState = { doc: work, ctx, arrayFilters: parsed.arrayFilters };
  return applyObject(parsed.root, { element: work, slot: null, pathTaken: [], pathToCreate: [] }, st);
}
