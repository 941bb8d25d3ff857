/**
 * The keys a document has in a B-tree index, generated as mongod's `BtreeKeyGenerator` does
 * (mongo/src/mongo/db/index/btree_key_generator.cpp):
 *
 * - each field's path is followed until it ends or meets an array; a missing field is null;
 * - at most one array may be expanded at a time: the fields that reached the *same* array are
 *   expanded together, element by element (so `{'a.b': 1, 'a.c': 1}` over `a: [{b, c}, …]`
 *   gives one key per element, not a cross product); two different arrays are
 *   "parallel arrays" (171 CannotIndexParallelArrays);
 * - an array at the end of a path gives one key per element (a nested array is kept whole); an
 *   empty array gives `undefined`; a non-document element below a path gives null;
 * - a sparse index skips a document whose every field is missing;
 * - the array components met on the way are the index's multikey paths.
 *
 * A single-field key is the value itself; a compound key is the array of the field values.
 */
import type { Document } from '../../bson/library.js';
import { CommandError } from '../../errors/command_error.js';
import { keyString } from '../values/key_string.js';
import { arrayOffsetOf, isDocument } from '../values/paths.js';

/** The keys of one document, and the path components where it had arrays. */
export interface GeneratedKeys {
  readonly keys: unknown[];
  /** Per field, the path component indexes that held arrays; null when there was no array. */
  readonly multikeyComponents: number[][] | null;
}

const NO_KEYS: GeneratedKeys = Object.freeze({ keys: [], multikeyComponents: null }) as GeneratedKeys;
const DONE = -1;
const EMPTY: Document = Object.freeze({}) as Document;


/** Where following a path from a document stopped. */
interface Extracted {
  /** The value reached (an array when the walk stopped at one). */
  value: unknown;
  /** Index of the next path component to follow (parts.length when the path ended). */
  next: number;
  /** The component index of the array the walk stopped at (-1 when none). */
  arrayComponent: number;
  missing: boolean;
}

/** Follows `parts[from..]` through `obj`, stopping at the first array that is not indexed positionally. */
function extract(obj: unknown, parts: readonly string[], from: number, out: Extracted): void {
  let v: unknown = obj;
  let i = from;
  while (i < parts.length) {
    if (Array.isArray(v)) {
      const offset = arrayOffsetOf(parts[i]!);
      if (offset >= 0 && offset < v.length) {
        v = v[offset];
        i++;
        continue;
      }
      out.value = v;
      out.next = i;
      out.arrayComponent = i - 1;
      out.missing = false;
      return;
    }
    if (!isDocument(v)) {
      out.missing = true;
      return;
    }
    v = (v as Document)[parts[i]!];
    if (v === undefined) {
      out.missing = true;
      return;
    }
    i++;
  }
  out.value = v;
  out.next = parts.length;
  out.arrayComponent = Array.isArray(v) ? parts.length - 1 : -1;
  out.missing = false;
}

/** Key generation state for one index. */
export class KeyGenerator {
  private readonly parts: readonly (readonly string[])[];
  private readonly sparse: boolean;

  /** A generator for the dotted `fields` of a B-tree key pattern. */
  constructor(fields: readonly string[], sparse: boolean) {
    this.parts = fields.map((f) => f.split('.'));
    this.sparse = sparse;
  }

  /** The distinct keys of `doc` (throws 171 for parallel arrays). */
  keysOf(doc: Document): GeneratedKeys {
    const parts = this.parts;
    const scratch: Extracted = { value: undefined, next: 0, arrayComponent: -1, missing: false };
    if (parts.length === 1) {
      extract(doc, parts[0]!, 0, scratch);
      if (scratch.missing) return this.sparse ? NO_KEYS : { keys: [null], multikeyComponents: null };
      if (!Array.isArray(scratch.value)) return { keys: [scratch.value], multikeyComponents: null };
    }
    const n = parts.length;
    const state: GenState = {
      keys: [],
      seen: null,
      multikey: Array.from({ length: n }, () => [] as number[]),
      anyArray: false,
    };
    this.generate(doc, new Array<number>(n).fill(0), new Array<unknown>(n).fill(null), 0, state, scratch);
    return { keys: state.keys, multikeyComponents: state.anyArray ? state.multikey : null };
  }

  private generate(obj: unknown, rest: number[], fixed: unknown[], notFound: number, state: GenState, scratch: Extracted): void {
    const parts = this.parts;
    let array: unknown[] | null = null;
    let arrayName = '';
    let arrayFields: number[] | null = null;
    for (let i = 0; i < parts.length; i++) {
      if (rest[i] === DONE) continue;
      extract(obj, parts[i]!, rest[i]!, scratch);
      if (scratch.missing) {
        fixed[i] = null;
        rest[i] = DONE;
        notFound++;
        continue;
      }
      if (!Array.isArray(scratch.value)) {
        fixed[i] = scratch.value;
        rest[i] = DONE;
        continue;
      }
      const name = parts[i]![scratch.arrayComponent]!;
      const components = state.multikey[i]!;
      if (!components.includes(scratch.arrayComponent)) components.push(scratch.arrayComponent);
      state.anyArray = true;
      if (array === null) {
        array = scratch.value;
        arrayName = name;
        arrayFields = [i];
      } else if (array !== scratch.value) {
        throw new CommandError('CannotIndexParallelArrays', `cannot index parallel arrays [${name}] [${arrayName}]`);
      } else {
        arrayFields!.push(i);
      }
      rest[i] = scratch.next;
    }
    if (array === null) {
      if (this.sparse && notFound === parts.length) return;
      this.emit(parts.length === 1 ? fixed[0] : fixed.slice(), state);
      return;
    }
    if (array.length === 0) {
      this.element(undefined, rest, fixed, notFound, arrayFields!, state, scratch);
      return;
    }
    for (const element of array) this.element(element, rest, fixed, notFound, arrayFields!, state, scratch);
  }

  /** Continues with one element of the expanded array. */
  private element(element: unknown, rest: number[], fixed: unknown[], notFound: number, arrayFields: number[], state: GenState, scratch: Extracted): void {
    const rest2 = rest.slice();
    const fixed2 = fixed.slice();
    for (const i of arrayFields) {
      if (rest2[i] === this.parts[i]!.length) {
        fixed2[i] = element;
        rest2[i] = DONE;
      }
    }
    this.generate(isDocument(element) ? element : EMPTY, rest2, fixed2, notFound, state, scratch);
  }

  private emit(key: unknown, state: GenState): void {
    if (state.keys.length === 0) {
      state.keys.push(key);
      return;
    }
    if (state.seen === null) state.seen = new Set([keyString(state.keys[0])]);
    const ks = keyString(key);
    if (state.seen.has(ks)) return;
    state.seen.add(ks);
    state.keys.push(key);
  }
}

interface GenState {
  keys: unknown[];
  seen: Set<string> | null;
  multikey: number[][];
  anyArray: boolean;
}
