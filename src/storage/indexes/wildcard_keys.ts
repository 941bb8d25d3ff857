/**
 * The keys a document has in a wildcard index (`{"$**": 1}`, `{"a.$**": 1}`, compound
 * `{x: 1, "$**": 1}`), generated as mongod's `WildcardKeyGenerator` does
 * (mongo/src/mongo/db/index/wildcard_key_generator.cpp):
 *
 * - every leaf under the index's scope gives one key `(path, value)`, the path dotted without
 *   array positions; a field name holding a '.' is skipped (it cannot be queried);
 * - an array's elements are indexed under the array's own path (the path is then multikey); an
 *   array nested directly in an array is indexed whole, as a value; an empty object is indexed
 *   as `{}`, an empty array as `undefined`;
 * - the scope is the whole document minus `_id` (`$**`, unless `wildcardProjection` names
 *   `_id: 1`), the subtree `a` (`a.$**`), or what `wildcardProjection` includes / does not exclude;
 * - a compound wildcard index puts the regular fields' values first (never arrays: 7246301) and a
 *   document with no wildcard key still gets one key, with MinKey as path and value, so that
 *   queries on the regular fields find every document.
 *
 * A key is the array of its components in key-pattern order with the wildcard field expanded
 * into two: `$_path` (the dotted path) and the value.
 */
import { MinKey, type Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { keyString } from '../values/key_string.js';
import { isDocument } from '../values/paths.js';
import { isNumber, toDouble } from '../values/numeric.js';
import { KeyGenerator } from './key_generator.js';

/** The name of a wildcard key's path component (as explain shows it). */
export const WILDCARD_PATH_FIELD = '$_path';

/** The keys of one document, and the paths at which it held arrays. */
export interface WildcardGenerated {
  readonly keys: unknown[];
  readonly multikeyPaths: readonly string[];
}

/** Which paths a wildcard index holds (its scope and `wildcardProjection`). */
export class WildcardScope {
  /** Included paths (an inclusion scope), or null when the scope is "all but `excluded`". */
  private readonly included: readonly string[] | null;
  private readonly excluded: readonly string[];

  /** The scope of a wildcard key field (`$**` or `a.$**`) and its projection. */
  constructor(wildcardField: string, projection: Document | undefined) {
    if (wildcardField !== '$**') {
      this.included = [wildcardField.slice(0, -'.$**'.length)];
      this.excluded = [];
      return;
    }
    const entries = Object.entries(projection ?? {});
    const isTrue = (v: unknown): boolean => (isNumber(v) ? toDouble(v) !== 0 : Boolean(v));
    const others = entries.filter(([k]) => k !== '_id');
    const idEntry = entries.find(([k]) => k === '_id');
    const idIncluded = idEntry !== undefined && isTrue(idEntry[1]);
    const inclusion = others.length > 0 ? isTrue(others[0]![1]) : idIncluded;
    if (inclusion) {
      this.included = [...others.map(([k]) => k), ...(idIncluded ? ['_id'] : [])];
      this.excluded = [];
    } else {
      this.included = null;
      this.excluded = [...others.map(([k]) => k), ...(idIncluded ? [] : ['_id'])];
    }
  }

  /** True when the index holds keys at `path` (a full dotted path of a leaf). */
  holds(path: string): boolean {
    if (this.included !== null) return this.included.some((p) => path === p || path.startsWith(p + '.'));
    return !this.excluded.some((p) => path === p || path.startsWith(p + '.'));
  }

  /** True when some path under `path` (or `path` itself) may be held: worth descending into. */
  mayHoldBelow(path: string): boolean {
    if (this.included !== null) return this.included.some((p) => path === p || path.startsWith(p + '.') || p.startsWith(path + '.'));
    return !this.excluded.some((p) => path === p || path.startsWith(p + '.'));
  }
}

/** Key generation for one wildcard index. */
export class WildcardKeyGenerator {
  /** Component index of the wildcard field in the key pattern. */
  private readonly position: number;
  private readonly regular: KeyGenerator | null;
  private readonly regularFields: readonly string[];
  readonly scope: WildcardScope;

  /** A generator for `keyPattern` (one `$**` field) with the index's `wildcardProjection`. */
  constructor(keyPattern: Document, projection: Document | undefined) {
    const fields = Object.keys(keyPattern);
    this.position = fields.findIndex((f) => f === '$**' || f.endsWith('.$**'));
    this.regularFields = fields.filter((_, i) => i !== this.position);
    this.regular = this.regularFields.length > 0 ? new KeyGenerator(this.regularFields, false) : null;
    this.scope = new WildcardScope(fields[this.position]!, projection);
  }

  /** The distinct keys of `doc` (throws 7246301 for an array on a regular field). */
  keysOf(doc: Document): WildcardGenerated {
    const pairs: Array<[string, unknown]> = [];
    const multikeyPaths: string[] = [];
    this.traverse(doc, false, '', pairs, multikeyPaths);
    if (this.regular === null) return { keys: dedupe(pairs), multikeyPaths };
    const generated = this.regular.keysOf(doc);
    if (generated.multikeyComponents !== null && generated.multikeyComponents.some((c) => c.length > 0)) {
      throw new CommandError(7246301, `Compound wildcard indexes do not support multikey on non-wildcard fields. The non-wildcard fields are: [${this.regularFields.map((f) => `'${f}'`).join(', ')}]`);
    }
    const prefix = generated.keys[0];
    const values = this.regularFields.length === 1 ? [prefix] : (prefix as unknown[]);
    if (pairs.length === 0) pairs.push([MIN_KEY as unknown as string, MIN_KEY]);
    const keys = dedupe(pairs).map((pair) => {
      const key = values.slice();
      key.splice(this.position, 0, ...(pair as unknown[]));
      return key;
    });
    return { keys, multikeyPaths };
  }

  private traverse(obj: Document | unknown[], objIsArray: boolean, prefix: string, out: Array<[string, unknown]>, multikeyPaths: string[]): void {
    const visit = (name: string | null, value: unknown): void => {
      if (name !== null && name.includes('.')) return;
      const path = name === null ? prefix : prefix === '' ? name : `${prefix}.${name}`;
      if (!this.scope.mayHoldBelow(path)) return;
      if (Array.isArray(value)) {
        if (objIsArray) return this.add(path, value, out);
        if (!multikeyPaths.includes(path)) multikeyPaths.push(path);
        if (value.length === 0) return this.add(path, undefined, out);
        return this.traverse(value, true, path, out, multikeyPaths);
      }
      if (isDocument(value)) {
        if (Object.keys(value).length === 0) return this.add(path, value, out);
        return this.traverse(value, false, path, out, multikeyPaths);
      }
      this.add(path, value, out);
    };
    if (objIsArray) for (const el of obj as unknown[]) visit(null, el);
    else for (const [name, value] of Object.entries(obj as Document)) if (value !== undefined || name in obj) visit(name, value);
  }

  private add(path: string, value: unknown, out: Array<[string, unknown]>): void {
    if (this.scope.holds(path)) out.push([path, value]);
  }
}

const MIN_KEY = new MinKey();

/** The distinct (path, value) pairs, in order of first appearance. */
function dedupe(pairs: Array<[string, unknown]>): unknown[] {
  if (pairs.length <= 1) return pairs;
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const pair of pairs) {
    const ks = keyString(pair);
    if (seen.has(ks)) continue;
    seen.add(ks);
    out.push(pair);
  }
  return out;
}
