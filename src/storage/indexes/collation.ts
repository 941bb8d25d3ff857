/**
 * Collation specs of indexes: validated and spelled out as mongod stores them (ICU 57.1 defaults
 * filled in), `{ locale: 'simple' }` meaning none. Mayfly stores and lists an index collation;
 * string comparisons by collation (case-insensitive matching, collated sorts and unique keys) are
 * not implemented yet, so the planner never uses a collated index on its own.
 */
import type { Document } from '../../bson.js';
import { CommandError } from '../../errors/command_error.js';
import { bsonTypeOf, isNumber, toDouble } from '../values/bson_type.js';
import { formatValue } from '../values/bson_to_string.js';
import { isDocument } from '../values/paths.js';

/** The locales mongod's ICU build accepts (MongoDB manual, "Collation Locales"). */
const LOCALES = new Set(
  (
    'af sq am ar hy as az be bn bs bs_Cyrl bg my ca chr zh zh_Hant hr cs da nl dz en en_US en_US_POSIX eo et ee fo fil fi ' +
    'fi_FI fr fr_CA gl ka de de_AT el gu ha haw he hi hu is ig smn id ga it ja kl kn kk km kok ko ky lk lo lv li lt dsb ' +
    'lb mk ms ml mt mr mn ne se nb nn or om ps fa fa_AF pl pt pa ro ru sr sr_Latn si sk sl es sw sv ta te th bo to tr uk ' +
    'hsb ur ug vi wae cy yi yo zu'
  ).split(' '),
);

const FIELDS = ['locale', 'caseLevel', 'caseFirst', 'strength', 'numericOrdering', 'alternate', 'maxVariable', 'normalization', 'backwards', 'version'];
const BOOLEANS = new Set(['caseLevel', 'numericOrdering', 'normalization', 'backwards']);
const ENUMS: Readonly<Record<string, readonly string[]>> = {
  caseFirst: ['upper', 'lower', 'off'],
  alternate: ['non-ignorable', 'shifted'],
  maxVariable: ['punct', 'space'],
};

/** True when `locale` (with an optional `@keyword` part) is one mongod knows. */
function knownLocale(locale: string): boolean {
  return LOCALES.has(locale.split('@')[0]!);
}

/**
 * The collation an index stores for a requested `collation` (null for the simple collation).
 * Throws mongod's IDL errors for bad fields and 2 BadValue for an unknown locale.
 */
export function normaliseCollation(collation: Document): Document | null {
  for (const key of Object.keys(collation)) {
    if (!FIELDS.includes(key)) throw new CommandError('IDLUnknownField', `BSON field 'collation.${key}' is an unknown field.`);
  }
  const locale = collation.locale;
  if (locale === undefined) throw new CommandError('IDLFailedToParse', "BSON field 'collation.locale' is missing but a required field");
  if (typeof locale !== 'string') {
    throw new CommandError('TypeMismatch', `BSON field 'collation.locale' is the wrong type '${bsonTypeOf(locale)}', expected type 'string'`);
  }
  for (const key of BOOLEANS) {
    const v = collation[key];
    if (v !== undefined && typeof v !== 'boolean') {
      throw new CommandError('TypeMismatch', `BSON field 'collation.${key}' is the wrong type '${bsonTypeOf(v)}', expected type 'bool'`);
    }
  }
  for (const [key, allowed] of Object.entries(ENUMS)) {
    const v = collation[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new CommandError('TypeMismatch', `BSON field 'collation.${key}' is the wrong type '${bsonTypeOf(v)}', expected type 'string'`);
    if (!allowed.includes(v)) throw new CommandError('BadValue', `Enumeration value '${v}' for field 'collation.${key}' is not a valid value.`);
  }
  let strength = 3;
  if (collation.strength !== undefined) {
    const v = collation.strength;
    if (!isNumber(v)) throw new CommandError('TypeMismatch', `BSON field 'collation.strength' is the wrong type '${bsonTypeOf(v)}', expected types '[int, long, double, decimal]'`);
    strength = Math.trunc(toDouble(v));
    if (strength > 5) throw new CommandError('BadValue', `BSON field 'strength' value must be <= 5, actual value '${strength}'`);
    if (strength < 1) throw new CommandError('BadValue', `BSON field 'strength' value must be >= 1, actual value '${strength}'`);
  }
  if (locale === 'simple') return null;
  if (!knownLocale(locale)) {
    const lower = locale.toLowerCase().replace('-', '_');
    const hint = lower !== locale && knownLocale(lower) ? `. Did you mean '${lower}'?` : '';
    throw new CommandError('BadValue', `Field 'locale' is invalid in: ${formatValue(collation)}${hint}`);
  }
  return {
    locale,
    caseLevel: collation.caseLevel ?? false,
    caseFirst: collation.caseFirst ?? 'off',
    strength,
    numericOrdering: collation.numericOrdering ?? false,
    alternate: collation.alternate ?? 'non-ignorable',
    maxVariable: collation.maxVariable ?? 'punct',
    normalization: collation.normalization ?? false,
    backwards: collation.backwards ?? locale === 'fr_CA',
    version: '57.1',
  };
}

/** True when two stored collations (null: simple) are the same. */
export function sameCollation(a: unknown, b: unknown): boolean {
  if (!isDocument(a) || !isDocument(b)) return !isDocument(a) && !isDocument(b);
  return FIELDS.every((f) => a[f] === b[f]);
}
