/**
 * The one-pass decoder (`deserialize`, src/bson/decode.ts) against the previous path
 * (`deserializeViaJsBson`: js-bson with wrappers, then the unwrapping walk): thousands of
 * seeded random documents covering every BSON type, written byte by byte here (so DBPointer,
 * duplicate names and odd array keys are covered too), must decode to the same values with the
 * same classes and key order; mutated copies must either fail or decode as the old path does;
 * and a table of malformed documents must be refused.
 */
import { describe, expect, it } from 'vitest';
import { Binary, BSONError, BSONRegExp, BSONSymbol, Code, DBRef, deserializeViaJsBson, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp, UUID } from '../../../src/bson/library.js';
import { deserialize, BSONDecodeError, MAX_BSON_DEPTH } from '../../../src/bson/decode.js';
import { serialize } from '../../../src/bson/encode.js';
import { readBsonDocument } from '../../../src/wire/read_bson.js';
import { WireError } from '../../../src/wire/wire_error.js';
import { thrownBy } from '../thrown.js';
import { i32, cstr, str, f64, elem, doc, differences, Gen } from './random_bson.js';

// ---------------------------------------------------------------------------------------------

describe('deserialize (one-pass decoder) against js-bson + walk', () => {
  it('decodes 5,000 random documents of every BSON type exactly as the old path', () => {
    const gen = new Gen(20240611);
    const seenTypes = new Set<number>();
    for (let i = 0; i < 5000; i++) {
      const bytes = gen.document(0, 8);
      collectTypes(bytes, 4, bytes.length - 1, seenTypes);
      const expected = deserializeViaJsBson(bytes);
      const actual = deserialize(bytes);
      const diff = differences(actual, expected);
      if (diff.length > 0) throw new Error(`document ${i} (${bytes.toString('hex')}): ${diff.slice(0, 5).join('; ')}`);
    }
    // Every type byte BSON has was generated at least once.
    expect([...seenTypes].sort((x, y) => x - y)).toEqual([
      0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x7f, 0xff,
    ]);
  });

  it('gives mutated documents the old result or refuses them with a BSONError', () => {
    // Truncations, byte flips and length tweaks of random documents. Where the new decoder
    // accepts, the old one accepts the same thing; the other way round only the cases named below.
    const gen = new Gen(7);
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const bytes = Buffer.from(gen.document(0, 5));
      const mutated = mutate(gen, bytes);
      const err = thrownBy(() => deserialize(mutated));
      const oldErr = thrownBy(() => deserializeViaJsBson(mutated));
      if (err === undefined) {
        expect(oldErr, mutated.toString('hex')).toBeUndefined();
        const diff = differences(deserialize(mutated), deserializeViaJsBson(mutated));
        if (diff.length > 0) throw new Error(`mutation ${i} (${mutated.toString('hex')}): ${diff.slice(0, 5).join('; ')}`);
      } else {
        refused++;
        expect(err, mutated.toString('hex')).toBeInstanceOf(BSONError);
        expect(oldErr, `old path accepted ${mutated.toString('hex')}: ${err.message}`).toBeDefined();
      }
    }
    expect(refused).toBeGreaterThan(1000);
  });

  it('decodes the documents a driver sends as the old path', () => {
    const lsid = { id: new UUID('0123456789abcdef0123456789abcdef') };
    const docs = [
      { find: 'c', filter: { k: 5, name: { $in: ['a', 'b'] } }, sort: { k: -1 }, limit: 1, lsid, $db: 'test' },
      { insert: 'c', documents: Array.from({ length: 50 }, (_, k) => ({ _id: new ObjectId(), k, name: 'user' + k, n: 1 })), ordered: true, lsid, $db: 'test' },
      { a: new Double(1), b: 1.5, c: new Double(2 ** 31), d: new Int32(7), e: Long.fromNumber(2 ** 40), f: -0, g: NaN, h: [Infinity, -Infinity, [new Double(0)]] },
      { t: new Timestamp({ t: 1700000000, i: 3 }), r: new BSONRegExp('^a', 'i'), s: new BSONSymbol('sym'), m: new MinKey(), x: new MaxKey(), u: undefined, z: null },
      { c1: new Code('f()'), c2: new Code('g()', { n: 1, d: new Double(2.5), nested: { $ref: 'c', $id: 1 } }), bin: new Binary(Buffer.from([1, 2, 3]), 0x80) },
    ];
    for (const d of docs) {
      const bytes = serialize(d);
      expect(differences(deserialize(bytes), deserializeViaJsBson(bytes))).toEqual([]);
    }
  });
});

describe('deserialize: values', () => {
  it('gives numbers, Double wrappers only for integral doubles within int32, and Long', () => {
    const got = deserialize(serialize({ i: new Int32(-5), d1: new Double(1), d2: 1.5, d3: new Double(2 ** 31), d4: new Double(-0), l: Long.fromNumber(5) }));
    expect(got.i).toBe(-5);
    expect(got.d1).toBeInstanceOf(Double);
    expect((got.d1 as Double).value).toBe(1);
    expect(got.d2).toBe(1.5);
    expect(got.d3).toBe(2 ** 31);
    expect(Object.is(got.d4, -0)).toBe(true);
    expect(got.l).toBeInstanceOf(Long);
    expect((got.l as Long).toNumber()).toBe(5);
  });

  it('returns a 16-byte subtype 4 Binary as a UUID and every other Binary as Binary', () => {
    const got = deserialize(doc(
      elem(0x05, 'u', Buffer.concat([i32(16), Buffer.from([4]), Buffer.alloc(16, 7)])),
      elem(0x05, 'short', Buffer.concat([i32(3), Buffer.from([4]), Buffer.alloc(3, 7)])),
      elem(0x05, 'old', Buffer.concat([i32(7), Buffer.from([2]), i32(3), Buffer.from([1, 2, 3])])),
    ));
    expect(got.u).toBeInstanceOf(UUID);
    expect(Buffer.from((got.u as UUID).buffer).toString('hex')).toBe('07'.repeat(16));
    expect(Object.getPrototypeOf(got.short)).toBe(Binary.prototype);
    expect((got.short as Binary).sub_type).toBe(4);
    expect(Object.getPrototypeOf(got.old)).toBe(Binary.prototype);
    expect([(got.old as Binary).sub_type, [...(got.old as Binary).buffer]]).toEqual([2, [1, 2, 3]]);
  });

  it('makes a __proto__ field an own property and leaves the prototype alone', () => {
    const got = deserialize(doc(elem(0x03, '__proto__', doc(elem(0x10, 'polluted', i32(1)))), elem(0x10, 'a', i32(2))));
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')!.value).toEqual({ polluted: 1 });
    expect((got as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('keeps DBRef-shaped documents as sent (the old path reordered and rewrote them)', () => {
    const cases: Array<[Buffer, string]> = [
      [doc(elem(0x10, '$id', i32(1)), elem(0x02, '$ref', str('c'))), '{"$id":1,"$ref":"c"}'],
      [doc(elem(0x02, '$ref', str('a.b')), elem(0x10, '$id', i32(1))), '{"$ref":"a.b","$id":1}'],
      [doc(elem(0x02, '$ref', str('c')), elem(0x10, '$id', i32(1)), elem(0x02, '$db', str(''))), '{"$ref":"c","$id":1,"$db":""}'],
      [doc(elem(0x02, '$ref', str('c')), elem(0x10, '$id', i32(1)), elem(0x10, 'x', i32(2)), elem(0x02, '$db', str('d'))), '{"$ref":"c","$id":1,"x":2,"$db":"d"}'],
    ];
    for (const [bytes, json] of cases) {
      expect(JSON.stringify(deserialize(doc(elem(0x03, 'r', bytes))).r)).toBe(json);
      expect(JSON.stringify(deserialize(bytes))).toBe(json);
    }
    const withProto = deserialize(doc(elem(0x02, '$ref', str('c')), elem(0x10, '$id', i32(1)), elem(0x03, '__proto__', doc(elem(0x10, 'p', i32(1))))));
    expect(Object.getPrototypeOf(withProto)).toBe(Object.prototype);
    expect(Object.keys(withProto)).toEqual(['$ref', '$id', '__proto__']);
  });

  it('turns a DBPointer into the plain {$ref, $id, $db} the old path made', () => {
    const oid = Buffer.from('0123456789abcdef01234567', 'hex');
    const got = deserialize(doc(elem(0x0c, 'p', Buffer.concat([str('db.coll'), oid])), elem(0x0c, 'q', Buffer.concat([str('coll'), oid]))));
    expect(got).toEqual({ p: { $ref: 'coll', $id: new ObjectId(oid), $db: 'db' }, q: { $ref: 'coll', $id: new ObjectId(oid) } });
    expect(Object.getPrototypeOf(got.p)).toBe(Object.prototype);
  });

  it('keeps js-bson values inside a Code scope', () => {
    const scope = doc(elem(0x10, 'i', i32(1)), elem(0x01, 'd', f64(1.5)), elem(0x03, 'r', doc(elem(0x02, '$ref', str('c')), elem(0x10, '$id', i32(1)))));
    const code = str('f()');
    const got = deserialize(doc(elem(0x0f, 'c', Buffer.concat([i32(4 + code.length + scope.length), code, scope])))).c as Code;
    expect(got).toBeInstanceOf(Code);
    expect(got.code).toBe('f()');
    expect(got.scope!.i).toEqual(new Int32(1));
    expect(got.scope!.d).toEqual(new Double(1.5));
    expect(got.scope!.r).toBeInstanceOf(DBRef);
  });

  it('decodes strings of every UTF-8 length and empty names', () => {
    const chars = [...'aé日😀'.repeat(20)];
    for (let n = 0; n <= chars.length; n++) {
      const v = chars.slice(0, n).join('');
      expect(deserialize(doc(elem(0x02, '', str(v))))).toEqual({ '': v });
    }
  });

  it('accepts nesting up to 200 levels and refuses deeper with Overflow', () => {
    const nested = (levels: number): Buffer => {
      let d = doc();
      for (let k = 0; k < levels; k++) d = doc(elem(k % 2 ? 0x04 : 0x03, k % 2 ? '0' : 'a', d));
      return d;
    };
    let v: unknown = deserialize(nested(MAX_BSON_DEPTH));
    let levels = 0;
    while (v !== null && typeof v === 'object' && Object.keys(v).length > 0) {
      v = Object.values(v)[0];
      levels++;
    }
    expect(levels).toBe(MAX_BSON_DEPTH);
    const err = thrownBy(() => deserialize(nested(MAX_BSON_DEPTH + 1))) as BSONDecodeError;
    expect(err).toBeInstanceOf(BSONDecodeError);
    expect(err.code).toBe(15);
    const path = Array.from({ length: MAX_BSON_DEPTH + 1 }, (_, k) => ((MAX_BSON_DEPTH - k) % 2 ? '0' : 'a')).join('.');
    expect(err.message).toBe(`BSONObj exceeds maximum nested object depth in element with field name '${path}' in object with unknown _id`);
    const withId = doc(elem(0x10, '_id', i32(7)), elem(0x03, 'x', nested(MAX_BSON_DEPTH)));
    expect((thrownBy(() => deserialize(withId)) as Error).message).toMatch(/' in object with _id: 7$/);
  });

  it('does not keep the request buffer alive or mix up consecutive calls', () => {
    const a = deserialize(doc(elem(0x02, 'name', str('first'))));
    expect(thrownBy(() => deserialize(doc(elem(0x20, 'bad'))))).toBeInstanceOf(BSONDecodeError);
    const b = deserialize(doc(elem(0x02, 'name', str('second'))));
    expect([a, b]).toEqual([{ name: 'first' }, { name: 'second' }]);
  });
});

describe('deserialize: malformed input', () => {
  const ok = doc(elem(0x10, 'a', i32(1)));
  const withSize = (b: Buffer, size: number): Buffer => {
    const c = Buffer.from(b);
    c.writeInt32LE(size, 0);
    return c;
  };
  const stringEl = (declared: number, body: Buffer): Buffer => elem(0x02, 's', Buffer.concat([i32(declared), body]));
  const cases: Array<[string, Buffer, string]> = [
    ['shorter than 5 bytes', Buffer.from([4, 0, 0, 0]), 'corrupt bson message < 5 bytes long'],
    ['declared size below 5', withSize(ok, 4), 'bson size must be >= 5, is 4'],
    ['declared size above the bytes', withSize(ok, ok.length + 1), `buffer length ${ok.length} must === bson size ${ok.length + 1}`],
    ['declared size below the bytes', withSize(ok, ok.length - 1), `buffer length ${ok.length} must === bson size ${ok.length - 1}`],
    ['truncated (size adjusted)', withSize(ok.subarray(0, ok.length - 2), ok.length - 2), 'BSON element value extends past the end of the buffer'],
    ['no terminator', Buffer.concat([i32(6), Buffer.from([0x0a, 0x61])]), "One object, sized correctly, with a spot for an EOO, but the EOO isn't 0x00"],
    ['unknown type 0x20', doc(elem(0x20, 'a')), 'Detected unknown BSON type 20 for fieldname "a"'],
    ['unknown type in an array', doc(elem(0x04, 'arr', doc(elem(0x0a, '0'), elem(0x14, '1')))), 'Detected unknown BSON type 14 for fieldname "1"'],
    ['boolean byte 2', doc(elem(0x08, 'b', Buffer.from([2]))), 'illegal boolean type value'],
    ['string without NUL', doc(stringEl(3, Buffer.from('abc'))), 'bad string length in bson'],
    ['string length 0', doc(stringEl(0, Buffer.from([0]))), 'bad string length in bson'],
    ['string length negative', doc(stringEl(-1, Buffer.from([0]))), 'bad string length in bson'],
    ['string longer than the document', doc(stringEl(50, Buffer.from('ab\0'))), 'bad string length in bson'],
    ['string running into the terminator', doc(stringEl(3, Buffer.from('a\0'))), 'bad string length in bson'],
    ['invalid UTF-8 (lone continuation byte)', doc(stringEl(3, Buffer.from([0x61, 0x80, 0]))), 'Invalid UTF-8 string in BSON document'],
    ['invalid UTF-8 (overlong)', doc(stringEl(3, Buffer.from([0xc0, 0xaf, 0]))), 'Invalid UTF-8 string in BSON document'],
    ['invalid UTF-8 (surrogate)', doc(stringEl(4, Buffer.from([0xed, 0xa0, 0x80, 0]))), 'Invalid UTF-8 string in BSON document'],
    ['invalid UTF-8 (truncated 4-byte)', doc(stringEl(25, Buffer.concat([Buffer.from('x'.repeat(21)), Buffer.from([0xf0, 0x9f, 0x98, 0])]))), 'Invalid UTF-8 string in BSON document'],
    ['invalid UTF-8 in a symbol', doc(elem(0x0e, 's', Buffer.concat([i32(2), Buffer.from([0xff, 0])]))), 'Invalid UTF-8 string in BSON document'],
    ['invalid UTF-8 in code', doc(elem(0x0d, 's', Buffer.concat([i32(2), Buffer.from([0xff, 0])]))), 'Invalid UTF-8 string in BSON document'],
    ['name without NUL', Buffer.concat([i32(8), Buffer.from([0x0a, 0x61, 0x62, 0])]), 'Bad BSON Document: illegal CString'],
    ['int32 cut short', Buffer.concat([i32(9), Buffer.from([0x10, 0x61, 0, 1, 0, 0]), Buffer.from([0])]).subarray(0, 9), 'BSON element value extends past the end of the buffer'],
    ['double cut short', withSize(Buffer.concat([Buffer.from([0, 0, 0, 0, 0x01, 0x61, 0]), Buffer.alloc(4), Buffer.from([0])]), 12), 'BSON element value extends past the end of the buffer'],
    ['ObjectId cut short', withSize(Buffer.concat([Buffer.from([0, 0, 0, 0, 0x07, 0x61, 0]), Buffer.alloc(11, 1), Buffer.from([0])]), 19), 'BSON element value extends past the end of the buffer'],
    ['embedded document size below 5', doc(elem(0x03, 'd', Buffer.concat([i32(4), Buffer.from([0])]))), 'bad embedded document length in bson'],
    ['embedded document past its parent', doc(elem(0x03, 'd', Buffer.concat([i32(40), Buffer.from([0])]))), 'bad embedded document length in bson'],
    ['embedded document not terminated', doc(elem(0x03, 'd', Buffer.concat([i32(6), Buffer.from([0x0a, 0x61])]))), 'Bad BSON Document: object not properly terminated'],
    ['embedded document ending early', doc(elem(0x03, 'd', Buffer.concat([i32(7), Buffer.from([0, 0, 0])]))), 'Bad BSON Document: object not properly terminated'],
    ['embedded array size below 5', doc(elem(0x04, 'd', Buffer.concat([i32(3), Buffer.from([0])]))), 'bad embedded array length in bson'],
    ['embedded array ending early', doc(elem(0x04, 'd', Buffer.concat([i32(7), Buffer.from([0, 0, 0])]))), 'corrupted array bson'],
    ['element running past its embedded document', doc(elem(0x03, 'd', Buffer.concat([i32(8), Buffer.from([0x10, 0x61, 0]), Buffer.from([0])])), elem(0x0a, 'z', Buffer.alloc(0))), 'BSON element value extends past the end of the buffer'],
    ['binary negative size', doc(elem(0x05, 'b', Buffer.concat([i32(-1), Buffer.from([0])]))), 'Negative binary type element size found'],
    ['binary past the document', doc(elem(0x05, 'b', Buffer.concat([i32(30), Buffer.from([0]), Buffer.alloc(3)]))), 'Binary type size larger than document size'],
    ['binary subtype 2 inner size too long', doc(elem(0x05, 'b', Buffer.concat([i32(6), Buffer.from([2]), i32(3), Buffer.alloc(2)]))), 'Binary type with subtype 0x02 contains too long binary size'],
    ['binary subtype 2 inner size too short', doc(elem(0x05, 'b', Buffer.concat([i32(6), Buffer.from([2]), i32(1), Buffer.alloc(2)]))), 'Binary type with subtype 0x02 contains too short binary size'],
    ['regex pattern without NUL', doc(elem(0x0b, 'r', Buffer.from('abc'))), 'Bad BSON Document: illegal CString'],
    ['regex options without NUL', doc(elem(0x0b, 'r', Buffer.from('abc\0i'))), 'Bad BSON Document: illegal CString'],
    ['regex with an unknown flag', doc(elem(0x0b, 'r', Buffer.concat([cstr('a'), cstr('q')]))), 'The regular expression option [q] is not supported'],
    ['code_w_scope total below minimum', doc(elem(0x0f, 'c', Buffer.concat([i32(12), str(''), doc()]))), 'code_w_scope total size shorter minimum expected length'],
    ['code_w_scope total too short', doc(elem(0x0f, 'c', Buffer.concat([i32(13), str('ab'), doc()]))), 'code_w_scope total size is too short, truncating scope'],
    ['code_w_scope total too long', doc(elem(0x0f, 'c', Buffer.concat([i32(20), str(''), doc()]))), 'code_w_scope total size is too long, clips outer document'],
    ['code_w_scope scope size bad', doc(elem(0x0f, 'c', Buffer.concat([i32(14), str(''), i32(3), Buffer.from([0])]))), 'bad scope document size in code_w_scope'],
    ['DBPointer cut short', doc(elem(0x0c, 'p', Buffer.concat([str('a.b'), Buffer.alloc(5)]))), 'BSON element value extends past the end of the buffer'],
    ['root ending before its size', Buffer.concat([i32(8), Buffer.from([0, 0x0a, 0x61, 0])]), 'Bad BSON Document: object not properly terminated'],
  ];

  it.each(cases)('refuses %s', (_label, bytes, message) => {
    const err = thrownBy(() => deserialize(bytes));
    expect(err).toBeInstanceOf(BSONError);
    expect(err!.message).toContain(message);
    // The old path refused all of them too.
    expect(thrownBy(() => deserializeViaJsBson(bytes))).toBeInstanceOf(Error);
  });

  it('answers InvalidBSON on the wire, Overflow for nesting', () => {
    const bad = doc(elem(0x08, 'b', Buffer.from([2])));
    const err = thrownBy(() => readBsonDocument(bad, 0, bad.length)) as WireError;
    expect(err).toBeInstanceOf(WireError);
    expect([err.code, err.message, err.closeConnection]).toEqual([22, 'illegal boolean type value', false]);
    let deep = doc();
    for (let k = 0; k <= MAX_BSON_DEPTH; k++) deep = doc(elem(0x03, 'a', deep));
    const over = thrownBy(() => readBsonDocument(deep, 0, deep.length)) as WireError;
    expect([over.code, over.codeName, over.closeConnection]).toEqual([15, 'Overflow', false]);
  });
});

/** The type bytes of every element in the document body from `start` to `end` (exclusive). */
function collectTypes(b: Buffer, start: number, end: number, into: Set<number>): void {
  let p = start;
  while (p < end && b[p] !== 0) {
    const type = b[p]!;
    into.add(type);
    p = b.indexOf(0, p + 1) + 1;
    const size = p + 4 <= b.length ? b.readInt32LE(p) : 0;
    switch (type) {
      case 0x01: case 0x09: case 0x11: case 0x12: p += 8; break;
      case 0x02: case 0x0d: case 0x0e: p += 4 + size; break;
      case 0x03: case 0x04: collectTypes(b, p + 4, p + size - 1, into); p += size; break;
      case 0x05: p += 5 + size; break;
      case 0x07: p += 12; break;
      case 0x08: p += 1; break;
      case 0x0b: p = b.indexOf(0, b.indexOf(0, p) + 1) + 1; break;
      case 0x0c: p += 4 + size + 12; break;
      case 0x0f: {
        const codeSize = b.readInt32LE(p + 4);
        const scope = p + 8 + codeSize;
        collectTypes(b, scope + 4, scope + b.readInt32LE(scope) - 1, into);
        p += size;
        break;
      }
      case 0x10: p += 4; break;
      case 0x13: p += 16; break;
      default: break; // 0x06, 0x0a, 0x7f, 0xff: no value
    }
  }
}

/** A random corruption of `bytes`: truncation, byte flips or a nudged int32. */
function mutate(gen: Gen, bytes: Buffer): Buffer {
  const b = Buffer.from(bytes);
  switch (gen.int(4)) {
    case 0: {
      const cut = b.subarray(0, Math.max(5, gen.int(b.length)));
      const c = Buffer.from(cut);
      c.writeInt32LE(c.length, 0);
      c[c.length - 1] = 0;
      return c;
    }
    case 1: {
      const flips = 1 + gen.int(3);
      for (let k = 0; k < flips; k++) if (b.length > 5) b[4 + gen.int(b.length - 5)] = gen.int(256);
      return b;
    }
    case 2: {
      if (b.length > 9) {
        const at = 4 + gen.int(b.length - 9);
        b.writeInt32LE((b.readInt32LE(at) + gen.pick([-2, -1, 1, 2, 100, -100])) | 0, at);
      }
      return b;
    }
    default: {
      if (b.length > 5) b[4 + gen.int(b.length - 5)] = gen.pick([0, 0x20, 0x80, 0xff, 0x7f, 0x08, 0x13]);
      return b;
    }
  }
}
