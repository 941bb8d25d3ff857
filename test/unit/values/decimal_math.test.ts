/**
 * `values/decimal_math.ts` at its edges: decimal.js ⇄ Decimal128 parts, the 34-digit
 * half-even results mongod documents (`$sqrt` of 2, `$exp` of 1, ...), exact results written
 * short, underflow to 0E-6176, and IEEE quantize.
 */
import { describe, expect, it } from 'vitest';
import { Decimal128 } from '../../../src/bson/library.js';
import { decodeDecimal } from '../../../src/storage/values/decimal.js';
import {
  decimalAtan2,
  decimalJsToParts,
  decimalLog,
  decimalPow,
  decimalSigmoid,
  decimalUnary,
  partsToDecimalJs,
  partsToDouble,
  quantizeParts,
} from '../../../src/storage/values/decimal_math.js';

const dec = (s: string) => Decimal128.fromString(s);
const text = (d: Decimal128) => d.toString();

describe('conversion', () => {
  it('round-trips finite parts exactly', () => {
    const p = decodeDecimal(dec('-1.234500E-20'));
    expect(decimalJsToParts(partsToDecimalJs(p))).toEqual({ kind: 'finite', negative: true, coefficient: 12345n, exponent: -24 });
  });
  it('keeps -0, the infinities and NaN', () => {
    expect(decimalJsToParts(partsToDecimalJs(decodeDecimal(dec('-0'))))).toEqual({ kind: 'finite', negative: true, coefficient: 0n, exponent: 0 });
    expect(decimalJsToParts(partsToDecimalJs({ kind: 'inf', negative: true }))).toEqual({ kind: 'inf', negative: true });
    expect(decimalJsToParts(partsToDecimalJs({ kind: 'nan' }))).toEqual({ kind: 'nan' });
  });
  it('converts parts to the nearest double', () => {
    expect(partsToDouble({ kind: 'finite', negative: true, coefficient: 15n, exponent: -1 })).toBe(-1.5);
    expect(partsToDouble({ kind: 'inf', negative: false })).toBe(Infinity);
  });
});

describe('unary functions', () => {
  const rows: Array<[string, Parameters<typeof decimalUnary>[0], string, string]> = [
    ['sqrt of 2 (manual)', 'sqrt', '2', '1.414213562373095048801688724209698'],
    ['sqrt of a square is exact', 'sqrt', '4', '2'],
    ['sqrt of 0.5 keeps its 34 digits', 'sqrt', '0.5', '0.7071067811865475244008443621048490'],
    ['sqrt of 1.00 at the preferred exponent', 'sqrt', '1.00', '1.0'],
    ['sqrt of NaN', 'sqrt', 'NaN', 'NaN'],
    ['sqrt of Infinity', 'sqrt', 'Infinity', 'Infinity'],
    ['exp of 1 (manual)', 'exp', '1', '2.718281828459045235360287471352662'],
    ['exp of 0 is exactly 1', 'exp', '-0', '1'],
    ['exp of a tiny number rounds to 1', 'exp', '1E-40', '1'],
    ['exp of the smallest decimal underflows', 'exp', '-9.999999999999999999999999999999999E+6144', '0E-6176'],
    ['exp of a huge number overflows', 'exp', '1E+10', 'Infinity'],
    ['ln of 10', 'ln', '10', '2.302585092994045684017991454684364'],
    ['ln of 1 is exactly 0', 'ln', '1.000', '0'],
    ['log10 of a power of ten is exact', 'log10', '1E-5', '-5'],
    ['log10 of 2', 'log10', '2', '0.3010299956639811952137388947244930'],
    ['sin of 0 keeps the sign', 'sin', '-0', '-0'],
    ['sin of 1', 'sin', '1', '0.8414709848078965066525023216302990'],
    ['cos of 0 is exactly 1', 'cos', '0', '1'],
    ['tanh of 1', 'tanh', '1', '0.7615941559557648881194582826047936'],
  ];
  for (const [name, fn, input, expected] of rows) it(name, () => expect(text(decimalUnary(fn, dec(input)))).toBe(expected));
});

describe('binary functions', () => {
  it('pow keeps 34 digits', () => expect(text(decimalPow(dec('2'), dec('10')))).toBe('1024.000000000000000000000000000000'));
  it('pow of 2 to 100', () => expect(text(decimalPow(dec('2'), dec('100')))).toBe('1267650600228229401496703205376.000'));
  it('pow underflowing to zero is 0E-6176', () => expect(text(decimalPow(dec('-Infinity'), dec('-1')))).toBe('0E-6176'));
  it('log is ln / ln, each rounded', () => expect(text(decimalLog(dec('64'), dec('2')))).toBe('5.999999999999999999999999999999999'));
  it('atan2 of (1, 1)', () => expect(text(decimalAtan2(dec('1'), dec('1')))).toBe('0.7853981633974483096156608458198757'));
  it('atan2 of (0, 1) is 0', () => expect(text(decimalAtan2(dec('0'), dec('1')))).toBe('0'));
  it('sigmoid of 1, as mongod composes it', () => expect(text(decimalSigmoid(dec('1')))).toBe('0.7310585786300048792511592418218362'));
});

describe('quantize', () => {
  const p = (s: string) => decodeDecimal(dec(s));
  it('rounds half to even', () => {
    expect(quantizeParts(p('2.5'), 0, 'halfEven')).toEqual(p('2'));
    expect(quantizeParts(p('3.5'), 0, 'halfEven')).toEqual(p('4'));
  });
  it('rounds toward zero, +infinity and -infinity', () => {
    expect(quantizeParts(p('-2.7'), 0, 'towardZero')).toEqual(p('-2'));
    expect(quantizeParts(p('-2.1'), 0, 'towardPositive')).toEqual(p('-2'));
    expect(quantizeParts(p('-2.1'), 0, 'towardNegative')).toEqual(p('-3'));
  });
  it('pads to a finer exponent', () => expect(quantizeParts(p('1.5'), -3, 'halfEven')).toEqual(p('1.500')));
  it('rounds at a coarser exponent', () => expect(quantizeParts(p('1250'), 2, 'halfEven')).toEqual(p('12E2')));
  it('an infinity is NaN', () => expect(quantizeParts(p('Infinity'), 0, 'halfEven')).toEqual({ kind: 'nan' }));
  it('over 34 digits: the value kept, or NaN', () => {
    expect(quantizeParts(p('1E+40'), 0, 'halfEven')).toEqual(p('1E+40'));
    expect(quantizeParts(p('1E+40'), 0, 'halfEven', 'nan')).toEqual({ kind: 'nan' });
  });
});
