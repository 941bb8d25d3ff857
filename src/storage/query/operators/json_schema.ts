/**
 * `$jsonSchema`: mongod's subset of JSON Schema draft 4 plus `bsonType`, parsed with the
 * codes and messages of mongo/src/mongo/db/matcher/schema/json_schema_parser.cpp and matched
 * with the semantics of the match expressions mongod translates a schema into.
 *
 * A schema compiles to a test of one value (`MISSING` where absent); the top-level schema is
 * the test applied to the whole document. mongod builds the same logic from path expressions:
 *   - type-specific keywords (minimum, pattern, minItems, properties, ...) hold vacuously for a
 *     missing value or a value of another type (mongod's `makeRestriction`);
 *   - `type`/`bsonType` require the value to be present and of a listed type;
 *   - `properties` checks only present fields, `required` makes them present;
 *   - numbers compare across Int32/Int64/Double/Decimal128; `multipleOf` is computed in
 *     Decimal128 (a double converted with 15 significant digits, as `numberDecimal()` does);
 *   - `enum` and `uniqueItems` compare values ignoring the field order of embedded documents;
 *   - string lengths count code points; `pattern`/`patternProperties` search (unanchored).
 * Path-dependent parse checks follow mongod: at the top level (and in its allOf/anyOf/oneOf/
 * not/dependencies sub-schemas) `pattern` is not compiled and `multipleOf` may be NaN or
 * infinite, because mongod replaces those keywords by $alwaysTrue there.
 * `encrypt`/`encryptMetadata` answer 238 NotImplemented (Mayfly has no client-side encryption).
 * Property names with dots are followed through embedded documents (not through arrays).
 */
import type { Document } from '../../../bson/library.js';
import { CommandError } from '../../../errors/command_error.js';
import { BSON_TYPE_CODES, bsonTypeOf, type BsonTypeName } from '../../values/bson_type.js';
import { isNumber, toDecimalParts, parseIntegerToNonNegativeLong, unwrapOrFailedToParse } from '../../values/numeric.js';
import { compareStrings, valuesEqual } from '../../values/compare.js';
import type { DecimalParts } from '../../values/decimal.js';
import { isDocument, MISSING } from '../../values/paths.js';
import { compileRegex } from '../regex.js';
import type { Predicate, ValueTest } from '../types.js';
import { comparisonTest, regexTest } from './comparison.js';
import type { TypeSet } from './element.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** Keywords mongod knows, in no particular order (the parse order is fixed below). */
const KEYWORDS: ReadonlySet<string> = new Set([
  'additionalItems',
  'additionalProperties',
  'allOf',
  'anyOf',
  'bsonType',
  'dependencies',
  'description',
  'encrypt',
  'encryptMetadata',
  'enum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'multipleOf',
  'not',
  'oneOf',
  'pattern',
  'patternProperties',
  'properties',
  'required',
  'title',
  'type',
  'uniqueItems',
]);

/** JSON Schema keywords mongod refuses explicitly. */
const UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);

/** The JSON Schema `type` names (besides 'number') and their BSON type numbers. */
const JSON_TYPE_CODES: Readonly<Record<string, number>> = Object.freeze({
  array: 4,
  boolean: 8,
  null: 10,
  object: 3,
  string: 2,
});

const ALWAYS: ValueTest = () => true;
const NEVER: ValueTest = () => false;

/** `{$jsonSchema: schema}` (top-level or inside $elemMatch, as mongod allows): the predicate. */
export function parseJsonSchema(rhs: unknown): Predicate {
  if (!isDocument(rhs)) throw new CommandError('TypeMismatch', '$jsonSchema must be an object');
  const test = compileSchema(rhs, true);
  return (doc) => test(Array.isArray(doc) ? arrayAsDocument(doc) : doc);
}

/** An array seen as the document mongod reads it as ({'0': a, '1': b}), inside $elemMatch. */
function arrayAsDocument(arr: unknown[]): Document {
  const out: Document = {};
  for (let i = 0; i < arr.length; i++) out[String(i)] = arr[i];
  return out;
}

function fail(code: 'BadValue' | 'FailedToParse' | 'TypeMismatch', message: string): never {
  throw new CommandError(code, message);
}

/** mongod's `typeName()` of a value, for messages. */
function typeNameOf(v: unknown): BsonTypeName {
  return bsonTypeOf(v);
}

/** The kinds of value a restriction keyword applies to. */
type Kind = 'number' | 'string' | 'array' | 'object';

function isKind(v: unknown, kind: Kind): boolean {
  if (v === MISSING) return false;
  switch (kind) {
    case 'number':
      return isNumber(v);
    case 'string':
      return typeof v === 'string';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return bsonTypeOf(v) === 'object';
  }
}

/** A restriction: holds for values not of `kind` (mongod's makeRestriction). */
function restrict(kind: Kind, test: ValueTest): ValueTest {
  return (v) => !isKind(v, kind) || test(v);
}

/** The value of property `name` in `obj` (dotted names walk embedded documents), or MISSING. */
export function propertyOf(obj: Document, name: string): unknown {
  if (hasOwn.call(obj, name)) return obj[name];
  if (!name.includes('.')) return MISSING;
  let cur: unknown = obj;
  for (const part of name.split('.')) {
    if (!isDocument(cur) || !hasOwn.call(cur, part)) return MISSING;
    cur = cur[part];
  }
  return cur;
}

function allOf(tests: readonly ValueTest[]): ValueTest {
  if (tests.length === 0) return ALWAYS;
  if (tests.length === 1) return tests[0]!;
  const list = tests.slice();
  return (v) => {
    for (let i = 0; i < list.length; i++) if (!list[i]!(v)) return false;
    return true;
  };
}

/**
 * Compiles one schema. `topLevel` is mongod's empty path: the root schema and the schemas of
 * its logical keywords and schema dependencies.
 */
function compileSchema(schema: Document, topLevel: boolean): ValueTest {
  const kw = new Map<string, unknown>();
  for (const key in schema) {
    if (!KEYWORDS.has(key)) {
      if (UNSUPPORTED_KEYWORDS.has(key)) fail('FailedToParse', `$jsonSchema keyword '${key}' is not currently supported`);
      fail('FailedToParse', `Unknown $jsonSchema keyword: ${key}`);
    }
    kw.set(key, schema[key]);
  }

  for (const name of ['description', 'title']) {
    if (kw.has(name) && typeof kw.get(name) !== 'string') {
      fail('TypeMismatch', `$jsonSchema keyword '${name}' must be of type string`);
    }
  }

  const hasType = kw.has('type');
  const hasBsonType = kw.has('bsonType');
  const hasEncrypt = kw.has('encrypt');
  if (hasType && hasBsonType) fail('FailedToParse', "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
  for (const name of ['type', 'bsonType']) {
    if (kw.has(name) && hasEncrypt) {
      fail(
        'FailedToParse',
        `$jsonSchema keyword 'encrypt' cannot be used in conjunction with '${name}', 'encrypt' implies type 'bsonType::BinData'`,
      );
    }
  }

  let typeSet: TypeSet | null = null;
  if (hasType) typeSet = parseTypeSet('type', kw.get('type'), JSON_TYPE_CODES);
  else if (hasBsonType) typeSet = parseTypeSet('bsonType', kw.get('bsonType'), BSON_TYPE_CODES);

  const tests: ValueTest[] = [];
  translateScalarKeywords(kw, topLevel, tests);
  translateArrayKeywords(kw, tests);
  if (hasEncrypt || kw.has('encryptMetadata')) {
    if (hasEncrypt && kw.has('encryptMetadata')) {
      fail('FailedToParse', "Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'");
    }
    throw new CommandError('NotImplemented', `$jsonSchema keyword '${hasEncrypt ? 'encrypt' : 'encryptMetadata'}' is not supported by Mayfly`);
  }
  translateObjectKeywords(kw, topLevel, tests);
  translateLogicalKeywords(kw, topLevel, tests);

  if (typeSet !== null) tests.push(typeSetTest(typeSet));
  return allOf(tests);
}

/** JSONSchemaParser::parseTypeSet plus the "at least one type" check. */
function parseTypeSet(keyword: string, elt: unknown, aliases: Readonly<Record<string, number>>): TypeSet {
  if (typeof elt !== 'string' && !Array.isArray(elt)) {
    fail('TypeMismatch', `$jsonSchema keyword '${keyword}' must be either a string or an array of strings`);
  }
  const integerRefused = "$jsonSchema type 'integer' is not currently supported.";
  const names: string[] = [];
  if (typeof elt === 'string') {
    if (elt === 'integer') fail('FailedToParse', integerRefused);
    names.push(elt);
  } else {
    for (const entry of elt) {
      if (typeof entry !== 'string') fail('TypeMismatch', `$jsonSchema keyword '${keyword}' array elements must be strings`);
      if (entry === 'integer') fail('FailedToParse', integerRefused);
      if (names.includes(entry)) fail('FailedToParse', `$jsonSchema keyword '${keyword}' has duplicate value: ${entry}`);
      names.push(entry);
    }
  }
  // mongod resolves the aliases from a sorted set: the first bad one in byte order is reported.
  names.sort(compareStrings);
  const codes = new Set<number>();
  let allNumbers = false;
  for (const name of names) {
    if (name === 'number') {
      allNumbers = true;
      continue;
    }
    if (!hasOwn.call(aliases, name)) {
      if (name === 'missing') {
        fail('BadValue', "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}.");
      }
      fail('BadValue', `Unknown type name alias: ${name}`);
    }
    codes.add(aliases[name]!);
  }
  if (codes.size === 0 && !allNumbers) fail('FailedToParse', `$jsonSchema keyword '${keyword}' must name at least one type`);
  return { codes, allNumbers };
}

function typeSetTest(set: TypeSet): ValueTest {
  const { codes, allNumbers } = set;
  return (v) => {
    if (v === MISSING) return false;
    if (allNumbers && isNumber(v)) return true;
    return codes.has(BSON_TYPE_CODES[bsonTypeOf(v)]);
  };
}

function nonNegativeLong(keyword: string, v: unknown): number {
  return Number(unwrapOrFailedToParse(parseIntegerToNonNegativeLong(keyword, v)));
}

/** pattern, maxLength, minLength, multipleOf, maximum/exclusiveMaximum, minimum/exclusiveMinimum. */
function translateScalarKeywords(kw: Map<string, unknown>, topLevel: boolean, tests: ValueTest[]): void {
  if (kw.has('pattern')) {
    const pattern = kw.get('pattern');
    if (typeof pattern !== 'string') fail('TypeMismatch', "$jsonSchema keyword 'pattern' must be a string");
    if (!topLevel) tests.push(restrict('string', regexTest(pattern, '')));
  }
  if (kw.has('maxLength')) {
    const max = nonNegativeLong('maxLength', kw.get('maxLength'));
    tests.push(restrict('string', (v) => codePointLength(v as string) <= max));
  }
  if (kw.has('minLength')) {
    const min = nonNegativeLong('minLength', kw.get('minLength'));
    tests.push(restrict('string', (v) => codePointLength(v as string) >= min));
  }
  if (kw.has('multipleOf')) {
    const m = kw.get('multipleOf');
    if (!isNumber(m)) fail('TypeMismatch', "$jsonSchema keyword 'multipleOf' must be a number");
    const divisor = toDecimalParts(m);
    if (divisor.kind !== 'nan' && (divisor.negative || (divisor.kind === 'finite' && divisor.coefficient === 0n))) {
      fail('FailedToParse', "$jsonSchema keyword 'multipleOf' must have a positive value");
    }
    if (!topLevel) {
      // InternalSchemaFmodMatchExpression's constructor checks (never reached at the top level).
      if (divisor.kind === 'nan') fail('BadValue', 'divisor cannot be NaN');
      if (divisor.kind === 'inf') fail('BadValue', 'divisor cannot be infinite');
      tests.push(restrict('number', (v) => isMultipleOf(toDecimalParts(v), divisor)));
    }
  }
  translateBound(kw, 'maximum', 'exclusiveMaximum', '$lte', '$lt', tests);
  translateBound(kw, 'minimum', 'exclusiveMinimum', '$gte', '$gt', tests);
}

function translateBound(
  kw: Map<string, unknown>,
  keyword: 'maximum' | 'minimum',
  exclusiveKeyword: 'exclusiveMaximum' | 'exclusiveMinimum',
  inclusiveOp: '$lte' | '$gte',
  exclusiveOp: '$lt' | '$gt',
  tests: ValueTest[],
): void {
  if (!kw.has(keyword)) {
    if (kw.has(exclusiveKeyword)) {
      fail('FailedToParse', `$jsonSchema keyword '${keyword}' must be a present if ${exclusiveKeyword} is present`);
    }
    return;
  }
  let exclusive = false;
  if (kw.has(exclusiveKeyword)) {
    const e = kw.get(exclusiveKeyword);
    if (typeof e !== 'boolean') fail('TypeMismatch', `$jsonSchema keyword '${exclusiveKeyword}' must be a boolean`);
    exclusive = e;
  }
  const bound = kw.get(keyword);
  if (!isNumber(bound)) fail('TypeMismatch', `$jsonSchema keyword '${keyword}' must be a number`);
  tests.push(restrict('number', comparisonTest(exclusive ? exclusiveOp : inclusiveOp, bound)));
}

function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Decimal128 fmod(x, divisor) == 0 without signalling flags (NaN/Inf dividends never match). */
function isMultipleOf(x: DecimalParts, divisor: DecimalParts): boolean {
  if (x.kind !== 'finite' || divisor.kind !== 'finite') return false;
  if (x.coefficient === 0n) return true;
  let a = x.coefficient;
  let b = divisor.coefficient;
  if (x.exponent > divisor.exponent) a *= 10n ** BigInt(x.exponent - divisor.exponent);
  else if (divisor.exponent > x.exponent) b *= 10n ** BigInt(divisor.exponent - x.exponent);
  return a % b === 0n;
}

/** minItems, maxItems, uniqueItems, items, additionalItems. */
function translateArrayKeywords(kw: Map<string, unknown>, tests: ValueTest[]): void {
  if (kw.has('minItems')) {
    const min = nonNegativeLong('minItems', kw.get('minItems'));
    tests.push(restrict('array', (v) => (v as unknown[]).length >= min));
  }
  if (kw.has('maxItems')) {
    const max = nonNegativeLong('maxItems', kw.get('maxItems'));
    tests.push(restrict('array', (v) => (v as unknown[]).length <= max));
  }
  if (kw.has('uniqueItems')) {
    const u = kw.get('uniqueItems');
    if (typeof u !== 'boolean') fail('TypeMismatch', "$jsonSchema keyword 'uniqueItems' must be a boolean");
    if (u) tests.push(restrict('array', (v) => allUnique(v as unknown[])));
  }
  let additionalFrom: number | null = null;
  if (kw.has('items')) {
    const items = kw.get('items');
    if (Array.isArray(items)) {
      const subs: ValueTest[] = [];
      for (const sub of items) {
        if (!isDocument(sub)) {
          fail(
            'TypeMismatch',
            `$jsonSchema keyword 'items' requires that each element of the array is an object, but found a ${typeNameOf(sub)}`,
          );
        }
        subs.push(compileSchema(sub, false));
      }
      additionalFrom = subs.length;
      tests.push(
        restrict('array', (v) => {
          const arr = v as unknown[];
          const n = Math.min(arr.length, subs.length);
          for (let i = 0; i < n; i++) if (!subs[i]!(arr[i])) return false;
          return true;
        }),
      );
    } else if (isDocument(items)) {
      const each = compileSchema(items, false);
      tests.push(restrict('array', (v) => (v as unknown[]).every((el) => each(el))));
    } else {
      fail('TypeMismatch', `$jsonSchema keyword 'items' must be an array or an object, not ${typeNameOf(items)}`);
    }
  }
  if (kw.has('additionalItems')) {
    const additional = kw.get('additionalItems');
    let rest: ValueTest;
    if (typeof additional === 'boolean') rest = additional ? ALWAYS : NEVER;
    else if (isDocument(additional)) rest = compileSchema(additional, false);
    else {
      fail(
        'TypeMismatch',
        `$jsonSchema keyword 'additionalItems' must be either an object or a boolean, but got a ${typeNameOf(additional)}`,
      );
    }
    if (additionalFrom !== null) {
      const from = additionalFrom;
      tests.push(
        restrict('array', (v) => {
          const arr = v as unknown[];
          for (let i = from; i < arr.length; i++) if (!rest(arr[i])) return false;
          return true;
        }),
      );
    }
  }
}

/** required, properties, patternProperties/additionalProperties, minProperties, maxProperties, dependencies. */
function translateObjectKeywords(kw: Map<string, unknown>, topLevel: boolean, tests: ValueTest[]): void {
  const required = kw.has('required') ? parseRequired(kw.get('required')) : [];

  let propertyNames: string[] = [];
  if (kw.has('properties')) {
    const properties = kw.get('properties');
    if (!isDocument(properties)) fail('TypeMismatch', "$jsonSchema keyword 'properties' must be an object");
    const checks: Array<{ name: string; test: ValueTest; required: boolean }> = [];
    for (const name in properties) {
      const sub = properties[name];
      if (!isDocument(sub)) fail('TypeMismatch', `Nested schema for $jsonSchema property '${name}' must be an object`);
      checks.push({ name, test: compileSchema(sub, false), required: required.includes(name) });
    }
    propertyNames = checks.map((c) => c.name);
    tests.push(
      restrict('object', (v) => {
        const obj = v as Document;
        for (const c of checks) {
          const value = propertyOf(obj, c.name);
          if (value === MISSING && !c.required) continue;
          if (!c.test(value)) return false;
        }
        return true;
      }),
    );
  }

  if (kw.has('patternProperties') || kw.has('additionalProperties')) {
    const patterns = kw.has('patternProperties') ? parsePatternProperties(kw.get('patternProperties')) : [];
    let otherwise: ValueTest = ALWAYS;
    if (kw.has('additionalProperties')) {
      const additional = kw.get('additionalProperties');
      if (typeof additional === 'boolean') otherwise = additional ? ALWAYS : NEVER;
      else if (isDocument(additional)) otherwise = compileSchema(additional, false);
      else fail('TypeMismatch', "$jsonSchema keyword 'additionalProperties' must be an object or a boolean");
    }
    const named = new Set(propertyNames);
    tests.push(
      restrict('object', (v) => {
        const obj = v as Document;
        for (const field in obj) {
          const value = obj[field];
          let checkOtherwise = true;
          for (const p of patterns) {
            if (p.re.test(field)) {
              checkOtherwise = false;
              if (!p.test(value)) return false;
            }
          }
          if (checkOtherwise && named.has(field)) checkOtherwise = false;
          if (checkOtherwise && !otherwise(value)) return false;
        }
        return true;
      }),
    );
  }

  if (required.length > 0) {
    const names = required.slice();
    tests.push(restrict('object', (v) => names.every((n) => propertyOf(v as Document, n) !== MISSING)));
  }

  if (kw.has('minProperties')) {
    const min = nonNegativeLong('minProperties', kw.get('minProperties'));
    tests.push(restrict('object', (v) => Object.keys(v as Document).length >= min));
  }
  if (kw.has('maxProperties')) {
    const max = nonNegativeLong('maxProperties', kw.get('maxProperties'));
    tests.push(restrict('object', (v) => Object.keys(v as Document).length <= max));
  }
  if (kw.has('dependencies')) tests.push(parseDependencies(kw.get('dependencies'), topLevel));
}

function parseRequired(elt: unknown): string[] {
  if (!Array.isArray(elt)) {
    fail('TypeMismatch', `$jsonSchema keyword 'required' must be an array, but found an element of type ${typeNameOf(elt)}`);
  }
  const names: string[] = [];
  for (const name of elt) {
    if (typeof name !== 'string') {
      fail(
        'TypeMismatch',
        `$jsonSchema keyword 'required' must be an array of strings, but found an element of type: ${typeNameOf(name)}`,
      );
    }
    if (names.includes(name)) fail('FailedToParse', "$jsonSchema keyword 'required' array cannot contain duplicate values");
    names.push(name);
  }
  if (names.length === 0) fail('FailedToParse', "$jsonSchema keyword 'required' cannot be an empty array");
  return names;
}

function parsePatternProperties(elt: unknown): Array<{ re: RegExp; test: ValueTest }> {
  if (!isDocument(elt)) fail('TypeMismatch', "$jsonSchema keyword 'patternProperties' must be an object");
  const out: Array<{ re: RegExp; test: ValueTest }> = [];
  for (const pattern in elt) {
    const sub = elt[pattern];
    if (!isDocument(sub)) {
      fail('TypeMismatch', `$jsonSchema keyword 'patternProperties' has property '${pattern}' which is not an object`);
    }
    const test = compileSchema(sub, false);
    out.push({ re: compileRegex(pattern, ''), test });
  }
  return out;
}

function parseDependencies(elt: unknown, topLevel: boolean): ValueTest {
  if (!isDocument(elt)) fail('TypeMismatch', "$jsonSchema keyword 'dependencies' must be an object");
  const tests: ValueTest[] = [];
  for (const name in elt) {
    const dep = elt[name];
    if (isDocument(dep)) {
      // A schema dependency applies to the same value (same path): top level stays top level.
      const schema = compileSchema(dep, topLevel);
      tests.push((v) => !(isKind(v, 'object') && propertyOf(v as Document, name) !== MISSING) || schema(v));
      continue;
    }
    if (!Array.isArray(dep)) {
      if (typeof dep === 'string' && (name === 'title' || name === 'description')) continue;
      fail('TypeMismatch', `property '${name}' in $jsonSchema keyword 'dependencies' must be either an object or an array`);
    }
    if (dep.length === 0) {
      fail('FailedToParse', `property '${name}' in $jsonSchema keyword 'dependencies' cannot be an empty array`);
    }
    const needed: string[] = [];
    for (const other of dep) {
      if (typeof other !== 'string') {
        fail(
          'TypeMismatch',
          `array '${name}' in $jsonSchema keyword 'dependencies' can only contain strings, but found element of type: ${typeNameOf(other)}`,
        );
      }
      if (needed.includes(other)) {
        fail('FailedToParse', `array '${name}' in $jsonSchema keyword 'dependencies' contains duplicate element: ${other}`);
      }
      needed.push(other);
    }
    tests.push((v) => {
      if (!isKind(v, 'object') || propertyOf(v as Document, name) === MISSING) return true;
      return needed.every((n) => propertyOf(v as Document, n) !== MISSING);
    });
  }
  return allOf(tests);
}

/** allOf, anyOf, oneOf, not, enum. */
function translateLogicalKeywords(kw: Map<string, unknown>, topLevel: boolean, tests: ValueTest[]): void {
  if (kw.has('allOf')) tests.push(allOf(parseSchemaList('allOf', kw.get('allOf'), topLevel)));
  if (kw.has('anyOf')) {
    const subs = parseSchemaList('anyOf', kw.get('anyOf'), topLevel);
    tests.push((v) => subs.some((t) => t(v)));
  }
  if (kw.has('oneOf')) {
    const subs = parseSchemaList('oneOf', kw.get('oneOf'), topLevel);
    tests.push((v) => {
      let count = 0;
      for (const t of subs) if (t(v) && ++count > 1) return false;
      return count === 1;
    });
  }
  if (kw.has('not')) {
    const n = kw.get('not');
    if (!isDocument(n)) {
      fail('TypeMismatch', `$jsonSchema keyword 'not' must be an object, but found an element of type ${typeNameOf(n)}`);
    }
    const sub = compileSchema(n, topLevel);
    tests.push((v) => !sub(v));
  }
  if (kw.has('enum')) tests.push(parseEnum(kw.get('enum')));
}

function parseSchemaList(keyword: string, elt: unknown, topLevel: boolean): ValueTest[] {
  if (!Array.isArray(elt)) fail('TypeMismatch', `$jsonSchema keyword '${keyword}' must be an array`);
  if (elt.length === 0) fail('BadValue', `$jsonSchema keyword '${keyword}' must be a non-empty array`);
  return elt.map((sub) => {
    if (!isDocument(sub)) {
      fail(
        'TypeMismatch',
        `$jsonSchema keyword '${keyword}' must be an array of objects, but found an element of type ${typeNameOf(sub)}`,
      );
    }
    return compileSchema(sub, topLevel);
  });
}

function parseEnum(elt: unknown): ValueTest {
  if (!Array.isArray(elt)) {
    fail('TypeMismatch', `$jsonSchema keyword 'enum' must be an array, but found an element of type ${typeNameOf(elt)}`);
  }
  if (elt.length === 0) fail('FailedToParse', "$jsonSchema keyword 'enum' cannot be an empty array");
  const values: unknown[] = [];
  for (const value of elt) {
    if (values.some((seen) => unorderedEqual(seen, value))) {
      fail('FailedToParse', "$jsonSchema keyword 'enum' array cannot contain duplicate values.");
    }
    values.push(value);
  }
  return (v) => v !== MISSING && values.some((value) => unorderedEqual(v, value));
}

function allUnique(arr: readonly unknown[]): boolean {
  for (let i = 1; i < arr.length; i++) {
    for (let j = 0; j < i; j++) if (unorderedEqual(arr[i], arr[j])) return false;
  }
  return true;
}

/** Equality ignoring the field order of embedded documents (UnorderedFieldsBSONElementComparator). */
function unorderedEqual(a: unknown, b: unknown): boolean {
  if (isDocument(a) && isDocument(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) {
      if (!hasOwn.call(b, k) || !unorderedEqual(a[k], b[k])) return false;
    }
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!unorderedEqual(a[i], b[i])) return false;
    return true;
  }
  if (isDocument(a) || isDocument(b) || Array.isArray(a) || Array.isArray(b)) return false;
  return valuesEqual(a, b);
}

/**
 * The test of one (sub)schema on one value (`MISSING` where absent), for the document
 * validation errors that explain which keywords failed (`src/storage/validation/`).
 */
export function compileSchemaValueTest(schema: Document, topLevel: boolean): ValueTest {
  return compileSchema(schema, topLevel);
}
