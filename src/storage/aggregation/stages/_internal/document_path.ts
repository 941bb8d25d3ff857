/**
 * Reading and writing a dotted path of a document without descending into arrays, and without
 * mutating the input (`$densify`, `$fill`): a written document is a copy along the path.
 */
import type { Document } from '../../../../bson/library.js';
import { MISSING } from '../../../values/missing.js';
import { isDocument } from '../../../values/paths.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** The value at `parts` of `doc`, or MISSING (a non-document on the way, arrays included). */
export function valueAt(doc: Document, parts: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const part of parts) {
    if (!isDocument(cur) || !hasOwn.call(cur, part)) return MISSING;
    cur = cur[part];
  }
  return cur;
}

/** A copy of `doc` with `value` at `parts`, documents created (or a non-document replaced) on the way. */
export function withValueAt(doc: Document, parts: readonly string[], value: unknown): Document {
  const out: Document = { ...doc };
  const name = parts[0]!;
  if (parts.length === 1) {
    Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
    return out;
  }
  const child = hasOwn.call(doc, name) ? doc[name] : undefined;
  const next = withValueAt(isDocument(child) ? child : {}, parts.slice(1), value);
  Object.defineProperty(out, name, { value: next, writable: true, enumerable: true, configurable: true });
  return out;
}
