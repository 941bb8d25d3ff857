/**
 * Element operators: $exists and $type (type numbers, aliases, 'number', arrays of them).
 */
import { CommandError } from '../../../errors/command_error.js';
import { BSON_TYPE_CODES, BSON_TYPE_NAMES_BY_CODE, bsonTypeOf, type BsonTypeName } from '../../values/bson_type.js';
import { isNumber, parseIntegerToInt } from '../../values/numeric.js';
import { formatDoubleShort } from '../../values/format.js';
import { MISSING } from '../../values/paths.js';
import { leaf, not, type Clause } from '../types.js';
import { bsonTag } from '../../../bson/library.js';

/** mongod's BSONElement::trueValue. */
export function trueValue(v: unknown): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return v !== 0;
    case 'undefined':
      return false;
    case 'object':
      if (v === null) return false;
      break;
    default:
      return true;
  }
  const tag = bsonTag(v);
  if (tag === 'Double' || tag === 'Int32') return (v as { value: number }).value !== 0;
  if (tag === 'Long') return !(v as { isZero(): boolean }).isZero();
  if (tag === 'Decimal128') {
    const s = String(v);
    return !/^-?0(\.0*)?(E[+-]?\d+)?$/i.test(s);
  }
  return true;
}

/** `{path: {$exists: bool}}`. */
export function parseExists(rhs: unknown): Clause {
  const exists = leaf((v) => v !== MISSING);
  return trueValue(rhs) ? exists : not(exists);
}

/** A parsed `$type` argument: BSON type numbers, and whether 'number' was asked. */
export interface TypeSet {
  readonly codes: ReadonlySet<number>;
  readonly allNumbers: boolean;
}

const NUMBER_ALIAS = 'number';

/** Parses a `$type` argument (one alias/number or an array of them) as mongod does. */
export function parseTypeSet(name: string, rhs: unknown): TypeSet {
  const codes = new Set<number>();
  let allNumbers = false;
  const addOne = (t: unknown): void => {
    if (typeof t === 'string') {
      if (t === NUMBER_ALIAS) {
        allNumbers = true;
        return;
      }
      if (t === 'missing') {
        throw new CommandError(
          'BadValue',
          "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}.",
        );
      }
      const code = (BSON_TYPE_CODES as Record<string, number>)[t];
      if (code === undefined || !Object.prototype.hasOwnProperty.call(BSON_TYPE_CODES, t)) {
        throw new CommandError('BadValue', `Unknown type name alias: ${t}`);
      }
      codes.add(code);
      return;
    }
    if (!isNumber(t) || typeof t === 'bigint') {
      throw new CommandError('TypeMismatch', 'type must be represented as a number or a string');
    }
    const asDouble = numberForMessage(t);
    const parsed = parseIntegerToInt('', t);
    if (!parsed.ok) throw new CommandError('BadValue', `Invalid numerical type code: ${asDouble}`);
    const code = Number(parsed.value);
    if (code === 0) {
      throw new CommandError('BadValue', `Invalid numerical type code: ${asDouble}. Instead use {$exists:false}.`);
    }
    if (!BSON_TYPE_NAMES_BY_CODE.has(code)) {
      throw new CommandError('BadValue', `Invalid numerical type code: ${asDouble}`);
    }
    codes.add(code);
  };
  if (Array.isArray(rhs)) {
    for (const t of rhs) addOne(t);
  } else {
    addOne(rhs);
  }
  if (codes.size === 0 && !allNumbers) {
    throw new CommandError('FailedToParse', `${name} must match at least one type`);
  }
  return { codes, allNumbers };
}

/** `elt.number()` printed through a C++ stream (%g). */
function numberForMessage(t: unknown): string {
  if (typeof t === 'number') return formatDoubleShort(t);
  const tag = bsonTag(t);
  if (tag === 'Double' || tag === 'Int32') return formatDoubleShort((t as { value: number }).value);
  return formatDoubleShort(Number(String(t)));
}

/** The single-value test of a type set. */
export function typeTest(set: TypeSet): (v: unknown) => boolean {
  const { codes, allNumbers } = set;
  return (v) => {
    if (v === MISSING) return false;
    const name: BsonTypeName = bsonTypeOf(v);
    if (allNumbers && (name === 'int' || name === 'long' || name === 'double' || name === 'decimal')) return true;
    return codes.has(BSON_TYPE_CODES[name]);
  };
}

/** `{path: {$type: ...}}`. */
export function parseType(name: string, rhs: unknown): Clause {
  return leaf(typeTest(parseTypeSet(name, rhs)));
}
