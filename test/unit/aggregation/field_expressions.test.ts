import { describe, expect, it } from 'vitest';
import { Double, Long, type Document } from '../../../src/bson/library.js';
import { ExpressionContext } from '../../../src/storage/expression/context.js';
import { compilePipeline } from '../../../src/storage/aggregation/pipeline.js';
import { newPipelineContext } from '../../../src/storage/aggregation/pipeline_context.js';
import { expectCommandError, expectExact } from './helpers.js';

const CTX = { now: new Date(1_700_000_000_000) };
/** A document with the names field paths cannot reach (mongod's jstests use the same ones). */
const DOC: Document = {
  _id: 0,
  x: 1,
  'a$b': 'foo',
  'a.b': 'bar',
  '$a': 10,
  '$x..$y': { '$a': 1, '$b..$c': 2 },
  c: { d: 'x' },
  e: { '$f': 30 },
  n: null,
  s: 'x',
  i: 5,
};

function evaluate(expr: unknown, doc: Document = DOC): unknown {
  return new ExpressionContext(CTX).compile(expr)(doc);
}

function table(cases: Array<[string, unknown, unknown]>): void {
  for (const [name, expr, expected] of cases) {
    it(name, () => expectExact({ v: evaluate(expr) }, { v: expected }));
  }
}

describe('$getField', () => {
  table([
    ['a plain name reads $$CURRENT', { $getField: 'x' }, 1],
    ['a dotted name is one field, not a path', { $getField: 'a.b' }, 'bar'],
    ['a $-name through $literal', { $getField: { $literal: '$a' } }, 10],
    ['a $-name through $const', { $getField: { $const: '$x..$y' } }, { '$a': 1, '$b..$c': 2 }],
    ['the object form', { $getField: { field: 'a', input: { a: 'b' } } }, 'b'],
    ['the object form with a $-name and a path input', { $getField: { field: { $literal: '$f' }, input: '$e' } }, 30],
    ['nested $getField', { $getField: { field: { $literal: '$a' }, input: { $getField: { $literal: '$x..$y' } } } }, 1],
    ['a dynamic field name (8.2): $s is "x", so field x', { $getField: '$s' }, 1],
    ['a dynamic field name from an expression', { $getField: { field: { $concat: ['a', 'b'] }, input: { ab: 7 } } }, 7],
    ['a null input is null', { $getField: { field: 'a', input: null } }, null],
    ['a null field value is null', { $getField: 'n' }, null],
    ['a nested null input path is null', { $getField: { field: 'a', input: '$n' } }, null],
  ]);
  it('a missing field is missing', () => expect(evaluate({ $getField: 'nope' })).toBe(undefined));
  it('a missing input is missing', () => expect(evaluate({ $getField: { field: 'a', input: '$nope' } })).toBe(undefined));
  it('a non-object input is missing', () => expect(evaluate({ $getField: { field: 'a', input: true } })).toBe(undefined));
  it('the dotted name is not a path into sub-documents', () =>
    expect(evaluate({ $getField: { field: 'a.b.c', input: { a: { b: { c: 5 } } } } })).toBe(undefined));

  const parseErrors: Array<[string, unknown, number, string]> = [
    ['an unknown argument', { field: 'a', input: {}, k: 1 }, 3041701, '$getField found an unknown argument: k'],
    ['an unknown argument first', { k: 1 }, 3041701, '$getField found an unknown argument: k'],
    ['no field', { input: { a: 'b' } }, 3041702, "$getField requires 'field' to be specified"],
    ['an empty object', {}, 3041702, "$getField requires 'field' to be specified"],
    ['no input in the object form', { field: 'a' }, 3041703, "$getField requires 'input' to be specified"],
  ];
  for (const [name, arg, code, message] of parseErrors) {
    it(`compile: ${name}`, () => expectCommandError(() => new ExpressionContext(CTX).compile({ $getField: arg }), code, message));
  }
  const runErrors: Array<[string, unknown, string]> = [
    ['a number', 5, 'int'],
    ['a boolean field', { field: true, input: { a: 'b' } }, 'bool'],
    ['null', { field: null, input: {} }, 'null'],
    ['an array', { $const: [] }, 'array'],
    ['a field path to an int', '$i', 'int'],
    ['a field path to nothing', '$nope', 'missing'],
  ];
  for (const [name, arg, type] of runErrors) {
    it(`run: field is ${name}`, () =>
      expectCommandError(() => evaluate({ $getField: arg }), 3041704, `$getField requires 'field' to evaluate to type String, but got ${type}`));
  }
});

describe('$setField and $unsetField', () => {
  table([
    ['replaces a field in place', { $setField: { field: 'a', input: { a: 'b', z: 1 }, value: 24 } }, { a: 24, z: 1 }],
    ['appends a new field', { $setField: { field: 'a', input: { b: 'b' }, value: 24 } }, { b: 'b', a: 24 }],
    ['a dotted name is one field', { $setField: { field: 'a.b.c', input: { a: { b: { c: 5 } } }, value: 1 } }, { a: { b: { c: 5 } }, 'a.b.c': 1 }],
    ['a $-name through $literal', { $setField: { field: { $literal: '$a' }, input: {}, value: 1 } }, { '$a': 1 }],
    ['a $-name through $const', { $setField: { field: { $const: '$b.b' }, input: { $const: { '$b.b': 5 } }, value: 12345 } }, { '$b.b': 12345 }],
    ['$$REMOVE removes the field', { $setField: { field: 'a', input: { a: 'b', c: 1 }, value: '$$REMOVE' } }, { c: 1 }],
    ['a missing value removes the field', { $setField: { field: 'a', input: { a: 'b' }, value: '$nope' } }, {}],
    ['the value is an expression on $$ROOT', { $setField: { field: 'y', input: {}, value: '$x' } }, { y: 1 }],
    ['value types are kept', { $setField: { field: 'y', input: {}, value: new Double(2) } }, { y: new Double(2) }],
    ['a null input gives null', { $setField: { field: 'a', input: null, value: 0 } }, null],
    ['a missing input gives null', { $setField: { field: 'a', input: '$nope', value: 0 } }, null],
    ['nested: $setField of a $getField', {
      $setField: {
        field: { $const: '$x..$y' },
        input: {},
        value: { $setField: { field: { $const: '$a' }, input: { $getField: { $const: '$x..$y' } }, value: 'forget-me-not' } },
      },
    }, { '$x..$y': { '$a': 'forget-me-not', '$b..$c': 2 } }],
    ['$unsetField removes', { $unsetField: { field: { $literal: '$a' }, input: '$$ROOT' } }, {
      _id: 0, x: 1, 'a$b': 'foo', 'a.b': 'bar', '$x..$y': { '$a': 1, '$b..$c': 2 }, c: { d: 'x' }, e: { '$f': 30 }, n: null, s: 'x', i: 5,
    }],
    ['$unsetField of an absent field', { $unsetField: { field: 'q', input: { b: 1 } } }, { b: 1 }],
    ['$unsetField of a null input', { $unsetField: { field: 'q', input: null } }, null],
  ]);
  it('the input document is not modified', () => {
    const input = { a: 1 };
    evaluate({ $setField: { field: 'a', input: '$$ROOT', value: 2 } }, input);
    expect(input).toEqual({ a: 1 });
  });

  const parseErrors: Array<[string, string, unknown, number, string]> = [
    ['not an object (number)', '$setField', 5, 4161100, '$setField only supports an object as its argument'],
    ['not an object (string)', '$unsetField', 'foo', 4161100, '$unsetField only supports an object as its argument'],
    ['an operator as argument', '$setField', { $add: [2, 3] }, 4161101, '$setField found an unknown argument: $add'],
    ['an unknown argument before a missing value', '$setField', { field: 'a', input: { a: 'b' }, unknown: true }, 4161101, '$setField found an unknown argument: unknown'],
    ['value given to $unsetField', '$unsetField', { field: 'a', value: 'foo' }, 4161101, '$unsetField found an unknown argument: value'],
    ['no field', '$setField', { value: 'a', input: { a: 'b' } }, 4161102, "$setField requires 'field' to be specified"],
    ['nothing', '$unsetField', {}, 4161102, "$unsetField requires 'field' to be specified"],
    ['no value', '$setField', { field: 'a', input: { a: 'b' } }, 4161103, "$setField requires 'value' to be specified"],
    ['no input (checked before the field type)', '$setField', { field: null, value: 0 }, 4161109, "$setField requires 'input' to be specified"],
    ['no input for $unsetField', '$unsetField', { field: 'foo' }, 4161109, "$unsetField requires 'input' to be specified"],
    ['a bool field', '$setField', { field: true, input: { a: 'b' }, value: 24 }, 4161107, "$setField requires 'field' to evaluate to type String, but got bool"],
    ['an int field', '$unsetField', { field: 33, input: 33 }, 4161107, "$unsetField requires 'field' to evaluate to type String, but got int"],
    ['a null field', '$setField', { field: null, input: {}, value: 0 }, 4161107, "$setField requires 'field' to evaluate to type String, but got null"],
    ['a $literal non-string field', '$setField', { field: { $literal: Long.fromNumber(1) }, input: {}, value: 0 }, 4161107, "$setField requires 'field' to evaluate to type String, but got long"],
    ['an object literal field', '$setField', { field: { a: 1 }, input: { a: 1 }, value: 24 }, 4161106, "$setField requires 'field' to evaluate to a constant, but got a non-constant argument"],
    ['an operator field', '$unsetField', { field: { $concat: ['a.b', '.', 'c'] }, input: {} }, 4161106, "$unsetField requires 'field' to evaluate to a constant, but got a non-constant argument"],
    ['an array field', '$setField', { field: ['a'], input: {}, value: 1 }, 4161106, "$setField requires 'field' to evaluate to a constant, but got a non-constant argument"],
    ['a field path', '$setField', { field: '$field_path', input: {}, value: 0 }, 4161108, "'$CURRENT.field_path' is a field path reference which is not allowed in this context. Did you mean {$literal: '$CURRENT.field_path'}?"],
    ['a variable', '$unsetField', { field: '$$ROOT.a', input: {} }, 4161108, "'$ROOT.a' is a field path reference which is not allowed in this context. Did you mean {$literal: '$ROOT.a'}?"],
    ['a bad operand is reported first', '$setField', { field: 'a', input: { $nope: 1 }, value: 1 }, 168, "Unrecognized expression '$nope'"],
  ];
  for (const [name, op, arg, code, message] of parseErrors) {
    it(`compile ${op}: ${name}`, () => expectCommandError(() => new ExpressionContext(CTX).compile({ [op]: arg }), code, message));
  }
  it('run: a non-object input', () =>
    expectCommandError(() => evaluate({ $setField: { field: 'a', input: true, value: 24 } }), 4161105, "$setField requires 'input' to evaluate to type Object"));
  it('run: $unsetField reports as $setField (it is an alias)', () =>
    expectCommandError(() => evaluate({ $unsetField: { field: 'a', input: '$x' } }), 4161105, "$setField requires 'input' to evaluate to type Object"));

  it('in a stage, parse errors carry the stage context', () =>
    expectCommandError(
      () => compilePipeline([{ $project: { test: { $setField: { field: 33, input: 33, value: 24 } } } }], newPipelineContext(CTX)),
      4161107,
      "Invalid $project :: caused by :: $setField requires 'field' to evaluate to type String, but got int",
    ));
  it('$replaceWith $setField on $$ROOT writes a $-prefixed top-level field', () =>
    expectExact(
      Array.from(compilePipeline([{ $replaceWith: { $setField: { field: { $literal: '$a' }, value: 1, input: '$$ROOT' } } }], newPipelineContext(CTX))([{ _id: 1, foo: {} }])),
      [{ _id: 1, foo: {}, '$a': 1 }],
    ));
  it('$set of an embedded dotted field', () =>
    expectExact(
      Array.from(compilePipeline([{ $set: { foo: { $setField: { field: { $literal: 'a.b' }, value: 1, input: '$foo' } } } }], newPipelineContext(CTX))([{ _id: 1, foo: {} }])),
      [{ _id: 1, foo: { 'a.b': 1 } }],
    ));
});

describe('$literal with dotted and $-prefixed field names', () => {
  table([
    ['an object with $-names and dots is kept as it is', { $literal: { '$a': 1, 'b.c': { '$d': 2 } } }, { '$a': 1, 'b.c': { '$d': 2 } }],
    ['$const likewise', { $const: { 'x.y': '$z' } }, { 'x.y': '$z' }],
  ]);
  it('$addFields a literal with such names', () =>
    expectExact(
      Array.from(compilePipeline([{ $addFields: { v: { $literal: { '$x': 1, 'y.z': 2 } } } }], newPipelineContext(CTX))([{ _id: 1 }])),
      [{ _id: 1, v: { '$x': 1, 'y.z': 2 } }],
    ));
  it('$project a literal with such names', () =>
    expectExact(
      Array.from(compilePipeline([{ $project: { _id: 0, v: { $literal: { '$x': 1, 'y.z': 2 } } } }], newPipelineContext(CTX))([{ _id: 1 }])),
      [{ v: { '$x': 1, 'y.z': 2 } }],
    ));
  it('each evaluation returns a fresh copy', () => {
    const ev = new ExpressionContext(CTX).compile({ $literal: { a: { b: 1 } } });
    const first = ev({}) as Document;
    (first.a as Document).b = 2;
    expectExact(ev({}), { a: { b: 1 } });
  });
});

describe('$rand', () => {
  it('is a Double in [0, 1), different each time', () => {
    const ev = new ExpressionContext(CTX).compile({ $rand: {} });
    const values = Array.from({ length: 20 }, () => ev({}) as number);
    for (const v of values) {
      expect(typeof v).toBe('number');
      expect(v >= 0 && v < 1).toBe(true);
    }
    expect(new Set(values).size > 1).toBe(true);
  });
  it('accepts an empty array', () => expect(typeof new ExpressionContext(CTX).compile({ $rand: [] })({})).toBe('number'));
  for (const [name, arg] of [['a number', 0], ['a string', 'x'], ['true', true], ['null', null]] as const) {
    it(`refuses ${name}`, () =>
      expectCommandError(() => new ExpressionContext(CTX).compile({ $rand: arg }), 10065, 'invalid parameter: expected an object ($rand)'));
  }
  it('refuses arguments', () =>
    expectCommandError(() => new ExpressionContext(CTX).compile({ $rand: { a: 1 } }), 3040501, '$rand does not currently accept arguments'));
  it('refuses array arguments', () =>
    expectCommandError(() => new ExpressionContext(CTX).compile({ $rand: [1] }), 3040501, '$rand does not currently accept arguments'));
});
