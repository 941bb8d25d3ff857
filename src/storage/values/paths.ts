/**
 * Dotted paths over documents.
 *
 * `walkPath` is the query language's view of a path (mongo/src/mongo/db/matcher/path.cpp):
 * it descends through subdocuments, fans out over array elements that are documents, honours
 * numeric components as array offsets, reports a missing field (as `MISSING`) where mongod's
 * element iterator yields EOO, and at a leaf array visits each element and then the array
 * itself (unless leaf expansion is off, as for `$size` and `$elemMatch`).
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { formatElement } from './format.js';
import { MISSING } from './missing.js';

/** "No value here" (an absent field), as `walkPath` visitors see it. */
export { MISSING };

/** A value seen by `walkPath`, or `MISSING`. */
export type PathValue = unknown;

/** A parsed dotted path: its components and, per component, its array offset or -1. */
export interface ParsedPath {
  readonly dotted: string;
  readonly parts: readonly string[];
  /** Array offset named by each component (canonical decimal, no leading zero), else -1. */
  readonly offsets: readonly number[];
  /** Whether each component is all digits (mongod's `isAllDigits`). */
  readonly allDigits: readonly boolean[];
  /** Whether some component names a property every object inherits ('constructor', ...). */
  readonly inherited: boolean;
}

/** True for names plain objects inherit (reading them needs an own-property check). */
export function isInheritedName(name: string): boolean {
  return name in Object.prototype;
}

const PATH_CACHE = new Map<string, ParsedPath>();
const PATH_CACHE_MAX = 4096;

/** Splits a dotted path once (cached). */
export function parsePath(dotted: string): ParsedPath {
  let parsed = PATH_CACHE.get(dotted);
  if (parsed !== undefined) return parsed;
  const parts = dotted.split('.');
  const offsets = parts.map(arrayOffsetOf);
  const allDigits = parts.map((p) => p.length > 0 && /^[0-9]+$/.test(p));
  parsed = { dotted, parts, offsets, allDigits, inherited: parts.some(isInheritedName) };
  if (PATH_CACHE.size >= PATH_CACHE_MAX) PATH_CACHE.clear();
  PATH_CACHE.set(dotted, parsed);
  return parsed;
}

/**
 * Adds the top-level field of the dotted path `path` (its first part) to `fields`, once: what a
 * reader of `path` needs decoded of a stored document (`documentFields`).
 */
export function addTopLevelField(fields: string[], path: string): void {
  const dot = path.indexOf('.');
  const name = dot < 0 ? path : path.slice(0, dot);
  if (!fields.includes(name)) fields.push(name);
}

/** The array index a path component names (digits without leading zero), else -1. */
export function arrayOffsetOf(part: string): number {
  const n = part.length;
  if (n === 0 || n > 15) return -1;
  const c0 = part.charCodeAt(0);
  if (c0 < 48 || c0 > 57 || (c0 === 48 && n > 1)) return -1;
  for (let i = 1; i < n; i++) {
    const c = part.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return Number(part);
}

/** True for a BSON embedded document (a plain object, not an array or a BSON wrapper). */
export function isDocument(v: unknown): v is Document {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Visits every value the query language sees at `path` in `doc`; stops and returns true as
 * soon as `visit` returns true. `expandLeafArrays` false visits a leaf array once, unexpanded.
 */
export function walkPath(
  doc: Document,
  path: ParsedPath,
  expandLeafArrays: boolean,
  visit: (v: PathValue) => boolean,
): boolean {
  return walkFrom(doc, path, 0, expandLeafArrays, visit);
}

function walkFrom(
  obj: Document,
  path: ParsedPath,
  start: number,
  expand: boolean,
  visit: (v: PathValue) => boolean,
): boolean {
  const parts = path.parts;
  const last = parts.length - 1;
  let cur: Document = obj;
  let i = start;
  let v: unknown;
  for (;;) {
    const key = parts[i]!;
    v = cur[key];
    if ((v === undefined || path.inherited) && !hasOwn.call(cur, key)) return visit(MISSING);
    if (i === last) break;
    if (typeof v === 'object' && v !== null) {
      if (Array.isArray(v)) break;
      if (isDocument(v)) {
        cur = v;
        i++;
        continue;
      }
    }
    return visit(MISSING);
  }
  if (!Array.isArray(v)) return visit(v);
  if (i === last) {
    if (!expand) return visit(v);
    for (let k = 0; k < v.length; k++) if (visit(v[k])) return true;
    return visit(v);
  }
  return walkArray(v, path, i + 1, expand, visit);
}

function walkArray(
  arr: unknown[],
  path: ParsedPath,
  j: number,
  expand: boolean,
  visit: (v: PathValue) => boolean,
): boolean {
  const offset = path.offsets[j]!;
  const terminal = j === path.parts.length - 1;
  for (let k = 0; k < arr.length; k++) {
    const el = arr[k];
    if (isDocument(el)) {
      if (walkFrom(el, path, j, expand, visit)) return true;
      if (k === offset) {
        if (terminal ? visit(el) : walkFrom(el, path, j + 1, expand, visit)) return true;
      }
    } else if (k === offset) {
      if (terminal) {
        if (visit(el)) return true;
      } else if (Array.isArray(el)) {
        if (walkArray(el, path, j + 1, expand, visit)) return true;
      }
    }
  }
  return false;
}

/**
 * Every value the query language sees at `path` (array elements expanded as for matching,
 * leaf arrays followed by the array itself); [] when the path is missing.
 */
export function collectPathValues(doc: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  if (!isDocument(doc)) return out;
  walkPath(doc, parsePath(path), true, (v) => {
    if (v !== MISSING) out.push(v);
    return false;
  });
  return out;
}

/**
 * The value at a dotted path without array expansion: numeric components index arrays
 * ('a.0.b'); undefined when missing.
 */
export function getField(doc: unknown, path: string): unknown {
  const { parts, offsets } = parsePath(path);
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    if (Array.isArray(cur)) {
      const idx = offsets[i]!;
      if (idx < 0) return undefined;
      cur = cur[idx];
    } else if (isDocument(cur)) {
      const key = parts[i]!;
      if (!hasOwn.call(cur, key)) return undefined;
      cur = cur[key];
    } else {
      return undefined;
    }
  }
  return cur;
}

/**
 * Sets `value` at a dotted path, creating intermediate documents (and padding arrays with
 * null for numeric components past their end), as `$set` does. Throws 28 PathNotViable when
 * a component runs into a non-container value or names a non-numeric field of an array.
 */
export function setField(doc: Document, path: string, value: unknown): void {
  const { parts, offsets } = parsePath(path);
  let cur: Document | unknown[] = doc;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const isLast = i === parts.length - 1;
    if (Array.isArray(cur)) {
      const idx = offsets[i]!;
      if (idx < 0) throw cannotCreate(part, parts[i - 1] ?? '', cur);
      while (cur.length < idx) cur.push(null);
      if (isLast) {
        cur[idx] = value;
        return;
      }
      let next = cur[idx];
      if (next === undefined) {
        next = {};
        cur[idx] = next;
      } else if (!isContainer(next)) {
        throw cannotCreate(parts[i + 1]!, part, next);
      }
      cur = next as Document | unknown[];
    } else {
      if (isLast) {
        assign(cur, part, value);
        return;
      }
      let next = hasOwn.call(cur, part) ? cur[part] : undefined;
      if (next === undefined && !hasOwn.call(cur, part)) {
        next = {};
        assign(cur, part, next);
      } else if (!isContainer(next)) {
        throw cannotCreate(parts[i + 1]!, part, next);
      }
      cur = next as Document | unknown[];
    }
  }
}

/** Sets an own property (also for '__proto__', which plain assignment would not create). */
export function assign(obj: Document, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

function isContainer(v: unknown): boolean {
  return Array.isArray(v) || isDocument(v);
}

function cannotCreate(field: string, parentName: string, parent: unknown): CommandError {
  return new CommandError(
    'PathNotViable',
    `Cannot create field '${field}' in element {${formatElement(parentName, parent)}}`,
  );
}

/**
 * Removes the value at a dotted path (an array element becomes null, as `$unset` does).
 * Returns true when something was there.
 */
export function unsetField(doc: Document, path: string): boolean {
  const { parts, offsets } = parsePath(path);
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    if (Array.isArray(cur)) {
      const idx = offsets[i]!;
      if (idx < 0 || idx >= cur.length) return false;
      cur = cur[idx];
    } else if (isDocument(cur)) {
      const key = parts[i]!;
      if (!hasOwn.call(cur, key)) return false;
      cur = cur[key];
    } else {
      return false;
    }
  }
  const leaf = parts[parts.length - 1]!;
  if (Array.isArray(cur)) {
    const idx = offsets[parts.length - 1]!;
    if (idx < 0 || idx >= cur.length) return false;
    cur[idx] = null;
    return true;
  }
  if (isDocument(cur) && hasOwn.call(cur, leaf)) {
    delete cur[leaf];
    return true;
  }
  return false;
}
