/**
 * Random BSON for differential tests: a seeded PRNG and a byte-level BSON writer whose documents
 * cover every BSON type (DBPointer, duplicate names and odd array keys included).
 */
import { Decimal128, ObjectId } from '../../../src/bson/library.js';

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const i32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n | 0, 0);
  return b;
};
export const cstr = (s: string | Buffer): Buffer => Buffer.concat([typeof s === 'string' ? Buffer.from(s, 'utf8') : s, Buffer.from([0])]);
export const str = (s: string | Buffer): Buffer => {
  const bytes = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
  return Buffer.concat([i32(bytes.length + 1), bytes, Buffer.from([0])]);
};
export const f64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(n, 0);
  return b;
};
export const i64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt.asIntN(64, n), 0);
  return b;
};
/** One element: type byte, name, payload. */
export const elem = (type: number, name: string | Buffer, payload: Buffer = Buffer.alloc(0)): Buffer =>
  Buffer.concat([Buffer.from([type]), cstr(name), payload]);
/** A document of the given elements. */
export const doc = (...elements: Buffer[]): Buffer => {
  const body = Buffer.concat(elements);
  return Buffer.concat([i32(body.length + 5), body, Buffer.from([0])]);
};

export class Gen {
  readonly rand: () => number;
  constructor(seed: number) {
    this.rand = mulberry32(seed);
  }
  int(n: number): number {
    return Math.floor(this.rand() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  bytes(n: number): Buffer {
    return Buffer.from(Array.from({ length: n }, () => this.int(256)));
  }

  string(): string {
    const pieces = ['', 'a', 'user', 'héllo', 'wörld', '日本語', '😀', '𝄞 clef', ' ', 'line\nbreak', '\u0001', 'tab\t', '\uFFFD', 'x'.repeat(40), 'Ωμέγα', 'a.b', '.', '$'];
    let s = '';
    const n = this.int(4);
    for (let i = 0; i < n; i++) s += this.pick(pieces);
    return s;
  }

  name(): string {
    // Never $ref/$id/$db: DBRef shapes come from `dbRefShape` only (see the tests below).
    return this.pick(['', '_id', 'a', 'b', 'k', 'name', 'n', 'x.y', '$x', '$set', 'héllo', '😀', '__proto__', 'constructor', '0', '12', 'toString', 'a'.repeat(33), 'field_' + this.int(50)]);
  }

  double(): number {
    return this.pick([
      0, -0, 1, -1, 1.5, -2.25, NaN, Infinity, -Infinity, 2147483647, -2147483648, 2147483648, -2147483649,
      2 ** 53, -(2 ** 53), 1e308, 5e-324, Number.MAX_VALUE, 0.1, 1 / 3, this.rand() * 1e6, Math.round(this.rand() * 1e4),
    ]);
  }

  /** A document's bytes with 0–`width` elements. */
  document(depth: number, width = 6): Buffer {
    const elements: Buffer[] = [];
    const n = this.int(width + 1);
    for (let i = 0; i < n; i++) elements.push(this.element(this.name(), depth));
    if (this.int(8) === 0 && elements.length > 0) elements.push(elements[this.int(elements.length)]!); // duplicate name
    return doc(...elements);
  }

  array(depth: number): Buffer {
    const n = this.int(6);
    const elements: Buffer[] = [];
    // Array keys are not read: usually 0, 1, ..., sometimes anything.
    for (let i = 0; i < n; i++) elements.push(this.element(this.int(10) === 0 ? this.name() : String(i), depth));
    return doc(...elements);
  }

  dbRefShape(depth: number): Buffer {
    // Canonical order, a $ref without exactly one dot and a non-empty $db: the shapes the old
    // path returned unchanged (see 'keeps DBRef-shaped documents as sent' for the others).
    const ref = this.pick(['c', 'coll', 'a.b.c', 'users', '']);
    const elements = [elem(0x02, '$ref', str(ref)), this.element('$id', depth)];
    if (this.int(2) === 0) elements.push(elem(0x02, '$db', str(this.pick(['db', 'test', 'x.y.z']))));
    const extras = this.int(3);
    for (let i = 0; i < extras; i++) elements.push(this.element(this.pick(['a', 'b', 'extra', 'n']), depth));
    return doc(...elements);
  }

  element(name: string | Buffer, depth: number): Buffer {
    const leaf = depth >= 4;
    const kind = this.int(leaf ? 24 : 30);
    switch (kind) {
      case 0:
        return elem(0x01, name, f64(this.double()));
      case 1:
        return elem(0x02, name, str(this.string()));
      case 2:
        return elem(0x10, name, i32(this.pick([0, 1, -1, 2147483647, -2147483648, this.int(1000)])));
      case 3:
        return elem(0x12, name, i64(this.pick([0n, 1n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 31n, BigInt(this.int(1e9))])));
      case 4: {
        const d = this.pick(['0', '-0', '1.0', '1E+6144', 'NaN', '-Infinity', '12345678901234567890.123', '-1E-6176']);
        return elem(0x13, name, Buffer.from(Decimal128.fromString(d).bytes));
      }
      case 5:
        return elem(0x07, name, this.bytes(12));
      case 6: {
        const subType = this.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x80, 0xff]);
        const data = this.bytes(this.pick([0, 1, 5, 16, 16, 17, 40]));
        if (subType === 2) return elem(0x05, name, Buffer.concat([i32(data.length + 4), Buffer.from([2]), i32(data.length), data]));
        return elem(0x05, name, Buffer.concat([i32(data.length), Buffer.from([subType]), data]));
      }
      case 7:
        return elem(0x08, name, Buffer.from([this.int(2)]));
      case 8:
        return elem(0x09, name, i64(this.pick([0n, 1700000000000n, -1n, -62135596800000n, 253402300799999n, 9007199254740993n, 2n ** 62n])));
      case 9:
        return elem(0x0a, name);
      case 10:
        return elem(0x06, name);
      case 11:
        return elem(0xff, name);
      case 12:
        return elem(0x7f, name);
      case 13: {
        const ts = Buffer.concat([i32(this.pick([0, 1, -1, 7])), i32(this.pick([0, 1, -1, 1700000000]))]);
        return elem(0x11, name, ts);
      }
      case 14:
        return elem(0x0b, name, Buffer.concat([cstr(this.pick(['', 'a.*b', '^héllo$', '😀+', '\\d'])), cstr(this.pick(['', 'i', 'ims', 'ux', 'lmsix']))]));
      case 15:
        return elem(0x0d, name, str(this.pick(['', 'function () { return 1; }', 'x => x * 2', 'ünïcode'])));
      case 16:
        return elem(0x0e, name, str(this.string()));
      case 17:
        return elem(0x0c, name, Buffer.concat([str(this.pick(['db.coll', 'coll', 'a.b.c', '', '.b', 'a.'])), this.bytes(12)]));
      case 18:
        return elem(0x10, name, i32(this.int(2 ** 31) * (this.int(2) ? 1 : -1)));
      case 19:
        return elem(0x01, name, f64(this.pick([1, 2, 0, -5, 1.0, 3.0, 1e9])));
      case 20:
      case 21:
      case 22:
      case 23:
        return elem(0x02, name, str(this.string()));
      case 24:
      case 25:
        return elem(0x03, name, this.document(depth + 1));
      case 26:
      case 27:
        return elem(0x04, name, this.array(depth + 1));
      case 28:
        return elem(0x03, name, this.dbRefShape(depth + 1));
      default: {
        // Code with scope: total size, code string, scope document.
        const code = str(this.pick(['', 'function () { return x; }', 'ünï']));
        const scope = this.int(3) === 0 ? doc(elem(0x03, 'r', this.dbRefShape(depth + 1)), elem(0x10, 'i', i32(3))) : this.document(depth + 1);
        return elem(0x0f, name, Buffer.concat([i32(4 + code.length + scope.length), code, scope]));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing decoded values: same types, same classes, same key order, -0 and NaN exact.

export function differences(a: unknown, b: unknown, path = '$'): string[] {
  if (typeof a !== typeof b) return [`${path}: ${typeof a} vs ${typeof b}`];
  if (a === null || b === null || typeof a !== 'object') {
    return Object.is(a, b) ? [] : [`${path}: ${String(a)} vs ${String(b)}`];
  }
  const ao = a as object;
  const bo = b as object;
  if (Object.getPrototypeOf(ao) !== Object.getPrototypeOf(bo)) {
    return [`${path}: class ${ao.constructor?.name} vs ${bo.constructor?.name}`];
  }
  if (ao instanceof Date) return Object.is(ao.getTime(), (bo as Date).getTime()) ? [] : [`${path}: ${ao.getTime()} vs ${(bo as Date).getTime()}`];
  if (ao instanceof Uint8Array) return Buffer.compare(ao, bo as Uint8Array) === 0 ? [] : [`${path}: bytes differ`];
  if (ao instanceof ObjectId) return ao.equals(bo as ObjectId) ? [] : [`${path}: ${ao.toHexString()} vs ${(bo as ObjectId).toHexString()}`];
  const ak = Reflect.ownKeys(ao);
  const bk = Reflect.ownKeys(bo);
  if (ak.join('\u0000') !== bk.join('\u0000')) return [`${path}: keys [${ak.map(String)}] vs [${bk.map(String)}]`];
  const out: string[] = [];
  for (const k of ak) {
    const da = Object.getOwnPropertyDescriptor(ao, k)!;
    const db = Object.getOwnPropertyDescriptor(bo, k)!;
    if (da.enumerable !== db.enumerable) out.push(`${path}.${String(k)}: enumerability`);
    out.push(...differences(da.value, db.value, `${path}.${String(k)}`));
  }
  return out;
}
