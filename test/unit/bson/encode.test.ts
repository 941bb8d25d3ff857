/**
 * The encoder over Mayfly's value representation (src/bson/encode.ts) against js-bson's
 * `serialize(doc, { checkKeys: false, ignoreUndefined: false })` (`serializeViaJsBson`): the same
 * bytes on thousands of seeded random documents of every BSON type and on each type boundary,
 * written by the encoder itself (not its js-bson fallback); the values outside the
 * representation handed to js-bson whole, with js-bson's bytes or js-bson's error.
 */
import { describe, expect, it } from 'vitest';
import { Binary, BSONError, BSONRegExp, BSONSymbol, Code, DBRef, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, serializeViaJsBson, Timestamp, UUID, type Document } from '../../../src/bson/library.js';
import { deserialize } from '../../../src/bson/decode.js';
import { serialize, documentSize, encodeDocument, encodeDocumentInto, MAX_WALK_DEPTH } from '../../../src/bson/encode.js';
import { thrownBy } from '../thrown.js';
import { bson, el } from '../wire/fixtures.js';
import { Gen } from './random_bson.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The document written by the encoder itself at offset 3 of a larger buffer, or null if it declined. */
function encodedByUs(doc: Document): Buffer | null {
  const size = documentSize(doc);
  if (size < 0) return null;
  const target = Buffer.alloc(size + 7, 0xee);
  const end = encodeDocumentInto(doc, target, 3);
  if (end < 0) return null;
  expect(end).toBe(3 + size);
  // Nothing written outside the document's bytes.
  expect(hex(target.subarray(0, 3))).toBe('eeeeee');
  expect(hex(target.subarray(end))).toBe('ee'.repeat(4));
  return target.subarray(3, end);
}

/** True when `value` holds a value outside the representation (the random documents' kinds). */
function holdsForeign(value: unknown): boolean {
  if (value instanceof Code || value instanceof BSONSymbol) return true;
  if (value instanceof Binary) return value.sub_type === 9;
  if (Array.isArray(value)) return value.some(holdsForeign);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).some(holdsForeign);
  }
  return false;
}

describe('encoder against js-bson', () => {
  it('writes 5,000 random documents of every type exactly as js-bson, itself unless they hold Code, a symbol or a vector', () => {
    const gen = new Gen(8675309);
    let ours = 0;
    let handedOver = 0;
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const doc = deserialize(gen.document(0, 8));
      const expectedError = thrownBy(() => serializeViaJsBson(doc));
      if (expectedError !== undefined) {
        // A vector (subtype 9) js-bson finds invalid: its error, from js-bson.
        refused++;
        expect(thrownBy(() => serialize(doc))?.message).toBe(expectedError.message);
        continue;
      }
      const expected = hex(serializeViaJsBson(doc));
      const mine = encodedByUs(doc);
      if (mine === null) {
        handedOver++;
        if (!holdsForeign(doc)) throw new Error(`document ${i} handed to js-bson: ${expected}`);
      } else {
        ours++;
        if (hex(mine) !== expected) throw new Error(`document ${i}: ours ${hex(mine)}\njs-bson ${expected}`);
      }
      expect(hex(serialize(doc))).toBe(expected);
    }
    expect(ours).toBeGreaterThan(1500);
    expect(handedOver).toBeGreaterThan(500);
    expect(ours + handedOver + refused).toBe(5000);
  });

  it('re-encodes decoded canonical BSON to the very same bytes', () => {
    // js-bson's output is canonical (keys 0, 1, ... in arrays, no duplicate names): decoding it
    // with the one-pass decoder and encoding it again must give it back byte for byte.
    const gen = new Gen(31337);
    let checked = 0;
    for (let i = 0; i < 3000; i++) {
      const doc = deserialize(gen.document(0, 8));
      if (holdsForeign(doc)) continue;
      const canonical = serializeViaJsBson(doc);
      const again = encodedByUs(deserialize(canonical));
      expect(again).not.toBeNull();
      if (hex(again!) !== hex(canonical)) throw new Error(`document ${i}: ${hex(canonical)}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('writes the reply shapes of the hot path', () => {
    const ok = new Double(1);
    const replies: Document[] = [
      { ok },
      { n: 1, ok },
      { n: 1, nModified: 1, ok },
      { cursor: { firstBatch: [{ _id: new ObjectId(), k: 5, name: 'user5', n: 1 }], id: Long.ZERO, ns: 'bench.fo' }, ok },
      { cursor: { nextBatch: Array.from({ length: 101 }, (_, i) => ({ _id: i, k: i, name: 'user' + i, n: 1 })), id: Long.fromNumber(2 ** 40), ns: 'b.c' }, ok },
      { ok: new Double(0), errmsg: 'no such command', code: 59, codeName: 'CommandNotFound' },
    ];
    for (const doc of replies) expect(hex(encodedByUs(doc)!)).toBe(hex(serializeViaJsBson(doc)));
    expect(hex(encodedByUs({ n: 1, nModified: 1, ok })!)).toBe(
      '27000000' + '106e0001000000' + '106e4d6f64696669656400' + '01000000' + '016f6b00' + '000000000000f03f' + '00',
    );
  });
});

describe('encoder: type boundaries', () => {
  /** The type byte and payload of the single field `v`, as the encoder writes it. */
  const field = (v: unknown): string => {
    const bytes = encodedByUs({ v });
    expect(bytes).not.toBeNull();
    expect(hex(bytes!)).toBe(hex(serializeViaJsBson({ v })));
    const b = bytes!;
    // Skip the length, then give "type|payload" without the name 'v\0' and the terminator.
    return `${b.subarray(4, 5).toString('hex')}|${b.subarray(7, b.length - 1).toString('hex')}`;
  };

  it.each([
    ['0', 0, '10|00000000'],
    ['-0 (a Double)', -0, '01|0000000000000080'],
    ['int32 max', 2147483647, '10|ffffff7f'],
    ['int32 min', -2147483648, '10|00000080'],
    ['2^31 (a Double)', 2 ** 31, '01|000000000000e041'],
    ['-2^31 - 1 (a Double)', -(2 ** 31) - 1, '01|000020000000e0c1'],
    ['2^53', 2 ** 53, '01|0000000000004043'],
    ['1.5', 1.5, '01|000000000000f83f'],
    ['NaN', NaN, '01|000000000000f87f'],
    ['Infinity', Infinity, '01|000000000000f07f'],
    ['-Infinity', -Infinity, '01|000000000000f0ff'],
    ['Double(1)', new Double(1), '01|000000000000f03f'],
    ['Double(-0)', new Double(-0), '01|0000000000000080'],
    ['Long -1', Long.fromNumber(-1), '12|ffffffffffffffff'],
    ['Long max', Long.MAX_VALUE, '12|ffffffffffffff7f'],
    ['Timestamp', new Timestamp({ t: 0x01020304, i: 5 }), '11|0500000004030201'],
    ['Date 0', new Date(0), '09|0000000000000000'],
    ['Date -1', new Date(-1), '09|ffffffffffffffff'],
    ['Date 2^32 ms', new Date(2 ** 32), '09|0000000001000000'],
    ['Date -2^32 - 1 ms', new Date(-(2 ** 32) - 1), '09|fffffffffeffffff'],
    ['Date 1700000000123', new Date(1700000000123), '09|7b68e5cf8b010000'],
    ['an invalid Date (as 0)', new Date(NaN), '09|0000000000000000'],
    ['true', true, '08|01'],
    ['false', false, '08|00'],
    ['null', null, '0a|'],
    ['undefined (as null)', undefined, '0a|'],
    ['MinKey', new MinKey(), 'ff|'],
    ['MaxKey', new MaxKey(), '7f|'],
    ['ObjectId', new ObjectId('0123456789abcdefabcdef01'), '07|0123456789abcdefabcdef01'],
    ['Decimal128', Decimal128.fromString('1.5'), '13|0f000000000000000000000000003e30'],
    ['empty string', '', '02|0100000000'],
    ['ASCII string', 'user', '02|050000007573657200'],
    ['string with a NUL', 'a\u0000b', '02|0400000061006200'],
    ['2-, 3- and 4-byte UTF-8', 'é日😀', '02|0a000000c3a9e697a5f09f988000'],
    ['a lone surrogate (as U+FFFD)', 'a\ud800', '02|0500000061efbfbd00'],
    ['empty document', {}, '03|0500000000'],
    ['empty array', [], '04|0500000000'],
    ['Binary subtype 0', new Binary(Buffer.from([1, 2, 3]), 0), '05|0300000000010203'],
    ['Binary subtype 2 (old layout)', new Binary(Buffer.from([1, 2, 3]), 2), '05|070000000203000000010203'],
    ['Binary subtype 0x80', new Binary(Buffer.from([]), 0x80), '05|0000000080'],
    ['UUID', new UUID('0123456789abcdef0123456789abcdef'), '05|10000000040123456789abcdef0123456789abcdef'],
    ['BSONRegExp', new BSONRegExp('^a.c$', 'mi'), '0b|5e612e632400696d00'],
  ])('%s', (_name, value, expected) => {
    expect(field(value)).toBe(expected);
  });

  it('writes strings and binaries past the short-copy lengths', () => {
    const strings = ['x'.repeat(10_000), 'é'.repeat(40), 'a'.repeat(40) + '😀' + 'b'.repeat(40)];
    for (let n = 20; n <= 40; n++) strings.push('x'.repeat(n), 'a'.repeat(n - 1) + 'é', 'é' + 'a'.repeat(n - 1));
    for (const s of strings) {
      expect(hex(encodedByUs({ s })!)).toBe(hex(serializeViaJsBson({ s })));
      expect(hex(encodedByUs({ [s]: 1 })!)).toBe(hex(serializeViaJsBson({ [s]: 1 })));
    }
    for (const n of [16, 17, 1000]) {
      const data = Buffer.from(Array.from({ length: n }, (_, i) => i & 0xff));
      for (const sub of [0, 2, 5]) {
        const doc = { b: new Binary(data, sub) };
        expect(hex(encodedByUs(doc)!)).toBe(hex(serializeViaJsBson(doc)));
      }
    }
  });

  it('writes only the used part of a Binary whose buffer is larger', () => {
    const grown = new Binary();
    grown.put(7);
    grown.put(9);
    expect(grown.buffer.length).toBeGreaterThan(2);
    expect(field(grown)).toBe('05|02000000000709');
    const big = new Binary();
    big.write(Buffer.alloc(20, 1), 0);
    expect(hex(encodedByUs({ big })!)).toBe(hex(serializeViaJsBson({ big })));
  });

  it('writes multi-byte field names and keeps key order, `__proto__` and prototype-less objects included', () => {
    const withProto: Document = { a: 1 };
    Object.defineProperty(withProto, '__proto__', { value: { x: 1 }, writable: true, enumerable: true, configurable: true });
    const bare = Object.create(null) as Document;
    bare.z = 1;
    bare.y = 'two';
    const docs: Document[] = [{ 'ключ': 1, '日本': 'x', '😀': [] }, { z: 1, a: 2, m: 3, '10': 4, '2': 5 }, withProto, { bare }, bare];
    for (const doc of docs) expect(hex(encodedByUs(doc)!)).toBe(hex(serializeViaJsBson(doc)));
  });

  it('names array elements 0 to 1,000,000 as js-bson does, holes and undefined as null', () => {
    for (const n of [9, 10, 11, 99, 100, 101, 1000, 10_001]) {
      const doc = { a: Array.from({ length: n }, (_, i) => (i % 3 === 0 ? i : i % 3 === 1 ? 'x' : [i])) };
      expect(hex(encodedByUs(doc)!)).toBe(hex(serializeViaJsBson(doc)));
    }
    const big = { a: new Array<number>(1_000_001).fill(0) };
    expect(encodedByUs(big)!.equals(Buffer.from(serializeViaJsBson(big)))).toBe(true);
    // eslint-disable-next-line no-sparse-arrays
    const holes = { a: [1, , undefined, null, 2] };
    expect(hex(encodedByUs(holes)!)).toBe(hex(serializeViaJsBson(holes)));
  });

  it('writes nesting down to the walk limit itself', () => {
    // MAX_WALK_DEPTH levels below the root, documents and arrays in turn (one more: js-bson).
    let deep: unknown = { leaf: 1 };
    for (let i = MAX_WALK_DEPTH - 1; i >= 0; i--) deep = i % 2 === 0 ? { d: deep } : [deep];
    expect(hex(encodedByUs(deep as Document)!)).toBe(hex(serializeViaJsBson(deep as Document)));
    expect(encodedByUs({ one: deep })).toBeNull();
  });

  it('writes a document larger than js-bson’s 17 MB scratch buffer whole', () => {
    // js-bson truncates such a document (or throws a RangeError for a large Binary); written
    // here at its real size, it decodes back to itself.
    const doc = { s: 'x'.repeat(18 * 1024 * 1024), n: 1 };
    const bytes = encodedByUs(doc)!;
    expect(bytes.length).toBe(5 + (8 + 18 * 1024 * 1024) + 7);
    expect(bytes.readInt32LE(0)).toBe(bytes.length);
    expect(deserialize(bytes)).toEqual(doc);
  });

  it('sorts a BSONRegExp’s options as js-bson does', () => {
    const r = new BSONRegExp('x', 'i');
    r.options = 'smxi';
    expect(field(r)).toBe('0b|7800696d737800');
  });
});

describe('encoder: values left to js-bson', () => {
  class Point {
    constructor(
      readonly x: number,
      readonly y: number,
    ) {}
  }
  const circular: Document = { a: 1 };
  circular.self = { back: circular };
  let tooDeep: Document = { leaf: 1 };
  for (let i = 0; i < MAX_WALK_DEPTH + 1; i++) tooDeep = { d: tooDeep };
  const validVector = new Binary(Buffer.from([0x03, 0, 1, 2, 3]), 9);

  it.each<[string, Document]>([
    ['Code', { c: new Code('return 1') }],
    ['Code with scope', { c: new Code('return x', { x: new Int32(1) }) }],
    ['BSONSymbol', { s: new BSONSymbol('sym') }],
    ['DBRef', { r: new DBRef('coll', new ObjectId('0123456789abcdefabcdef01'), 'db', { extra: 1 }) }],
    ['Int32 wrapper', { i: new Int32(5) }],
    ['JS RegExp', { r: /a+b/gim }],
    ['Buffer', { b: Buffer.from([1, 2]) }],
    ['Uint8Array', { b: new Uint8Array([1, 2]) }],
    ['Map', { m: new Map<string, unknown>([['k', 1]]) }],
    ['class instance', { p: new Point(1, 2) }],
    ['function (skipped by js-bson)', { a: 1, f: () => 1, b: 2 }],
    ['symbol (skipped by js-bson)', { a: 1, s: Symbol('x') }],
    ['bigint', { n: 12345678901234567890n }],
    ['toBSON method', { v: { toBSON: () => ({ replaced: true }) } }],
    ['nesting past the walk limit', tooDeep],
    ['a valid vector', { v: validVector }],
  ])('%s: js-bson’s bytes', (_name, doc) => {
    expect(encodedByUs(doc)).toBeNull();
    expect(hex(serialize(doc))).toBe(hex(serializeViaJsBson(doc)));
    expect(hex(encodeDocument(doc, 2, 1).subarray(2, -1))).toBe(hex(serializeViaJsBson(doc)));
  });

  it.each<[string, Document, string]>([
    ['a key holding a NUL', { ok: 1, 'a\u0000b': 1 }, 'key a\u0000b must not contain null bytes'],
    ['a nested key holding a NUL', { d: { 'é\u0000': 1 } }, 'key é\u0000 must not contain null bytes'],
    ['a regex pattern holding a NUL', { r: new BSONRegExp('a', 'i') }, 'pattern a\u0000 must not contain null bytes'],
    ['a circular structure', circular, 'Cannot convert circular structure to BSON'],
    ['an invalid vector', { v: new Binary(Buffer.from([0x27, 9]), 9) }, ''],
  ])('%s: js-bson’s error', (name, doc, message) => {
    if (name.startsWith('a regex')) (doc.r as BSONRegExp).pattern = 'a\u0000';
    const expected = thrownBy(() => serializeViaJsBson(doc));
    expect(expected).toBeInstanceOf(BSONError);
    if (message !== '') expect(expected!.message).toBe(message);
    expect(encodedByUs(doc)).toBeNull();
    const err = thrownBy(() => serialize(doc));
    expect(err).toBeInstanceOf(expected!.constructor);
    expect(err!.message).toBe(expected!.message);
  });
});

describe('a field named _bsontype', () => {
  // mongod stores and returns such a field like any other; js-bson takes the object holding it
  // for one of its own values and refuses it, so here the encoder departs from js-bson.
  it.each<[string, Document, Buffer]>([
    ['a nested one naming a js-bson type', { d: { _bsontype: 'ObjectId', x: 1 } }, bson(el.doc('d', bson(el.string('_bsontype', 'ObjectId'), el.int32('x', 1))))],
    ['at the root, a string', { _bsontype: 'Long' }, bson(el.string('_bsontype', 'Long'))],
    ['at the root, not a string', { _bsontype: 5, a: 1 }, bson(el.int32('_bsontype', 5), el.int32('a', 1))],
  ])('%s: written like any other field', (_name, doc, expected) => {
    expect(hex(encodedByUs(doc)!)).toBe(hex(expected));
    expect(hex(serialize(doc))).toBe(hex(expected));
    expect(deserialize(serialize(doc))).toEqual(doc);
  });
});
