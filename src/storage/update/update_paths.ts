/**
 * Path handling of update operators (mongo/src/mongo/db/update/path_support.cpp,
 * field_checker.cpp, update_object_node.cpp):
 *   - `parseUpdatePath` validates a path (56 EmptyFieldName) and the positional `$` (at most
 *     one, never first); `$[]`/`$[id]` components are checked by the update tree;
 *   - `navigate` finds the longest existing prefix of a path (documents by name, arrays by
 *     numeric index): the `pathTaken` and the `pathToCreate`;
 *   - `createPath` creates the rest (arrays padded with null), or throws 28 PathNotViable;
 *   - `comparePathParts` is the order operators apply in (field names bytewise, numeric
 *     names numerically), which is also the order new fields appear in.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { compareStrings } from '../values/compare.js';
import { isDocument } from '../values/paths.js';
import { formatElement } from '../values/format.js';

/** The most null elements an update may pad an array with (`kMaxPaddingAllowed`). */
const MAX_PADDING = 1_500_000;

const hasOwn = Object.prototype.hasOwnProperty;

/** True for an array filter component (`$[]` or `$[<identifier>]`). */
export function isArrayFilterIdentifier(part: string): boolean {
  return part.length >= 3 && part.startsWith('$[') && part.endsWith(']');
}

/** Validates an update path (fieldchecker::isUpdatable, positional rules) and returns its components. */
export function parseUpdatePath(path: string): string[] {
  if (path.length === 0) throw new CommandError('EmptyFieldName', 'An empty update path is not valid.');
  const parts = path.split('.');
  if (parts.some((p) => p.length === 0)) {
    throw new CommandError(
      'EmptyFieldName',
      `The update path '${path}' contains an empty field name, which is not allowed.`,
    );
  }
  const positional = parts.reduce<number[]>((acc, p, i) => (p === '$' ? [...acc, i] : acc), []);
  if (positional.length > 1) {
    throw new CommandError('BadValue', `Too many positional (i.e. '$') elements found in path '${path}'`);
  }
  if (positional[0] === 0) {
    throw new CommandError(
      'BadValue',
      `Cannot have positional (i.e. '$') element in the first position in path '${path}'`,
    );
  }
  return parts;
}

/** True for a path component made of decimal digits only. */
export function isNumericPart(part: string): boolean {
  return part.length > 0 && /^[0-9]+$/.test(part);
}

/** Orders two sibling field names as mongod's update tree does. */
export function comparePathParts(a: string, b: string): number {
  const na = /^(0|[1-9][0-9]*)$/.test(a);
  const nb = /^(0|[1-9][0-9]*)$/.test(b);
  if (na && nb) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareStrings(a, b);
}

/** A container (document or array) and the key of an element in it. */
export interface Slot {
  readonly container: Document | unknown[];
  readonly key: string | number;
}

/** Where a path leads in a document. */
export interface Navigation {
  /** The deepest existing element on the path (the document itself when `pathTaken` is empty). */
  readonly element: unknown;
  /** Where `element` lives (null for the document itself). */
  readonly slot: Slot | null;
  /** Every slot from the document down to `element`. */
  readonly slots: readonly Slot[];
  readonly pathTaken: readonly string[];
  readonly pathToCreate: readonly string[];
}

/** Finds the longest existing prefix of `parts` in `doc`. */
export function navigate(doc: Document, parts: readonly string[]): Navigation {
  let element: unknown = doc;
  const slots: Slot[] = [];
  let i = 0;
  for (; i < parts.length; i++) {
    const part = parts[i]!;
    if (isDocument(element)) {
      if (!hasOwn.call(element, part)) break;
      slots.push({ container: element, key: part });
      element = element[part];
    } else if (Array.isArray(element)) {
      if (!isNumericPart(part)) break;
      const idx = Number(part);
      if (idx >= element.length) break;
      slots.push({ container: element, key: idx });
      element = element[idx];
    } else {
      break;
    }
  }
  return {
    element,
    slot: slots.length === 0 ? null : slots[slots.length - 1]!,
    slots,
    pathTaken: parts.slice(0, i),
    pathToCreate: parts.slice(i),
  };
}

/** The element at the end of `pathTaken` as mongod prints it (`name: value`). */
export function describeElement(nav: Navigation): string {
  const name = nav.pathTaken.length === 0 ? '' : nav.pathTaken[nav.pathTaken.length - 1]!;
  return formatElement(name, nav.element);
}

function buildChain(parts: readonly string[], from: number, value: unknown): unknown {
  let v = value;
  for (let i = parts.length - 1; i > from; i--) v = { [parts[i]!]: v };
  return v;
}

/** Creates `nav.pathToCreate` below `nav.element` with `value` at its end (28 PathNotViable). */
export function createPath(nav: Navigation, value: unknown): void {
  const parts = nav.pathToCreate;
  const first = parts[0]!;
  const element = nav.element;
  if (isDocument(element)) {
    element[first] = buildChain(parts, 0, value);
    return;
  }
  if (Array.isArray(element) && isNumericPart(first)) {
    const idx = Number(first);
    if (idx - element.length > MAX_PADDING) {
      throw new CommandError('CannotBackfillArray', `can't backfill more than ${MAX_PADDING} elements`);
    }
    while (element.length < idx) element.push(null);
    element.push(buildChain(parts, 0, value));
    return;
  }
  throw new CommandError('PathNotViable', `Cannot create field '${first}' in element {${describeElement(nav)}}`);
}

/** mongod's `checkViability` for operators that never create paths ($pull, $pop, ...). */
export function checkViability(nav: Navigation): void {
  const element = nav.element;
  if (isDocument(element)) return;
  if (Array.isArray(element) && isNumericPart(nav.pathToCreate[0]!)) return;
  throw new CommandError(
    'PathNotViable',
    `Cannot use the part (${nav.pathToCreate[0]}) of (${[...nav.pathTaken, ...nav.pathToCreate].join('.')}) to traverse the element ({${describeElement(nav)}})`,
  );
}
