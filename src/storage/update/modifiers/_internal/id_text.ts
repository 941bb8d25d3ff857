/** The `_id` element as update error messages print it (`_id: 1`, or `no id`). */
import type { Document } from '../../../../bson/library.js';
import { formatElement } from '../../../values/format.js';

/** `_id: <value>` for messages, `no id` when the document has none. */
export function idText(doc: Document): string {
  return Object.prototype.hasOwnProperty.call(doc, '_id') ? formatElement('_id', doc._id) : 'no id';
}

/** The last component of a path (the field name mongod prints). */
export function fieldName(path: readonly string[]): string {
  return path.length === 0 ? '' : path[path.length - 1]!;
}
